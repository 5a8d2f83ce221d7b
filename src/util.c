#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

long read_file_bounded(const char *path, char *buf, size_t size) {
        size_t len = 0;
        int fd, r = 0;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        /* Read one byte more than fits, to tell "exactly full" from "too large". */
        for (;;) {
                char extra;
                ssize_t n = len < size - 1 ? read(fd, buf + len, size - 1 - len) : read(fd, &extra, 1);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                if (n == 0)
                        break;
                if (len == size - 1) {
                        r = -EFBIG;
                        break;
                }
                len += (size_t) n;
        }
        close(fd);
        buf[len] = '\0';
        return r < 0 ? r : (long) len;
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
        memmove(s, s + lead, n);
        s[n] = '\0';
        return s;
}

bool streq(const char *a, const char *b) {
        return a && b && strcmp(a, b) == 0;
}
