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

void json_begin(struct json *j, FILE *f) {
        *j = (struct json) { .f = f };
}

void json_end(struct json *j) {
        fputc('\n', j->f);
}

/* What goes before a value or a key: nothing after a key, else a comma after an earlier item. */
static void item(struct json *j) {
        if (j->after_key) {
                j->after_key = false;
                return;
        }
        /* Nesting deeper than JSON_DEPTH_MAX is a bug of the caller; it costs commas, no more. */
        if (j->depth == 0 || j->depth > JSON_DEPTH_MAX)
                return;
        if (j->has_items[j->depth - 1])
                fputs(",", j->f);
        if (j->lines[j->depth - 1])
                fputs("\n  ", j->f);
        else if (j->has_items[j->depth - 1])
                fputs(" ", j->f);
        j->has_items[j->depth - 1] = true;
}

static void open_container(struct json *j, char c, bool one_per_line) {
        item(j);
        fputc(c, j->f);
        if (j->depth < JSON_DEPTH_MAX) {
                j->has_items[j->depth] = false;
                j->lines[j->depth] = one_per_line;
        }
        j->depth++;
}

static void close_container(struct json *j, char c) {
        j->depth--;
        if (j->depth < JSON_DEPTH_MAX && j->lines[j->depth] && j->has_items[j->depth])
                fputc('\n', j->f);
        fputc(c, j->f);
}

void json_object_begin(struct json *j) {
        open_container(j, '{', false);
}

void json_object_end(struct json *j) {
        close_container(j, '}');
}

void json_array_begin(struct json *j, bool one_per_line) {
        open_container(j, '[', one_per_line);
}

void json_array_end(struct json *j) {
        close_container(j, ']');
}

void json_key(struct json *j, const char *key) {
        item(j);
        json_string(j->f, key);
        fputs(": ", j->f);
        j->after_key = true;
}

void json_str(struct json *j, const char *s) {
        item(j);
        json_string(j->f, s);
}

void json_int(struct json *j, long v) {
        item(j);
        fprintf(j->f, "%ld", v);
}

void json_bool(struct json *j, bool v) {
        item(j);
        fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j) {
        item(j);
        fputs("null", j->f);
}
