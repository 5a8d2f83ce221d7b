#include "json.h"

#include <stdbool.h>
#include <string.h>

size_t utf8_sequence_length(const unsigned char *s, size_t avail) {
        unsigned char lo = 0x80, hi = 0xbf;
        size_t len;

        if (s[0] < 0x80)
                return 1;
        if (s[0] >= 0xc2 && s[0] <= 0xdf)
                len = 2;
        else if (s[0] >= 0xe0 && s[0] <= 0xef) {
                len = 3;
                if (s[0] == 0xe0)
                        lo = 0xa0; /* overlong */
                else if (s[0] == 0xed)
                        hi = 0x9f; /* surrogates */
        } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
                len = 4;
                if (s[0] == 0xf0)
                        lo = 0x90; /* overlong */
                else if (s[0] == 0xf4)
                        hi = 0x8f; /* above U+10FFFF */
        } else
                return 0;
        if (avail < len || s[1] < lo || s[1] > hi)
                return 0;
        for (size_t i = 2; i < len; i++)
                if (s[i] < 0x80 || s[i] > 0xbf)
                        return 0;
        return len;
}

void json_string(FILE *f, const char *s) {
        const unsigned char *p = (const unsigned char *) s;
        size_t left;

        if (!s) {
                fputs("null", f);
                return;
        }
        left = strlen(s);
        fputc('"', f);
        while (left > 0) {
                size_t len = utf8_sequence_length(p, left);

                if (len == 0) {
                        fputs("\\ufffd", f);
                        len = 1;
                } else if (*p == '"' || *p == '\\')
                        fprintf(f, "\\%c", *p);
                else if (*p == '\n')
                        fputs("\\n", f);
                else if (*p == '\t')
                        fputs("\\t", f);
                else if (*p < 0x20 || *p == 0x7f)
                        fprintf(f, "\\u%04x", *p);
                else
                        fwrite(p, 1, len, f);
                p += len;
                left -= len;
        }
        fputc('"', f);
}
