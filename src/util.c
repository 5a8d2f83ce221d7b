#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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
        return error == READ_NOT_REGULAR ? file_type_name(type) : strerror(error);
}

long read_file_typed(const char *path, char *buf, size_t size, unsigned *type) {
        size_t len = 0;
        struct stat st;
        int fd, r = 0;

        buf[0] = '\0';
        /* Without O_NONBLOCK, opening a FIFO waits for a writer: at boot that would stall the
         * udev event. The type is checked before anything is read. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        if (!S_ISREG(st.st_mode)) {
                close(fd);
                /* The null device is how a person says "an empty file". */
                if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
                        return 0;
                if (type)
                        *type = (unsigned) st.st_mode;
                return S_ISDIR(st.st_mode) ? -EISDIR : -READ_NOT_REGULAR;
        }
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

long read_file_bounded(const char *path, char *buf, size_t size) {
        return read_file_typed(path, buf, size, NULL);
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
