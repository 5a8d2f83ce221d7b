#include "cpuid-file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define FIELDS 5

static bool is_blank(char c) {
        return c == ' ' || c == '\t' || c == '\r';
}

static int hex_digit(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}

/* One number from [*p, end): advances *p past it. */
static int parse_number(const char **p, const char *end, uint32_t *value, const char **why) {
        const char *s = *p;
        uint64_t v = 0;
        size_t digits = 0;

        if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
                s += 2;
        for (; s < end && !is_blank(*s) && *s != '#'; s++, digits++) {
                int d = hex_digit(*s);

                if (d < 0) {
                        *why = "not a hexadecimal number";
                        return -EINVAL;
                }
                v = v * 16 + (uint64_t) d;
                if (v > UINT32_MAX) {
                        *why = "number larger than 32 bits";
                        return -EINVAL;
                }
        }
        if (digits == 0) {
                *why = "not a hexadecimal number";
                return -EINVAL;
        }
        *value = (uint32_t) v;
        *p = s;
        return 0;
}

static int parse_line(const char *s, const char *end, struct cpuid_file *cf, char *why) {
        uint32_t v[FIELDS];
        const char *what;
        size_t n = 0;

        for (;;) {
                while (s < end && is_blank(*s))
                        s++;
                if (s == end || *s == '#')
                        break;
                if (n == FIELDS) {
                        snprintf(why, CPUID_FILE_WHY_MAX, "more than %d numbers", FIELDS);
                        return -EINVAL;
                }
                if (parse_number(&s, end, &v[n++], &what) < 0) {
                        snprintf(why, CPUID_FILE_WHY_MAX, "%s", what);
                        return -EINVAL;
                }
        }
        if (n == 0)
                return 0;
        if (n < FIELDS) {
                snprintf(why, CPUID_FILE_WHY_MAX, "%zu numbers, expected LEAF EAX EBX ECX EDX", n);
                return -EINVAL;
        }
        for (size_t i = 0; i < cf->n; i++)
                if (cf->leaves[i].leaf == v[0]) {
                        snprintf(why, CPUID_FILE_WHY_MAX, "leaf 0x%08x listed twice", v[0]);
                        return -EINVAL;
                }
        if (cf->n == CPUID_FILE_LEAVES_MAX) {
                snprintf(why, CPUID_FILE_WHY_MAX, "more than %d leaves", CPUID_FILE_LEAVES_MAX);
                return -EINVAL;
        }
        cf->leaves[cf->n++] = (struct cpuid_file_leaf) {
                .leaf = v[0],
                .r = { .eax = v[1], .ebx = v[2], .ecx = v[3], .edx = v[4] },
        };
        return 0;
}

int cpuid_file_parse(const char *text, size_t len, struct cpuid_file *cf, unsigned *line,
                     char why[CPUID_FILE_WHY_MAX]) {
        const char *p = text, *end = text + len;

        cf->n = 0;
        why[0] = '\0';
        for (*line = 1; p < end; (*line)++) {
                const char *nl = memchr(p, '\n', (size_t) (end - p)), *eol = nl ? nl : end;

                if (memchr(p, '\0', (size_t) (eol - p))) {
                        snprintf(why, CPUID_FILE_WHY_MAX, "NUL byte");
                        return -EINVAL;
                }
                if (parse_line(p, eol, cf, why) < 0)
                        return -EINVAL;
                p = nl ? nl + 1 : end;
        }
        *line = 0;
        return 0;
}

void cpuid_file_lookup(const struct cpuid_file *cf, uint32_t leaf, struct cpuid_regs *r) {
        for (size_t i = 0; i < cf->n; i++)
                if (cf->leaves[i].leaf == leaf) {
                        *r = cf->leaves[i].r;
                        return;
                }
        memset(r, 0, sizeof(*r));
}
