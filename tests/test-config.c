/* The configuration file and the kernel command line. Warning texts are shown to administrators
 * as "PATH:LINE: MESSAGE", so the tests assert them word for word. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "files.h"
#include "unit.h"
#include "util.h"

#define WARNINGS_MAX 40

static struct {
        unsigned n;
        unsigned line[WARNINGS_MAX];
        char msg[WARNINGS_MAX][256];
        char path[WARNINGS_MAX][256];
} warnings;
static struct config config;
static char dir[256];

static void record_warning(void *userdata, const char *path, unsigned line, const char *msg) {
        ck_assert_ptr_eq(userdata, &warnings);
        ck_assert_uint_lt(warnings.n, WARNINGS_MAX);
        warnings.line[warnings.n] = line;
        ck_assert(copy_string(warnings.msg[warnings.n], msg, sizeof(warnings.msg[0])));
        ck_assert(copy_string(warnings.path[warnings.n], path, sizeof(warnings.path[0])));
        warnings.n++;
}

static void setup(void) {
        memset(&warnings, 0, sizeof(warnings));
        config_defaults(&config);
}

static void setup_files(void) {
        setup();
        tmpdir_create(dir, sizeof(dir));
}

static void teardown_files(void) {
        tmpdir_remove(dir);
}

static unsigned parse(const char *text) {
        return config_parse(&config, text, strlen(text), "test.conf", record_warning, &warnings);
}

static void assert_warning(unsigned i, unsigned line, const char *msg) {
        ck_assert_msg(i < warnings.n, "expected warning %u (line %u: %s), got %u warnings", i, line,
                      msg, warnings.n);
        ck_assert_uint_eq(warnings.line[i], line);
        ck_assert_str_eq(warnings.msg[i], msg);
}

/* The one warning about a whole file, which names the file itself. */
__attribute__((format(printf, 1, 2)))
static void assert_load_warning(const char *fmt, ...) {
        char expected[1024];
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(expected, sizeof(expected), fmt, ap);
        va_end(ap);
        assert_warning(0, 0, expected);
}

static void assert_schedulers(const struct sched_list *l, const char *expected) {
        char joined[SCHED_LIST_MAX * SCHED_NAME_MAX] = "";

        for (unsigned i = 0; i < l->n; i++) {
                if (i > 0)
                        strcat(joined, " ");
                strcat(joined, l->name[i]);
        }
        ck_assert_str_eq(joined, expected);
        ck_assert_int_eq(l->current, -1);
}

static void assert_defaults(const struct config *c) {
        ck_assert_int_eq(c->mode, MODE_AUTO);
        assert_schedulers(&c->schedulers, "none noop");
        ck_assert_uint_eq(c->exclude.n, 0);
        ck_assert_uint_eq(c->devices.n, 0);
}

START_TEST(defaults_are_auto_none_noop_no_lists) {
        struct config c;

        memset(&c, 0xa5, sizeof(c));
        config_defaults(&c);
        assert_defaults(&c);
        ck_assert(!c.found);
        ck_assert(!c.mode_from_cmdline);
}
END_TEST

START_TEST(each_key_is_applied) {
        ck_assert_uint_eq(parse("mode = always\n"
                                "scheduler = noop none\n"
                                "exclude = sdc nvme*\n"
                                "devices = sd[a-z]\n"),
                          0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_int_eq(config.mode, MODE_ALWAYS);
        assert_schedulers(&config.schedulers, "noop none");
        ck_assert_uint_eq(config.exclude.n, 2);
        ck_assert_str_eq(config.exclude.glob[0], "sdc");
        ck_assert_str_eq(config.exclude.glob[1], "nvme*");
        ck_assert_uint_eq(config.devices.n, 1);
        ck_assert_str_eq(config.devices.glob[0], "sd[a-z]");
}
END_TEST

static const struct {
        const char *line;
        enum mode mode;
} modes[] = {
        { "mode = auto", MODE_AUTO },
        { "mode = always", MODE_ALWAYS },
        { "mode = off", MODE_OFF },
        { "mode=off", MODE_OFF },
        { "  mode\t=\toff  ", MODE_OFF },
};

START_TEST(mode_values_are_accepted) {
        config.mode = modes[_i].mode == MODE_AUTO ? MODE_OFF : MODE_AUTO;
        ck_assert_uint_eq(parse(modes[_i].line), 0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_int_eq(config.mode, modes[_i].mode);
}
END_TEST

START_TEST(comments_and_blank_lines_are_ignored) {
        ck_assert_uint_eq(parse("# a whole-line comment\n"
                                "\n"
                                "   \t \n"
                                "   # indented comment = with an equals sign\n"
                                "mode = off # after a value\n"
                                "scheduler = noop#no space before it\n"
                                "\n"),
                          0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_int_eq(config.mode, MODE_OFF);
        assert_schedulers(&config.schedulers, "noop");
}
END_TEST

START_TEST(crlf_line_endings_are_accepted) {
        ck_assert_uint_eq(parse("mode = off\r\nscheduler = none\r\nbogus\r\n"), 1);
        ck_assert_int_eq(config.mode, MODE_OFF);
        assert_schedulers(&config.schedulers, "none");
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 3, "expected 'key = value', got 'bogus'");
}
END_TEST

START_TEST(last_line_needs_no_newline) {
        ck_assert_uint_eq(parse("scheduler = noop\nmode = off"), 0);
        ck_assert_int_eq(config.mode, MODE_OFF);
        assert_schedulers(&config.schedulers, "noop");
}
END_TEST

START_TEST(unknown_key_is_reported_and_the_rest_applies) {
        ck_assert_uint_eq(parse("mode = always\n"
                                "\n"
                                "foo = bar\n"
                                "scheduler = noop\n"),
                          1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 3, "unknown key 'foo'");
        ck_assert_str_eq(warnings.path[0], "test.conf");
        ck_assert_int_eq(config.mode, MODE_ALWAYS);
        assert_schedulers(&config.schedulers, "noop");
}
END_TEST

START_TEST(unknown_key_is_escaped) {
        ck_assert_uint_eq(parse("m\x1b[0mode = off\n"), 1);
        assert_warning(0, 1, "unknown key 'm\\x1b[0mode'");
        ck_assert_int_eq(config.mode, MODE_AUTO);
}
END_TEST

START_TEST(keys_are_case_sensitive) {
        ck_assert_uint_eq(parse("Mode = off\n"), 1);
        assert_warning(0, 1, "unknown key 'Mode'");
        ck_assert_int_eq(config.mode, MODE_AUTO);
}
END_TEST

static const struct {
        const char *text;
        const char *msg;
} bad_values[] = {
        { "mode = x", "bad value 'x' for 'mode': expected auto, always or off" },
        { "mode = OFF", "bad value 'OFF' for 'mode': expected auto, always or off" },
        { "mode =", "bad value '' for 'mode': expected auto, always or off" },
        { "mode = off always", "bad value 'off always' for 'mode': expected auto, always or off" },
        { "scheduler = [none]",
          "bad value '[none]' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = NONE",
          "bad value 'NONE' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler =",
          "bad value '' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = none, noop",
          "bad value 'none, noop' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = mq-deadline",
          "bad value 'mq-deadline' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = mq-deadline none",
          "bad value 'mq-deadline none' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = none mq-deadline",
          "bad value 'none mq-deadline' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = bfq",
          "bad value 'bfq' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = kyber",
          "bad value 'kyber' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = none noop none",
          "bad value 'none noop none' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = none none",
          "bad value 'none none' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = noop noop",
          "bad value 'noop noop' for 'scheduler': expected none, noop, or both in either order" },
        { "scheduler = none [noop]",
          "bad value 'none [noop]' for 'scheduler': expected none, noop, or both in either order" },
        { "mode off", "expected 'key = value', got 'mode off'" },
        { "=", "unknown key ''" },
};

/* The rule starts no process for a disk already on none or noop, so those are the only names
 * the key takes. */
static const struct {
        const char *text;
        const char *schedulers;
} good_schedulers[] = {
        { "scheduler = none", "none" },
        { "scheduler = noop", "noop" },
        { "scheduler = none noop", "none noop" },
        { "scheduler = noop none", "noop none" },
        { "scheduler =\tnoop \t none ", "noop none" },
};

START_TEST(scheduler_takes_none_and_noop_in_either_order) {
        ck_assert_uint_eq(parse(good_schedulers[_i].text), 0);
        ck_assert_uint_eq(warnings.n, 0);
        assert_schedulers(&config.schedulers, good_schedulers[_i].schedulers);
}
END_TEST

START_TEST(bad_scheduler_keeps_the_default_and_the_rest_applies) {
        ck_assert_uint_eq(parse("mode = always\nscheduler = mq-deadline none\nexclude = sdc\n"), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "bad value 'mq-deadline none' for 'scheduler': expected none, noop, or both in either order");
        ck_assert_int_eq(config.mode, MODE_ALWAYS);
        assert_schedulers(&config.schedulers, "none noop");
        ck_assert_uint_eq(config.exclude.n, 1);
}
END_TEST

START_TEST(bad_value_is_reported_and_ignored) {
        ck_assert_uint_eq(parse(bad_values[_i].text), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 1, bad_values[_i].msg);
        assert_defaults(&config);
}
END_TEST

START_TEST(bad_value_keeps_the_earlier_one) {
        ck_assert_uint_eq(parse("mode = off\nmode = sometimes\n"), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "bad value 'sometimes' for 'mode': expected auto, always or off");
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

START_TEST(repeated_key_later_wins_with_warning) {
        ck_assert_uint_eq(parse("mode = off\n"
                                "scheduler = noop\n"
                                "mode = always\n"
                                "# comment\n"
                                "mode = auto\n"),
                          0);
        ck_assert_uint_eq(warnings.n, 2);
        assert_warning(0, 3, "'mode' repeated: this line overrides line 1");
        assert_warning(1, 5, "'mode' repeated: this line overrides line 3");
        ck_assert_int_eq(config.mode, MODE_AUTO);
}
END_TEST

START_TEST(glob_lists_replace_earlier_ones) {
        ck_assert_uint_eq(parse("exclude = sda sdb\nexclude = nvme*\n"), 0);
        assert_warning(0, 2, "'exclude' repeated: this line overrides line 1");
        ck_assert_uint_eq(config.exclude.n, 1);
        ck_assert_str_eq(config.exclude.glob[0], "nvme*");
}
END_TEST

START_TEST(empty_glob_list_clears) {
        ck_assert_uint_eq(parse("devices = sd*\ndevices =\n"), 0);
        ck_assert_uint_eq(config.devices.n, 0);
}
END_TEST

/* "p00 p01 …", n patterns. */
static void make_globs(char *out, size_t size, unsigned n) {
        out[0] = '\0';
        for (unsigned i = 0; i < n; i++) {
                size_t len = strlen(out);

                snprintf(out + len, size - len, i ? " p%02u" : "p%02u", i);
        }
}

START_TEST(thirty_two_patterns_fit) {
        char globs[256], text[300];

        make_globs(globs, sizeof(globs), CONFIG_GLOBS_MAX);
        snprintf(text, sizeof(text), "exclude = %s\n", globs);
        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_uint_eq(config.exclude.n, CONFIG_GLOBS_MAX);
        ck_assert_str_eq(config.exclude.glob[CONFIG_GLOBS_MAX - 1], "p31");
}
END_TEST

START_TEST(thirty_three_patterns_are_refused) {
        char globs[256], text[300], msg[256];

        ck_assert_uint_eq(parse("exclude = sdz\n"), 0);
        make_globs(globs, sizeof(globs), CONFIG_GLOBS_MAX + 1);
        snprintf(text, sizeof(text), "exclude = %s\n", globs);
        ck_assert_uint_eq(parse(text), 1);
        /* The value is shown whole as far as 60 bytes go, then "...". */
        snprintf(msg, sizeof(msg),
                 "bad value '%.60s...' for 'exclude': too many patterns (at most 32), nothing is "
                 "changed", globs);
        assert_warning(0, 1, msg);
        ck_assert(config.unreadable);
        ck_assert_uint_eq(config.exclude.n, 1);
        ck_assert_str_eq(config.exclude.glob[0], "sdz");
}
END_TEST

START_TEST(sixty_three_byte_pattern_fits) {
        char text[128];

        snprintf(text, sizeof(text), "devices = sda %.63s\n",
                 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm");
        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(config.devices.n, 2);
        ck_assert_uint_eq(strlen(config.devices.glob[1]), 63);
}
END_TEST

START_TEST(sixty_four_byte_pattern_is_refused) {
        static const char value[] =
                "sda abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl";
        char text[128], msg[256];

        snprintf(text, sizeof(text), "devices = %s\n", value);
        ck_assert_uint_eq(parse(text), 1);
        snprintf(msg, sizeof(msg),
                 "bad pattern '%.60s...' for 'devices': longer than 63 bytes, nothing is changed",
                 value + 4);
        assert_warning(0, 1, msg);
        ck_assert(config.unreadable);
        ck_assert_uint_eq(config.devices.n, 0);
}
END_TEST

START_TEST(long_line_is_ignored_and_next_applies) {
        static char text[10100];
        char *p = text;

        p += sprintf(p, "mode = off\n");
        p += sprintf(p, "exclude = ");
        memset(p, 'a', 10000);
        p += 10000;
        sprintf(p, "\nscheduler = noop\n");

        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "line longer than 1024 bytes, ignored");
        ck_assert_int_eq(config.mode, MODE_OFF);
        ck_assert_uint_eq(config.exclude.n, 0);
        assert_schedulers(&config.schedulers, "noop");
}
END_TEST

START_TEST(line_of_1024_bytes_is_read_and_1025_is_not) {
        char text[2 * 1026 + 1];

        /* "mode = off" padded with blanks to 1024 bytes, then the same to 1025. */
        memset(text, ' ', sizeof(text) - 1);
        text[sizeof(text) - 1] = '\0';
        memcpy(text, "mode = off", 10);
        text[1024] = '\n';
        memcpy(text + 1025, "mode = always", 13);
        text[1025 + 1025] = '\n';

        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "line longer than 1024 bytes, ignored");
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

/* CR LF is allowed: its CR is no part of the line's 1024 bytes. */
START_TEST(line_of_1024_bytes_then_crlf_is_read) {
        char text[2 * 1027 + 1];

        memset(text, ' ', sizeof(text) - 1);
        text[sizeof(text) - 1] = '\0';
        memcpy(text, "mode = off", 10);
        memcpy(text + 1024, "\r\n", 2);
        memcpy(text + 1026, "mode = always", 13);
        memcpy(text + 1026 + 1025, "\r\n", 2);

        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "line longer than 1024 bytes, ignored");
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

START_TEST(line_with_nul_byte_is_ignored) {
        static const char text[] = "mode = off\nmode = al\0ways\nscheduler = noop\n";

        ck_assert_uint_eq(config_parse(&config, text, sizeof(text) - 1, "test.conf",
                                       record_warning, &warnings),
                          1);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "NUL byte in line, ignored");
        ck_assert_int_eq(config.mode, MODE_OFF);
        assert_schedulers(&config.schedulers, "noop");
}
END_TEST

START_TEST(no_warn_callback_still_counts_bad_lines) {
        static const char text[] = "foo\nmode = off\nmode = on\n";

        ck_assert_uint_eq(config_parse(&config, text, strlen(text), "x", NULL, NULL), 2);
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

START_TEST(empty_text_changes_nothing) {
        config.mode = MODE_OFF;
        ck_assert_uint_eq(config_parse(&config, "", 0, "test.conf", record_warning, &warnings), 0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

/* config_load */

static void load(const char *path) {
        memset(&config, 0xa5, sizeof(config));
        config_load(&config, path, record_warning, &warnings);
}

START_TEST(missing_file_gives_defaults_silently) {
        char path[512];

        snprintf(path, sizeof(path), "%s/absent.conf", dir);
        load(path);
        ck_assert(!config.found);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 0);
}
END_TEST

START_TEST(empty_file_is_found_with_defaults) {
        char path[512];

        tmpdir_write(dir, "empty.conf", "", 0, path, sizeof(path));
        load(path);
        ck_assert(config.found);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 0);
}
END_TEST

START_TEST(file_is_parsed_with_its_path) {
        static const char text[] = "mode = off\nbogus\n";
        char path[512];

        tmpdir_write(dir, "a.conf", text, sizeof(text) - 1, path, sizeof(path));
        load(path);
        ck_assert(config.found);
        ck_assert_int_eq(config.mode, MODE_OFF);
        assert_warning(0, 2, "expected 'key = value', got 'bogus'");
        ck_assert_str_eq(warnings.path[0], path);
}
END_TEST

/* size bytes of 64-byte lines: "mode = off" and blanks, then comments. */
static char *padded_config(size_t size) {
        char *text = malloc(size);

        ck_assert_ptr_nonnull(text);
        for (size_t i = 0; i < size; i++)
                text[i] = i % 64 == 63 ? '\n' : i < 64 ? ' ' : i % 64 == 0 ? '#' : 'x';
        memcpy(text, "mode = off", 10);
        return text;
}

START_TEST(file_of_64_kib_is_read) {
        char path[512], *text = padded_config(CONFIG_FILE_MAX);

        tmpdir_write(dir, "full.conf", text, CONFIG_FILE_MAX, path, sizeof(path));
        free(text);
        load(path);
        ck_assert_msg(warnings.n == 0, "warning: %s", warnings.msg[0]);
        ck_assert_int_eq(config.mode, MODE_OFF);
}
END_TEST

START_TEST(file_over_64_kib_is_refused) {
        static const size_t sizes[] = { CONFIG_FILE_MAX + 1, 1024 * 1024 };

        for (size_t i = 0; i < ELEMENTSOF(sizes); i++) {
                char path[512], name[32], *text = padded_config(sizes[i]);

                snprintf(name, sizeof(name), "big%zu.conf", i);
                tmpdir_write(dir, name, text, sizes[i], path, sizeof(path));
                free(text);
                setup();
                load(path);
                ck_assert(config.found);
                ck_assert(config.unreadable);
                assert_defaults(&config);
                ck_assert_uint_eq(warnings.n, 1);
                assert_load_warning("cannot read '%s': File too large (more than 64 KiB)", path);
        }
}
END_TEST

START_TEST(binary_file_is_refused) {
        static const char text[] = "mode = off\n\0\x01\x02garbage";
        char path[512];

        tmpdir_write(dir, "binary.conf", text, sizeof(text) - 1, path, sizeof(path));
        load(path);
        ck_assert(config.found);
        ck_assert(config.unreadable);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 1);
        assert_load_warning("cannot use '%s': binary file (NUL bytes)", path);
}
END_TEST

START_TEST(unreadable_file_is_reported) {
        char path[512];

        /* Root reads any file whatever its mode, so a directory stands in for the unreadable
         * file: open() succeeds and read() fails. */
        snprintf(path, sizeof(path), "%s/conf.d", dir);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        load(path);
        ck_assert(config.found);
        ck_assert(config.unreadable);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 1);
        assert_load_warning("cannot read '%s': Is a directory", path);
}
END_TEST

/* A FIFO would block the open(), and so every udev event, until something writes to it. */
START_TEST(fifo_is_refused_unread) {
        char path[512];

        snprintf(path, sizeof(path), "%s/fifo.conf", dir);
        ck_assert_int_eq(mkfifo(path, 0644), 0);
        load(path);
        ck_assert(config.found);
        ck_assert(config.unreadable);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 1);
        assert_load_warning("cannot read '%s': a FIFO, not a regular file", path);
}
END_TEST

START_TEST(null_device_is_an_empty_file) {
        load("/dev/null");
        ck_assert(config.found);
        ck_assert(!config.unreadable);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 0);
}
END_TEST

START_TEST(other_device_is_refused) {
        load("/dev/zero");
        ck_assert(config.unreadable);
        assert_load_warning("cannot read '/dev/zero': a character device, not a regular file");
}
END_TEST

/* Good lines before the problem do not apply either: the file counts whole or not at all. */
START_TEST(nothing_of_a_refused_file_applies) {
        static const char text[] = "mode = always\nexclude = sda\n\0";
        char path[512];

        tmpdir_write(dir, "half.conf", text, sizeof(text) - 1, path, sizeof(path));
        load(path);
        ck_assert(config.unreadable);
        assert_defaults(&config);
}
END_TEST

START_TEST(unreadable_pattern_gives_the_defaults_and_one_warning) {
        static const char text[] = "mode = always\nexclude = sd[[:digt:]]\n";
        char path[512];

        tmpdir_write(dir, "class.conf", text, sizeof(text) - 1, path, sizeof(path));
        load(path);
        ck_assert(config.found);
        ck_assert(config.unreadable);
        assert_defaults(&config);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2, "bad pattern 'sd[[:digt:]]' for 'exclude': no character class "
                             "'[:digt:]', nothing is changed");
}
END_TEST

START_TEST(path_is_escaped_in_the_warning) {
        char path[512];

        snprintf(path, sizeof(path), "%s/a\nb.conf", dir);
        ck_assert_int_eq(mkdir(path, 0755), 0);
        load(path);
        assert_load_warning("cannot read '%s/a\\nb.conf': Is a directory", dir);
}
END_TEST

/* cmdline_mode */

static const struct {
        const char *cmdline;
        int ret;
        enum mode mode; /* when ret is 1 */
} cmdlines[] = {
        { "BOOT_IMAGE=/vmlinuz root=/dev/sda1 hyperv_scheduler=off quiet", 1, MODE_OFF },
        { "BOOT_IMAGE=/vmlinuz root=/dev/sda1 quiet", 0, 0 },
        { "", 0, 0 },
        { "xhyperv_scheduler=off", 0, 0 },
        { "quiet my.hyperv_scheduler=off", 0, 0 },
        { "hyperv_scheduler=always", 1, MODE_ALWAYS },
        { "ro\thyperv_scheduler=auto", 1, MODE_AUTO },
        { "quiet hyperv_scheduler=always\n", 1, MODE_ALWAYS },
        { "hyperv_scheduler=always hyperv_scheduler=off", 1, MODE_OFF },
        { "hyperv_scheduler=off quiet hyperv_scheduler=auto splash", 1, MODE_AUTO },
        { "hyperv_scheduler=sometimes", -EINVAL, 0 },
        { "hyperv_scheduler=", -EINVAL, 0 },
        /* The package's own name: the kernel's parameq() and systemd take '-' for '_'. */
        { "hyperv-scheduler=off", 1, MODE_OFF },
        { "quiet hyperv-scheduler=always", 1, MODE_ALWAYS },
        { "hyperv_scheduler=off hyperv-scheduler=auto", 1, MODE_AUTO },
        { "hyperv-scheduler=off hyperv_scheduler=always", 1, MODE_ALWAYS },
        { "hyperv_scheduler-=off hyperv-scheduler_x=off", 0, 0 },
        { "hyperv_scheduler=offf", -EINVAL, 0 },
        { "hyperv_scheduler=OFF", -EINVAL, 0 },
        { "hyperv_scheduler=offoffoffoffoffoff", -EINVAL, 0 },
        { "hyperv_scheduler=alwaysalwaysalwa", -EINVAL, 0 }, /* 16 bytes: one too many */
        { "hyperv_scheduler=sometimes hyperv_scheduler=off", 1, MODE_OFF },
        { "hyperv_scheduler= quiet hyperv_scheduler=always", 1, MODE_ALWAYS },
        { "hyperv_scheduler=alwaysalwaysalways hyperv_scheduler=auto", 1, MODE_AUTO },
        { "hyperv_scheduler=off hyperv_scheduler=offf", -EINVAL, 0 },
        { "hyperv_scheduler=off quiet hyperv_scheduler=", -EINVAL, 0 },
        { "hyperv_scheduler off", 0, 0 },
        /* Quotes, as the kernel's next_arg() takes them: around the value, around the whole
         * parameter, or holding blanks. */
        { "hyperv_scheduler=\"off\"", 1, MODE_OFF },
        { "\"hyperv_scheduler=off\"", 1, MODE_OFF },
        { "quiet \"hyperv_scheduler=off\" splash", 1, MODE_OFF },
        { "hyperv_scheduler=\"off\" hyperv_scheduler=always", 1, MODE_ALWAYS },
        { "hyperv_scheduler=always \"hyperv_scheduler=off\"", 1, MODE_OFF },
        { "hyperv_scheduler=\"off", 1, MODE_OFF },
        { "\"hyperv_scheduler=\"off\"\"", -EINVAL, 0 },
        { "hyperv_scheduler=\"of f\"", -EINVAL, 0 },
        { "hyperv_scheduler=\"\"", -EINVAL, 0 },
        { "hyperv_scheduler=\"", -EINVAL, 0 },
        { "foo=\"a hyperv_scheduler=off\"", 0, 0 },
        { "foo=\"a b\" hyperv_scheduler=off", 1, MODE_OFF },
        { "\"foo hyperv_scheduler=off\"", 0, 0 },
        { "hyperv_scheduler=off\v", 1, MODE_OFF },
        /* 0xa0 is a blank to the kernel's isspace(), as ' ' is. */
        { "hyperv_scheduler=off\xa0quiet", 1, MODE_OFF },
        { "quiet\xa0hyperv_scheduler=always", 1, MODE_ALWAYS },
        { "hyperv_scheduler=\"off\xa0" "\"", -EINVAL, 0 }, /* a quoted 0xa0 stays in the value */
        { "\"", 0, 0 },
        { "=off hyperv_scheduler=always", 1, MODE_ALWAYS },
};

START_TEST(cmdline_mode_is_found) {
        enum mode mode = (enum mode) 42;
        int r = cmdline_mode(cmdlines[_i].cmdline, &mode);

        ck_assert_msg(r == cmdlines[_i].ret, "'%s': returned %d, expected %d",
                      cmdlines[_i].cmdline, r, cmdlines[_i].ret);
        if (r == 1)
                ck_assert_int_eq(mode, cmdlines[_i].mode);
        else
                ck_assert_int_eq(mode, 42);
}
END_TEST

START_TEST(mode_names_round_trip) {
        static const char *const names[] = { "auto", "always", "off" };

        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                enum mode m;

                ck_assert_int_eq(mode_from_string(names[i], &m), 0);
                ck_assert_str_eq(mode_name(m), names[i]);
        }
}
END_TEST

START_TEST(mode_from_string_rejects_others) {
        enum mode m = MODE_ALWAYS;

        ck_assert_int_eq(mode_from_string("Auto", &m), -EINVAL);
        ck_assert_int_eq(mode_from_string("", &m), -EINVAL);
        ck_assert_int_eq(mode_from_string("on", &m), -EINVAL);
        ck_assert_int_eq(m, MODE_ALWAYS);
}
END_TEST

/* config_wants */

static const struct {
        const char *text;
        const char *name;
        bool wanted;
} wants[] = {
        { "", "sda", true },
        { "exclude = sd[b-z] nvme*", "sda", true },
        { "exclude = sd[b-z] nvme*", "sdb", false },
        { "exclude = sd[b-z] nvme*", "nvme0n1", false },
        { "exclude = sd[b-z] nvme*", "vda", true },
        { "exclude = sd", "sda", true },
        { "devices = sd* vd?", "sda", true },
        { "devices = sd* vd?", "vda", true },
        { "devices = sd* vd?", "vdaa", false },
        { "devices = sd* vd?", "xvda", false },
        { "devices = sd*\nexclude = sdb", "sda", true },
        { "devices = sd*\nexclude = sdb", "sdb", false },
        { "devices = sd*\nexclude = sdb", "nvme0n1", false },
        { "exclude = *", "sda", false },
};

/* Patterns no kernel name can match: fnmatch() would take them silently and match no disk. */
static const struct {
        const char *value, *shown, *why;
} bad_globs[] = {
        { "sd[", "sd[", "'[' without a closing ']'" },
        { "sda sd[ab", "sd[ab", "'[' without a closing ']'" },
        { "sd[]", "sd[]", "'[' without a closing ']'" },
        { "sd[!]", "sd[!]", "'[' without a closing ']'" },
        { "nvme*\\", "nvme*\\\\", "it ends in a lone '\\'" },
        /* A pasted no-break space splits nothing. */
        { "sdc\xc2\xa0sdd", "sdc\\xc2\\xa0sdd", "a no-break space (U+00A0) where a space belongs" },
        { "\xc2\xa0sdc", "\\xc2\\xa0sdc", "a no-break space (U+00A0) where a space belongs" },
        { "sd[[:digt:]]", "sd[[:digt:]]", "no character class '[:digt:]'" },
        { "sd[a[:digt:]]", "sd[a[:digt:]]", "no character class '[:digt:]'" },
        { "sd[[::]]", "sd[[::]]", "no character class '[::]'" },
        { "sd[:digit:]", "sd[:digit:]",
          "'[:digit:]' is a set of its letters; the class is written '[[:digit:]]'" },
        { "sd[:d\xe9t:]", "sd[:d\\xe9t:]",
          "'[:d\\xe9t:]' is a set of its letters; the class is written '[[:d\\xe9t:]]'" },
        /* No class, as fnmatch() reads it: capitals, no end. */
        { "sd[[:DIGIT:]]", "sd[[:DIGIT:]]", "no kernel name has ']'" },
        { "sd[[:digit:", "sd[[:digit:", "'[' without a closing ']'" },
        { "sd\"c", "sd\"c", "no kernel name has '\"'" },
        { "\"sdc", "\"sdc", "no kernel name has '\"'" },
        { "sdc'", "sdc'", "no kernel name has '''" },
        { "sd]", "sd]", "no kernel name has ']'" },
        { "sd\\[", "sd\\\\[", "no kernel name has '['" },
        { "sd/c", "sd/c", "no kernel name has '/'" },
        { "/dev/disk/by-id/wwn-1", "/dev/disk/by-id/wwn-1", "no kernel name has '/'" },
        { "/sys/block/sdc", "/sys/block/sdc", "no kernel name has '/'" },
        { "sd\xc3\xa9", "sd\\xc3\\xa9", "no kernel name has the byte \\xc3" },
        { "sd\x01", "sd\\x01", "no kernel name has the byte \\x01" },
        /* The first byte of a no-break space, and no second. */
        { "sd\xc2", "sd\\xc2", "no kernel name has the byte \\xc2" },
        { "sd\xc2x", "sd\\xc2x", "no kernel name has the byte \\xc2" },
        { "sd$", "sd$", "no kernel name has '$'" },
};

/* Dropping the pattern, or the line, could write the very disk that was meant. */
START_TEST(unreadable_pattern_makes_the_file_unreadable) {
        char text[128], msg[256];

        snprintf(text, sizeof(text), "exclude = %s\n", bad_globs[_i].value);
        ck_assert_uint_eq(parse(text), 1);
        ck_assert_uint_eq(warnings.n, 1);
        snprintf(msg, sizeof(msg), "bad pattern '%s' for 'exclude': %s, nothing is changed",
                 bad_globs[_i].shown, bad_globs[_i].why);
        assert_warning(0, 1, msg);
        ck_assert(config.unreadable);
}
END_TEST

START_TEST(unreadable_devices_pattern_makes_the_file_unreadable) {
        char text[128], msg[256];

        snprintf(text, sizeof(text), "mode = off\ndevices = %s\n", bad_globs[_i].value);
        ck_assert_uint_eq(parse(text), 1);
        snprintf(msg, sizeof(msg), "bad pattern '%s' for 'devices': %s, nothing is changed",
                 bad_globs[_i].shown, bad_globs[_i].why);
        assert_warning(0, 2, msg);
        ck_assert(config.unreadable);
}
END_TEST

START_TEST(good_brackets_are_accepted) {
        ck_assert_uint_eq(parse("exclude = sd[]a] sd[!]a] sd[^a] sd[[:digit:]] sd[a[:upper:]] "
                                "sd\\a [ab]* sd[[:x]\n"),
                          0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert(!config.unreadable);
        ck_assert_uint_eq(config.exclude.n, 8);
        ck_assert(!config_wants(&config, "sd]"));
        ck_assert(!config_wants(&config, "sd7"));
        ck_assert(!config_wants(&config, "sdA"));
        ck_assert(config_wants(&config, "vda"));
}
END_TEST

START_TEST(every_kernel_name_byte_is_a_pattern) {
        ck_assert_uint_eq(parse("devices = abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ "
                                "0123456789 cciss!c0d0 a_b.c:d+e@f-g ?* \\!\n"),
                          0);
        ck_assert_uint_eq(warnings.n, 0);
        ck_assert_uint_eq(config.devices.n, 7);
        ck_assert(config_wants(&config, "cciss!c0d0"));
}
END_TEST

/* Lists as other tools write them: the intent is plain, and the warning says how it was read. */
static const struct {
        const char *value, *read;
} as_meant[] = {
        { "sdc, sdd", "sdc sdd" },
        { "sdc,sdd", "sdc sdd" },
        { "sdc;sdd", "sdc sdd" },
        { "sdc; sdd;", "sdc sdd" },
        { "\"sdc\"", "sdc" },
        { "'sdc'", "sdc" },
        { "\"sdc sdd\"", "sdc sdd" },
        { "'sdc' 'sdd'", "sdc sdd" },
        { "\"sdc\",\"nvme*\"", "sdc nvme*" },
        { "/dev/sdc", "sdc" },
        { "/dev/sdc /dev/sd[d-f]", "sdc sd[d-f]" },
        { "\"/dev/sdc\", sdd", "sdc sdd" },
        { "\"\"", "" },
};

START_TEST(plain_intent_is_read_as_meant) {
        char text[128], msg[256], joined[128] = "";

        snprintf(text, sizeof(text), "exclude = %s\n", as_meant[_i].value);
        ck_assert_uint_eq(parse(text), 0);
        ck_assert_uint_eq(warnings.n, 1);
        snprintf(msg, sizeof(msg),
                 "read '%s' for 'exclude' as '%s': patterns are separated by spaces, without "
                 "quotes, commas, semicolons or /dev/",
                 as_meant[_i].value, as_meant[_i].read);
        assert_warning(0, 1, msg);
        ck_assert(!config.unreadable);
        for (unsigned i = 0; i < config.exclude.n; i++) {
                if (i)
                        strcat(joined, " ");
                strcat(joined, config.exclude.glob[i]);
        }
        ck_assert_str_eq(joined, as_meant[_i].read);
}
END_TEST

START_TEST(devices_read_as_meant) {
        ck_assert_uint_eq(parse("devices = sdc, /dev/sdd\n"), 0);
        assert_warning(0, 1,
                       "read 'sdc, /dev/sdd' for 'devices' as 'sdc sdd': patterns are separated "
                       "by spaces, without quotes, commas, semicolons or /dev/");
        ck_assert(config_wants(&config, "sdd"));
        ck_assert(!config_wants(&config, "sde"));
}
END_TEST

START_TEST(read_as_meant_and_repeated_is_one_warning) {
        ck_assert_uint_eq(parse("exclude = sda\nexclude = sdc,sdd\n"), 0);
        ck_assert_uint_eq(warnings.n, 1);
        assert_warning(0, 2,
                       "read 'sdc,sdd' for 'exclude' as 'sdc sdd': patterns are separated by "
                       "spaces, without quotes, commas, semicolons or /dev/; 'exclude' repeated: "
                       "this line overrides line 1");
}
END_TEST

START_TEST(unreadable_pattern_stays_unreadable_after_a_good_line) {
        ck_assert_uint_eq(parse("exclude = sd[[:digt:]]\nexclude = sdc\n"), 1);
        ck_assert_uint_eq(warnings.n, 1);
        ck_assert(config.unreadable);
}
END_TEST

START_TEST(config_wants_applies_exclude_then_devices) {
        ck_assert_uint_eq(parse(wants[_i].text), 0);
        ck_assert_msg(config_wants(&config, wants[_i].name) == wants[_i].wanted,
                      "'%s' with '%s': expected %d", wants[_i].name, wants[_i].text,
                      wants[_i].wanted);
}
END_TEST

/* elevator= is only noted: found as the kernel splits parameters (quotes too), never inside
 * another parameter's value. */
static const struct {
        const char *cmdline;
        bool found;
} elevators[] = {
        { "BOOT_IMAGE=/vmlinuz root=/dev/sda1 elevator=noop\n", true },
        { "elevator=deadline quiet", true },
        { "quiet\televator=none", true },
        { "root=/dev/sda1 quiet", false },
        { "foo.elevator=noop", false },
        { "\"elevator=noop\" quiet", true },
        { "elevator=\"noop\"", true },
        { "root=/dev/sda1 x=\"a elevator=noop\"", false },
        { "hyperv_scheduler=auto", false },
        { "", false },
};

/* cmdline_cut */
static const struct {
        const char *cmdline;
        size_t max, want;
} cuts[] = {
        { "", 4, 0 },
        { "a b", 3, 3 },                  /* shorter than the bound: whole */
        { "ab cd", 2, 2 },                /* "ab" ends exactly at the bound */
        { "ab cd", 3, 3 },                /* the blank after it too */
        { "ab cd", 4, 3 },                /* "cd" is split: cut before it */
        { "ab\tcd", 4, 3 },               /* a tab is a blank */
        { "ab\xa0" "cd", 4, 3 },           /* and so is Latin-1's no-break space */
        { "ab\ncd ef", 4, 3 },
        { "abcdef", 3, 0 },               /* one parameter longer than the bound */
        { "x=\"a b\" y", 5, 0 },           /* no blank inside quotes ends a parameter */
        { "x=\"a b\" y", 7, 7 },
        { "x=\"a b\" y", 8, 8 },
        { "\"a b\"c d", 5, 0 },
        { "a      b", 4, 4 },             /* blanks up to the bound */
};

START_TEST(cmdline_is_cut_before_a_split_parameter) {
        ck_assert_msg(cmdline_cut(cuts[_i].cmdline, cuts[_i].max) == cuts[_i].want,
                      "'%s' at %zu: %zu, expected %zu", cuts[_i].cmdline, cuts[_i].max,
                      cmdline_cut(cuts[_i].cmdline, cuts[_i].max), cuts[_i].want);
}
END_TEST

START_TEST(cmdline_elevator_is_found) {
        ck_assert_msg(cmdline_has_elevator(elevators[_i].cmdline) == elevators[_i].found, "'%s'",
                      elevators[_i].cmdline);
}
END_TEST

Suite *config_suite(void) {
        Suite *s = suite_create("config");
        TCase *tc;

        tc = tcase_create("parse");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, defaults_are_auto_none_noop_no_lists);
        tcase_add_test(tc, each_key_is_applied);
        tcase_add_loop_test(tc, mode_values_are_accepted, 0, ELEMENTSOF(modes));
        tcase_add_test(tc, comments_and_blank_lines_are_ignored);
        tcase_add_test(tc, crlf_line_endings_are_accepted);
        tcase_add_test(tc, last_line_needs_no_newline);
        tcase_add_test(tc, empty_text_changes_nothing);
        suite_add_tcase(s, tc);

        tc = tcase_create("parse-warnings");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, unknown_key_is_reported_and_the_rest_applies);
        tcase_add_test(tc, unknown_key_is_escaped);
        tcase_add_test(tc, keys_are_case_sensitive);
        tcase_add_loop_test(tc, bad_value_is_reported_and_ignored, 0, ELEMENTSOF(bad_values));
        tcase_add_loop_test(tc, scheduler_takes_none_and_noop_in_either_order, 0,
                            ELEMENTSOF(good_schedulers));
        tcase_add_test(tc, bad_scheduler_keeps_the_default_and_the_rest_applies);
        tcase_add_test(tc, bad_value_keeps_the_earlier_one);
        tcase_add_test(tc, repeated_key_later_wins_with_warning);
        tcase_add_test(tc, long_line_is_ignored_and_next_applies);
        tcase_add_test(tc, line_of_1024_bytes_is_read_and_1025_is_not);
        tcase_add_test(tc, line_of_1024_bytes_then_crlf_is_read);
        tcase_add_test(tc, line_with_nul_byte_is_ignored);
        tcase_add_test(tc, no_warn_callback_still_counts_bad_lines);
        suite_add_tcase(s, tc);

        tc = tcase_create("globs");
        tcase_add_checked_fixture(tc, setup, NULL);
        tcase_add_test(tc, glob_lists_replace_earlier_ones);
        tcase_add_test(tc, empty_glob_list_clears);
        tcase_add_test(tc, thirty_two_patterns_fit);
        tcase_add_test(tc, thirty_three_patterns_are_refused);
        tcase_add_test(tc, sixty_three_byte_pattern_fits);
        tcase_add_test(tc, sixty_four_byte_pattern_is_refused);
        tcase_add_loop_test(tc, config_wants_applies_exclude_then_devices, 0, ELEMENTSOF(wants));
        tcase_add_loop_test(tc, unreadable_pattern_makes_the_file_unreadable, 0,
                            ELEMENTSOF(bad_globs));
        tcase_add_loop_test(tc, unreadable_devices_pattern_makes_the_file_unreadable, 0,
                            ELEMENTSOF(bad_globs));
        tcase_add_test(tc, good_brackets_are_accepted);
        tcase_add_test(tc, every_kernel_name_byte_is_a_pattern);
        tcase_add_loop_test(tc, plain_intent_is_read_as_meant, 0, ELEMENTSOF(as_meant));
        tcase_add_test(tc, devices_read_as_meant);
        tcase_add_test(tc, read_as_meant_and_repeated_is_one_warning);
        tcase_add_test(tc, unreadable_pattern_stays_unreadable_after_a_good_line);
        suite_add_tcase(s, tc);

        tc = tcase_create("load");
        tcase_add_checked_fixture(tc, setup_files, teardown_files);
        tcase_add_test(tc, missing_file_gives_defaults_silently);
        tcase_add_test(tc, empty_file_is_found_with_defaults);
        tcase_add_test(tc, file_is_parsed_with_its_path);
        tcase_add_test(tc, file_of_64_kib_is_read);
        tcase_add_test(tc, file_over_64_kib_is_refused);
        tcase_add_test(tc, binary_file_is_refused);
        tcase_add_test(tc, unreadable_file_is_reported);
        tcase_add_test(tc, fifo_is_refused_unread);
        tcase_add_test(tc, null_device_is_an_empty_file);
        tcase_add_test(tc, other_device_is_refused);
        tcase_add_test(tc, nothing_of_a_refused_file_applies);
        tcase_add_test(tc, unreadable_pattern_gives_the_defaults_and_one_warning);
        tcase_add_test(tc, path_is_escaped_in_the_warning);
        suite_add_tcase(s, tc);

        tc = tcase_create("cmdline");
        tcase_add_loop_test(tc, cmdline_mode_is_found, 0, ELEMENTSOF(cmdlines));
        tcase_add_loop_test(tc, cmdline_elevator_is_found, 0, ELEMENTSOF(elevators));
        tcase_add_loop_test(tc, cmdline_is_cut_before_a_split_parameter, 0, ELEMENTSOF(cuts));
        tcase_add_test(tc, mode_names_round_trip);
        tcase_add_test(tc, mode_from_string_rejects_others);
        suite_add_tcase(s, tc);

        return s;
}
