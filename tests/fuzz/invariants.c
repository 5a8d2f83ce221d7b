#include "invariants.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void fuzz_fail(const char *file, int line, const char *fmt, ...) {
        va_list ap;

        fprintf(stderr, "%s:%d: invariant failed: ", file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
        abort();
}

void fuzz_keep_json(const char *text, size_t len) {
        const char *dir = getenv("HYPERV_SCHEDULER_TEST_JSON_DIR");
        static unsigned n;
        char path[4096];
        FILE *f;

        if (!dir || !*dir)
                return;
        FUZZ_CHECK(snprintf(path, sizeof(path), "%s/fuzz-%u.json", dir, n++) < (int) sizeof(path),
                   "path in '%s' too long", dir);
        f = fopen(path, "wx");
        FUZZ_CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "cannot write '%s'",
                   path);
}

bool printable_within(const char *s, size_t size) {
        for (size_t i = 0; i < size; i++) {
                unsigned char c = (unsigned char) s[i];

                if (c == '\0')
                        return true;
                if (c < 0x20 || c > 0x7e)
                        return false;
        }
        return false;
}

size_t utf8_valid_length(const unsigned char *s, size_t avail) {
        static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
        uint32_t cp;
        size_t len;

        if (avail == 0)
                return 0;
        if (s[0] < 0x80)
                return 1;
        if ((s[0] & 0xe0) == 0xc0) {
                len = 2;
                cp = s[0] & 0x1fu;
        } else if ((s[0] & 0xf0) == 0xe0) {
                len = 3;
                cp = s[0] & 0x0fu;
        } else if ((s[0] & 0xf8) == 0xf0) {
                len = 4;
                cp = s[0] & 0x07u;
        } else
                return 0;
        if (avail < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = cp << 6 | (s[i] & 0x3fu);
        }
        if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        return len;
}

static size_t utf8_encode(uint32_t cp, unsigned char *out) {
        if (cp < 0x80) {
                out[0] = (unsigned char) cp;
                return 1;
        }
        if (cp < 0x800) {
                out[0] = (unsigned char) (0xc0 | cp >> 6);
                out[1] = (unsigned char) (0x80 | (cp & 0x3f));
                return 2;
        }
        if (cp < 0x10000) {
                out[0] = (unsigned char) (0xe0 | cp >> 12);
                out[1] = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
                out[2] = (unsigned char) (0x80 | (cp & 0x3f));
                return 3;
        }
        out[0] = (unsigned char) (0xf0 | cp >> 18);
        out[1] = (unsigned char) (0x80 | (cp >> 12 & 0x3f));
        out[2] = (unsigned char) (0x80 | (cp >> 6 & 0x3f));
        out[3] = (unsigned char) (0x80 | (cp & 0x3f));
        return 4;
}

/* The four hex digits at s, or -1. */
static long hex4(const char *s, size_t avail) {
        long v = 0;

        if (avail < 4)
                return -1;
        for (size_t i = 0; i < 4; i++) {
                char c = s[i];

                if (c >= '0' && c <= '9')
                        v = v * 16 + (c - '0');
                else if (c >= 'a' && c <= 'f')
                        v = v * 16 + (c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        v = v * 16 + (c - 'A' + 10);
                else
                        return -1;
        }
        return v;
}

long json_string_decode(const char *s, size_t len, unsigned char *out, const char **why) {
        const unsigned char *u = (const unsigned char *) s;
        size_t i = 1, o = 0;

        if (len < 2 || s[0] != '"') {
                *why = "does not start with a quote";
                return -1;
        }
        for (;;) {
                size_t n;

                if (i >= len) {
                        *why = "no closing quote";
                        return -1;
                }
                if (s[i] == '"')
                        break;
                if (u[i] < 0x20) {
                        *why = "raw control character";
                        return -1;
                }
                if (s[i] != '\\') {
                        n = utf8_valid_length(u + i, len - i);
                        if (n == 0) {
                                *why = "invalid UTF-8";
                                return -1;
                        }
                        memcpy(out + o, u + i, n);
                        o += n;
                        i += n;
                        continue;
                }
                if (i + 1 >= len) {
                        *why = "backslash at the end";
                        return -1;
                }
                i += 2;
                switch (s[i - 1]) {
                case '"':
                case '\\':
                case '/':
                        out[o++] = (unsigned char) s[i - 1];
                        break;
                case 'b':
                        out[o++] = '\b';
                        break;
                case 'f':
                        out[o++] = '\f';
                        break;
                case 'n':
                        out[o++] = '\n';
                        break;
                case 'r':
                        out[o++] = '\r';
                        break;
                case 't':
                        out[o++] = '\t';
                        break;
                case 'u': {
                        long cp = hex4(s + i, len - i), lo;

                        if (cp < 0) {
                                *why = "\\u without four hex digits";
                                return -1;
                        }
                        i += 4;
                        if (cp >= 0xdc00 && cp <= 0xdfff) {
                                *why = "lone low surrogate";
                                return -1;
                        }
                        if (cp >= 0xd800 && cp <= 0xdbff) {
                                if (len - i < 6 || s[i] != '\\' || s[i + 1] != 'u' ||
                                    (lo = hex4(s + i + 2, len - i - 2)) < 0xdc00 || lo > 0xdfff) {
                                        *why = "high surrogate without a low one";
                                        return -1;
                                }
                                i += 6;
                                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                        }
                        o += utf8_encode((uint32_t) cp, out + o);
                        break;
                }
                default:
                        *why = "unknown escape";
                        return -1;
                }
        }
        if (i + 1 != len) {
                *why = "text after the closing quote";
                return -1;
        }
        return (long) o;
}

/* s with every byte outside a valid UTF-8 sequence replaced by U+FFFD; out holds 3 * strlen(s). */
static size_t replace_invalid(const char *s, unsigned char *out) {
        const unsigned char *u = (const unsigned char *) s;
        size_t left = strlen(s), o = 0;

        while (left > 0) {
                size_t n = utf8_valid_length(u, left);

                if (n == 0) {
                        memcpy(out + o, "\xef\xbf\xbd", 3);
                        o += 3;
                        n = 1;
                } else {
                        memcpy(out + o, u, n);
                        o += n;
                }
                u += n;
                left -= n;
        }
        return o;
}

void check_json_string(const char *s) {
        char *json = NULL;
        size_t len = 0, want_len;
        unsigned char *got, *want;
        const char *why = "";
        FILE *f = open_memstream(&json, &len);
        long got_len;

        FUZZ_CHECK(f, "cannot open a memory stream");
        json_string(f, s);
        FUZZ_CHECK(fclose(f) == 0, "cannot write to a memory stream");
        FUZZ_CHECK(strlen(json) == len, "json_string wrote a NUL byte");

        got = malloc(len + 1);
        want = malloc(3 * strlen(s) + 1);
        FUZZ_CHECK(got && want, "cannot allocate memory");
        got_len = json_string_decode(json, len, got, &why);
        FUZZ_CHECK(got_len >= 0, "json_string output is not a JSON string (%s): %s", why, json);
        want_len = replace_invalid(s, want);
        FUZZ_CHECK((size_t) got_len == want_len && memcmp(got, want, want_len) == 0,
                   "json_string output does not decode to its input: %s", json);
        free(got);
        free(want);
        free(json);
}
