#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devname.h"
#include "util.h"

#define BLANKS " \t"

static const char *const mode_names[] = {
        [MODE_AUTO] = "auto",
        [MODE_ALWAYS] = "always",
        [MODE_OFF] = "off",
};

const char *mode_name(enum mode m) {
        return mode_names[m];
}

int mode_from_string(const char *s, enum mode *mode) {
        for (size_t i = 0; i < ELEMENTSOF(mode_names); i++)
                if (strcmp(s, mode_names[i]) == 0) {
                        *mode = (enum mode) i;
                        return 0;
                }
        return -EINVAL;
}

void config_defaults(struct config *c) {
        memset(c, 0, sizeof(*c));
        c->mode = MODE_AUTO;
        /* "noop" is what pre-5.0 single-queue kernels call "none". */
        sched_list_parse("none noop", &c->schedulers);
}

/* Patterns are matched against kernel names, whose bytes are few (devname.c): a pattern that
 * holds any other byte outside a set, or that fnmatch() reads differently than it looks, would
 * match no disk, and fnmatch() says nothing of it. */
static const char *const class_names[] = { "alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                           "lower", "print", "punct", "space", "upper", "xdigit" };

static bool class_name_valid(const char *name, size_t len) {
        for (size_t i = 0; i < ELEMENTSOF(class_names); i++)
                if (strlen(class_names[i]) == len && memcmp(name, class_names[i], len) == 0)
                        return true;
        return false;
}

/* Why the byte at g, which no kernel name has, is named as it is: a no-break space looks like a
 * space when pasted. */
static void foreign_byte(const char *g, size_t len, char *why, size_t size) {
        unsigned char c = (unsigned char) g[0];

        if (len >= 2 && c == 0xc2 && (unsigned char) g[1] == 0xa0)
                snprintf(why, size, "a no-break space (U+00A0) where a space belongs");
        else if (c > ' ' && c < 0x7f)
                snprintf(why, size, "no kernel name has '%c'", c);
        else
                snprintf(why, size, "no kernel name has the byte \\x%02x", c);
}

/* The end of the class "[:name:]" at g[0] inside a set, 0 when g starts none: as glibc's
 * fnmatch() reads it (posix/fnmatch_loop.c), lowercase letters between "[:" and ":]". */
static size_t class_end(const char *g, size_t len) {
        size_t k = 2;

        if (len < 4 || g[0] != '[' || g[1] != ':')
                return 0;
        while (k < len && g[k] >= 'a' && g[k] <= 'z')
                k++;
        return k + 1 < len && g[k] == ':' && g[k + 1] == ']' ? k + 2 : 0;
}

/* Whether the len bytes at g can match no kernel name; then why, in why. */
static bool glob_problem(const char *g, size_t len, char *why, size_t size) {
        for (size_t i = 0; i < len; i++) {
                if (g[i] == '\\') {
                        if (++i == len) {
                                snprintf(why, size, "it ends in a lone '\\'");
                                return true;
                        }
                        if (!kernel_name_char(g[i])) {
                                foreign_byte(g + i, len - i, why, size);
                                return true;
                        }
                } else if (g[i] == '[') {
                        size_t j = i + 1, first;

                        /* A ']' first in the set, after any '!' or '^', is a member. */
                        if (j < len && (g[j] == '!' || g[j] == '^'))
                                j++;
                        first = j;
                        if (j < len && g[j] == ']')
                                j++;
                        while (j < len && g[j] != ']') {
                                size_t end = class_end(g + j, len - j);

                                if (end && !class_name_valid(g + j + 2, end - 4)) {
                                        snprintf(why, size, "no character class '%.*s'",
                                                 (int) end, g + j);
                                        return true;
                                }
                                j += end ? end : 1;
                        }
                        if (j == len) {
                                snprintf(why, size, "'[' without a closing ']'");
                                return true;
                        }
                        if (j - first >= 3 && g[first] == ':' && g[j - 1] == ':') {
                                char set[32];

                                escape_text(g + i, j + 1 - i, set, sizeof(set));
                                snprintf(why, size, "'%s' is a set of its letters; the class is "
                                         "written '[%s]'", set, set);
                                return true;
                        }
                        i = j;
                } else if (g[i] != '*' && g[i] != '?' && !kernel_name_char(g[i])) {
                        foreign_byte(g + i, len - i, why, size);
                        return true;
                }
        }
        return false;
}

static bool is_quote(char c) {
        return c == '"' || c == '\'';
}

/* The separators of a list as other tools write one; only blanks separate patterns here. */
#define LIST_SEPARATORS BLANKS ",;"

/* Reads the patterns of value, taking what is plainly meant as meant: commas or semicolons
 * between patterns, quotes around one or around all, a /dev/ prefix; *as_meant then says that
 * happened. Anything else a kernel name cannot hold fails, with the message, naming key, in msg.
 * Leaves value intact: a bad one is shown whole in the warning. */
static int parse_globs(const char *value, const char *key, struct glob_list *out, bool *as_meant,
                       char *msg, size_t msgsize) {
        struct glob_list l = { 0 };
        size_t end = strlen(value), start = 0;
        char shown[64], why[128];

        *as_meant = value[strcspn(value, ",;")] != '\0';
        if (end >= 2 && is_quote(value[0]) && value[end - 1] == value[0] &&
            !memchr(value + 1, value[0], end - 2)) {
                start++;
                end--;
                *as_meant = true;
        }
        for (size_t pos = start; pos < end;) {
                size_t written = strcspn(value + pos, LIST_SEPARATORS), len;
                const char *g = value + pos;

                if (pos + written > end)
                        written = end - pos;
                if (written == 0) {
                        pos++;
                        continue;
                }
                len = written;
                if (len >= 2 && is_quote(g[0]) && g[len - 1] == g[0]) {
                        g++;
                        len -= 2;
                        *as_meant = true;
                }
                if (len > 5 && strncmp(g, "/dev/", 5) == 0) {
                        g += 5;
                        len -= 5;
                        *as_meant = true;
                }
                escape_text(value + pos, written, shown, sizeof(shown));
                pos += written;
                if (len == 0)
                        continue;
                if (l.n == CONFIG_GLOBS_MAX) {
                        escape_text(value, strlen(value), shown, sizeof(shown));
                        snprintf(msg, msgsize, "bad value '%s' for '%s': too many patterns "
                                 "(at most 32), nothing is changed", shown, key);
                        return -E2BIG;
                }
                if (len >= CONFIG_GLOB_LEN) {
                        snprintf(msg, msgsize, "bad pattern '%s' for '%s': longer than 63 "
                                 "bytes, nothing is changed", shown, key);
                        return -E2BIG;
                }
                if (glob_problem(g, len, why, sizeof(why))) {
                        snprintf(msg, msgsize, "bad pattern '%s' for '%s': %s, nothing is changed",
                                 shown, key, why);
                        return -EINVAL;
                }
                memcpy(l.glob[l.n], g, len);
                l.glob[l.n++][len] = '\0';
        }
        *out = l;
        return 0;
}

/* "read 'VALUE' for 'KEY' as 'P1 P2'", for a value taken as meant. */
static void note_as_meant(const char *value, const char *key, const struct glob_list *l,
                          char *msg, size_t msgsize) {
        char joined[CONFIG_GLOBS_MAX * CONFIG_GLOB_LEN] = "", shown[64], read[64];
        size_t n = 0;

        for (unsigned i = 0; i < l->n; i++)
                n += (size_t) snprintf(joined + n, sizeof(joined) - n, "%s%s", i ? " " : "",
                                       l->glob[i]);
        escape_text(value, strlen(value), shown, sizeof(shown));
        escape_text(joined, n, read, sizeof(read));
        snprintf(msg, msgsize, "read '%s' for '%s' as '%s': patterns are separated by spaces, "
                 "without quotes, commas, semicolons or /dev/", shown, key, read);
}

/* none and noop only, in either order: the rule starts no process for a disk already on
 * either, so a preference for any other scheduler would never reach such a disk. */
static int parse_schedulers(const char *value, struct sched_list *out, const char **why) {
        struct sched_list l;

        *why = "expected none, noop, or both in either order";
        if (sched_list_parse(value, &l) < 0 || l.current >= 0 || l.n == 0 || l.n > 2)
                return -EINVAL;
        for (unsigned i = 0; i < l.n; i++)
                if (strcmp(l.name[i], "none") != 0 && strcmp(l.name[i], "noop") != 0)
                        return -EINVAL;
        if (l.n == 2 && strcmp(l.name[0], l.name[1]) == 0)
                return -EINVAL;
        *out = l;
        return 0;
}

enum key { KEY_MODE, KEY_SCHEDULER, KEY_EXCLUDE, KEY_DEVICES, KEYS };
static const char *const key_names[KEYS] = {
        [KEY_MODE] = "mode",
        [KEY_SCHEDULER] = "scheduler",
        [KEY_EXCLUDE] = "exclude",
        [KEY_DEVICES] = "devices",
};

static int parse_line(struct config *c, char *line, unsigned seen[KEYS], unsigned lineno,
                      char *msg, size_t msgsize) {
        char *eq, *key, *value, shown[64];
        const char *why = NULL;
        bool as_meant = false;
        size_t k, n;
        int r = 0;

        line[strcspn(line, "#")] = '\0';
        line = strip(line);
        if (*line == '\0')
                return 0;
        eq = strchr(line, '=');
        if (!eq) {
                escape_text(line, strlen(line), shown, sizeof(shown));
                snprintf(msg, msgsize, "expected 'key = value', got '%s'", shown);
                return -EINVAL;
        }
        *eq = '\0';
        key = strip(line);
        value = strip(eq + 1);
        for (k = 0; k < KEYS; k++)
                if (strcmp(key, key_names[k]) == 0)
                        break;
        if (k == KEYS) {
                escape_text(key, strlen(key), shown, sizeof(shown));
                snprintf(msg, msgsize, "unknown key '%s'", shown);
                return -EINVAL;
        }

        switch ((enum key) k) {
        case KEY_MODE:
                r = mode_from_string(value, &c->mode);
                why = "expected auto, always or off";
                break;
        case KEY_SCHEDULER:
                r = parse_schedulers(value, &c->schedulers, &why);
                break;
        case KEY_EXCLUDE:
        case KEY_DEVICES:
                r = parse_globs(value, key_names[k], k == KEY_EXCLUDE ? &c->exclude : &c->devices,
                                &as_meant, msg, msgsize);
                /* Dropping the line, or the pattern, could let through the very disk the
                 * administrator meant: the file is then taken as one that cannot be read. */
                if (r < 0) {
                        c->unreadable = true;
                        return r;
                }
                break;
        case KEYS:
                break;
        }
        if (r < 0) {
                escape_text(value, strlen(value), shown, sizeof(shown));
                snprintf(msg, msgsize, "bad value '%s' for '%s': %s", shown, key_names[k], why);
                return r;
        }
        n = 0;
        if (as_meant) {
                note_as_meant(value, key_names[k], k == KEY_EXCLUDE ? &c->exclude : &c->devices,
                              msg, msgsize);
                n = strlen(msg);
        }
        /* One warning a line: a repeat after a note joins it. */
        if (seen[k])
                snprintf(msg + n, msgsize - n, "%s'%s' repeated: this line overrides line %u",
                         n ? "; " : "", key_names[k], seen[k]);
        r = as_meant || seen[k];
        seen[k] = lineno;
        return r;
}

unsigned config_parse(struct config *c, const char *text, size_t len, const char *path,
                      config_warn_fn warn, void *userdata) {
        unsigned seen[KEYS] = { 0 }, lineno = 0, bad = 0;
        size_t pos = 0;

        while (pos < len) {
                const char *nl = memchr(text + pos, '\n', len - pos);
                size_t linelen = (nl ? (size_t) (nl - text) : len) - pos, content = linelen;
                char line[CONFIG_LINE_MAX + 1], msg[256];
                int r;

                lineno++;
                /* The CR of a CR LF ending is no part of the line. */
                if (nl && content > 0 && text[pos + content - 1] == '\r')
                        content--;
                if (content > CONFIG_LINE_MAX) {
                        snprintf(msg, sizeof(msg), "line longer than %d bytes, ignored",
                                 CONFIG_LINE_MAX);
                        r = -E2BIG;
                } else if (memchr(text + pos, '\0', content)) {
                        snprintf(msg, sizeof(msg), "NUL byte in line, ignored");
                        r = -EINVAL;
                } else {
                        memcpy(line, text + pos, content);
                        line[content] = '\0';
                        r = parse_line(c, line, seen, lineno, msg, sizeof(msg));
                }
                if (r < 0)
                        bad++;
                if (r != 0 && warn)
                        warn(userdata, path, lineno, msg);
                pos += linelen + 1;
        }
        return bad;
}

/* The kernel's isspace() (lib/ctype.c, torvalds/linux as read for 6.18: the _S class): the C
 * locale's six and 0xa0, Latin-1's no-break space. A switch, not strchr(): it runs for every
 * byte of the command line on every event the helper is started for. */
static bool kernel_space(char c) {
        switch ((unsigned char) c) {
        case ' ': case '\t': case '\n': case '\v': case '\f': case '\r': case 0xa0:
                return true;
        default:
                return false;
        }
}

static const char *skip_kernel_spaces(const char *p) {
        while (kernel_space(*p))
                p++;
        return p;
}

/* Whether the n bytes at a name the parameter key: '-' and '_' are the same, as in the kernel's
 * parameqn() (kernel/params.c, Linux 6.12.118) and systemd's proc_cmdline_key_streq(), so
 * hyperv-scheduler= is hyperv_scheduler=. */
static bool param_name_is(const char *a, size_t n, const char *key) {
        for (size_t i = 0; i < n; i++) {
                char x = a[i] == '-' ? '_' : a[i], y = key[i] == '-' ? '_' : key[i];

                if (x != y)
                        return false;
        }
        return key[n] == '\0';
}

/* Whether text holds key (either spelling) and '=': a parameter named key cannot be there
 * without them. Most command lines name no key asked for, and this costs a tenth of the split. */
static bool mentions(const char *text, const char *key, size_t keylen) {
        for (const char *p = text; (p = strchr(p, key[0])); p++)
                if (param_name_is(p, keylen, key) && p[keylen] == '=')
                        return true;
        return false;
}

/* The value of the last parameter named key (without '='), or NULL; its length in *len. Split as
 * the kernel's next_arg() splits (lib/cmdline.c, as read at torvalds/linux commit
 * 0ea09083116d): blanks end a parameter outside double quotes; quotes around the value, or
 * around the whole parameter, are not part of it; no escapes. */
static const char *cmdline_last(const char *cmdline, const char *key, size_t *len) {
        size_t keylen = strlen(key);
        const char *p = cmdline, *last = NULL;

        if (!mentions(cmdline, key, keylen))
                return NULL;
        for (p = skip_kernel_spaces(p); *p; p = skip_kernel_spaces(p)) {
                bool quoted = *p == '"', in_quote = quoted, value_quoted = false;
                size_t i, equals = 0, end;

                p += quoted;
                for (i = 0; p[i]; i++) {
                        if (kernel_space(p[i]) && !in_quote)
                                break;
                        if (equals == 0 && p[i] == '=')
                                equals = i;
                        if (p[i] == '"')
                                in_quote = !in_quote;
                }
                end = i;
                if (equals && p[equals + 1] == '"' && end > 0 && p[end - 1] == '"') {
                        value_quoted = true;
                        end--;
                }
                if (quoted && !value_quoted && end > 0 && p[end - 1] == '"')
                        end--;
                if (equals == keylen && param_name_is(p, equals, key)) {
                        const char *v = p + equals + 1 + (p[equals + 1] == '"');

                        last = v;
                        *len = end > (size_t) (v - p) ? end - (size_t) (v - p) : 0;
                }
                p += i + (p[i] != '\0');
        }
        return last;
}

/* Where the parameter at p ends, as next_arg() ends it: at the first blank outside double
 * quotes, or at the end. */
static const char *param_end(const char *p) {
        bool in_quote = false;

        for (; *p && (in_quote || !kernel_space(*p)); p++)
                if (*p == '"')
                        in_quote = !in_quote;
        return p;
}

size_t cmdline_cut(const char *cmdline, size_t max) {
        const char *p;
        size_t len = 0;

        while (len <= max && cmdline[len])
                len++;
        if (len <= max)
                return len;
        for (p = skip_kernel_spaces(cmdline); *p; p = skip_kernel_spaces(param_end(p)))
                if ((size_t) (param_end(p) - cmdline) > max)
                        break;
        return (size_t) (p - cmdline) < max ? (size_t) (p - cmdline) : max;
}

int cmdline_mode(const char *cmdline, enum mode *mode) {
        size_t len = 0;
        const char *last = cmdline_last(cmdline, "hyperv_scheduler", &len);
        char value[16];

        if (!last)
                return 0;
        /* Only the last one counts, as for the kernel's own parameters: an earlier bad value is
         * overridden, a bad last one overrides nothing. */
        if (len >= sizeof(value))
                return -EINVAL;
        memcpy(value, last, len);
        value[len] = '\0';
        return mode_from_string(value, mode) < 0 ? -EINVAL : 1;
}

bool cmdline_has_elevator(const char *cmdline) {
        size_t len;

        return cmdline_last(cmdline, "elevator", &len) != NULL;
}

static bool matches_any(const struct glob_list *l, const char *name) {
        for (unsigned i = 0; i < l->n; i++)
                if (fnmatch(l->glob[i], name, 0) == 0)
                        return true;
        return false;
}

bool config_wants(const struct config *c, const char *name) {
        if (matches_any(&c->exclude, name))
                return false;
        return c->devices.n == 0 || matches_any(&c->devices, name);
}
