#include "util.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

bool copy_string(char *dst, const char *src, size_t size) {
        size_t n = strlen(src);
        bool fits = n < size;

        if (size == 0)
                return false;
        if (!fits)
                n = size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
        return fits;
}

const char *file_type_name(unsigned mode) {
        switch (mode & S_IFMT) {
        case S_IFDIR:
                return "a directory, not a regular file";
        case S_IFIFO:
                return "a FIFO, not a regular file";
        case S_IFSOCK:
                return "a socket, not a regular file";
        case S_IFCHR:
                return "a character device, not a regular file";
        case S_IFBLK:
                return "a block device, not a regular file";
        case S_IFLNK:
                return "a symbolic link, not a regular file";
        }
        return "not a regular file";
}

const char *read_error_text(int error, unsigned type) {
        return type ? file_type_name(type) : strerror(-error);
}

void escape_text(const char *in, size_t len, char *out, size_t size) {
        static const char ellipsis[] = "...";
        size_t o = 0, cut = 0; /* cut: where "..." goes if the rest does not fit */

        if (size < sizeof(ellipsis) + 1) {
                if (size > 0)
                        out[0] = '\0';
                return;
        }
        for (size_t i = 0; i < len; i++) {
                unsigned char c = (unsigned char) in[i];
                char piece[5];

                if (c == '\n')
                        memcpy(piece, "\\n", 3);
                else if (c == '\t')
                        memcpy(piece, "\\t", 3);
                else if (c == '\r')
                        memcpy(piece, "\\r", 3);
                else if (c == '\\')
                        memcpy(piece, "\\\\", 3);
                else if (c < 0x20 || c >= 0x7f)
                        snprintf(piece, sizeof(piece), "\\x%02x", c);
                else {
                        piece[0] = (char) c;
                        piece[1] = '\0';
                }
                size_t n = strlen(piece);
                if (o + n + 1 > size) {
                        memcpy(out + cut, ellipsis, sizeof(ellipsis));
                        return;
                }
                memcpy(out + o, piece, n);
                o += n;
                if (o + sizeof(ellipsis) <= size)
                        cut = o;
        }
        out[o] = '\0';
}

char *strip(char *s) {
        size_t lead = strspn(s, " \t\r\n"), n = strlen(s + lead);

        while (n > 0 && strchr(" \t\r\n", s[lead + n - 1]))
                n--;
        /* Forwards, byte by byte: the two overlap. */
        for (size_t i = 0; i < n; i++)
                s[i] = s[lead + i];
        s[n] = '\0';
        return s;
}

bool streq(const char *a, const char *b) {
        return a && b && strcmp(a, b) == 0;
}

size_t str_append(char *buf, size_t size, size_t len, const char *s) {
        size_t n = strlen(s);

        if (len >= size || n >= size - len)
                return size;
        memcpy(buf + len, s, n + 1);
        return len + n;
}

size_t str_append_number(char *buf, size_t size, size_t len, long long v) {
        char digits[24], *p = digits + sizeof(digits);
        /* The magnitude as unsigned: -LLONG_MIN does not fit in a long long. */
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long) v : (unsigned long long) v;

        *--p = '\0';
        do
                *--p = (char) ('0' + u % 10);
        while ((u /= 10) > 0);
        if (v < 0)
                *--p = '-';
        return str_append(buf, size, len, p);
}

bool path_join(char *buf, size_t size, const char *dir, const char *name) {
        size_t len = str_append(buf, size, 0, dir);

        len = str_append(buf, size, len, "/");
        return str_append(buf, size, len, name) < size;
}
