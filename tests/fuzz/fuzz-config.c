/* config_parse() and cmdline_mode() on any bytes: the config file and /proc/cmdline. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "invariants.h"

#define PATH "/etc/hyperv-scheduler.conf"

struct warnings {
        unsigned n;
        unsigned last_line;
        unsigned lines; /* lines in the input, an upper bound for line numbers */
};

static void warn(void *userdata, const char *path, unsigned line, const char *msg) {
        struct warnings *w = userdata;

        FUZZ_CHECK(strcmp(path, PATH) == 0, "warning for path '%s'", path);
        FUZZ_CHECK(line >= 1 && line <= w->lines, "warning for line %u of %u", line, w->lines);
        FUZZ_CHECK(line > w->last_line, "warning for line %u after line %u", line, w->last_line);
        FUZZ_CHECK(printable_within(msg, strlen(msg) + 1) && msg[0] != '\0',
                   "warning for line %u is empty or not printable ASCII", line);
        w->last_line = line;
        w->n++;
}

static void check_globs(const struct glob_list *l, const char *what) {
        FUZZ_CHECK(l->n <= CONFIG_GLOBS_MAX, "%u %s patterns", l->n, what);
        for (unsigned i = 0; i < l->n; i++) {
                const char *g = l->glob[i];

                FUZZ_CHECK(memchr(g, '\0', CONFIG_GLOB_LEN), "%s pattern %u not terminated", what, i);
                FUZZ_CHECK(g[0] != '\0' && !strpbrk(g, " \t\n#,;"),
                           "%s pattern %u is empty or holds a blank, '#', ',' or ';'", what, i);
        }
}

static void check_config(const struct config *c) {
        FUZZ_CHECK(c->mode == MODE_AUTO || c->mode == MODE_ALWAYS || c->mode == MODE_OFF,
                   "mode %d", (int) c->mode);
        FUZZ_CHECK(mode_name(c->mode) != NULL, "mode %d has no name", (int) c->mode);
        /* none and noop only (the rule starts no process for a disk on either): one or both. */
        FUZZ_CHECK(c->schedulers.n >= 1 && c->schedulers.n <= 2, "%u schedulers",
                   c->schedulers.n);
        FUZZ_CHECK(c->schedulers.current == -1, "scheduler preference has a current entry");
        for (unsigned i = 0; i < c->schedulers.n; i++) {
                const char *s = c->schedulers.name[i];
                size_t len = strnlen(s, SCHED_NAME_MAX);

                FUZZ_CHECK(len < SCHED_NAME_MAX && sched_name_valid(s, len),
                           "scheduler %u is not a valid name", i);
                FUZZ_CHECK(strcmp(s, "none") == 0 || strcmp(s, "noop") == 0,
                           "scheduler %u is '%s', not none or noop", i, s);
        }
        check_globs(&c->exclude, "exclude");
        check_globs(&c->devices, "devices");
        FUZZ_CHECK(!c->found && !c->mode_from_cmdline, "config_parse set found or mode_from_cmdline");
        /* The globs go to fnmatch() for every disk. */
        config_wants(c, "sda");
        config_wants(c, "nvme0n1");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct warnings w = { .lines = 0 };
        struct config c;
        unsigned bad;
        enum mode m = (enum mode) 77;
        char *cmdline;
        int r;

        for (size_t i = 0; i < size; i++)
                w.lines += data[i] == '\n';
        if (size > 0 && data[size - 1] != '\n')
                w.lines++;

        config_defaults(&c);
        check_config(&c);
        bad = config_parse(&c, (const char *) data, size, PATH, warn, &w);
        FUZZ_CHECK(bad <= w.n, "%u lines ignored but %u warnings", bad, w.n);
        /* Only a pattern it cannot read makes the text unreadable, and that line is bad. */
        FUZZ_CHECK(!c.unreadable || bad > 0, "unreadable without a bad line");
        check_config(&c);

        /* The kernel command line is read as text: it ends at the first NUL. */
        cmdline = malloc(size + 1);
        FUZZ_CHECK(cmdline, "cannot allocate memory");
        memcpy(cmdline, data, size);
        cmdline[size] = '\0';
        r = cmdline_mode(cmdline, &m);
        FUZZ_CHECK(r == 0 || r == 1 || r == -EINVAL, "cmdline_mode returned %d", r);
        if (r == 1)
                FUZZ_CHECK(m == MODE_AUTO || m == MODE_ALWAYS || m == MODE_OFF, "cmdline mode %d",
                           (int) m);
        if (r == 0)
                FUZZ_CHECK(m == (enum mode) 77, "cmdline_mode found nothing but set the mode");
        /* '-' and '_' are one to the kernel (cmdline_mode(), as parameqn()). */
        if (r != 0)
                FUZZ_CHECK(strstr(cmdline, "hyperv_scheduler=") || strstr(cmdline, "hyperv-scheduler="),
                           "cmdline_mode returned %d without the key", r);
        free(cmdline);
        return 0;
}
