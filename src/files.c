#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util.h"

/* Refuses what is not a regular file: -EISDIR for a directory, else -EBADFD (as systemd's
 * stat_verify_regular()) with its st_mode in *type; the null device reads as empty. */
static int refuse(const struct stat *st, unsigned *type) {
        /* The null device is how a person says "an empty file". */
        if (S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3))
                return 0;
        if (S_ISDIR(st->st_mode))
                return -EISDIR;
        if (type)
                *type = (unsigned) st->st_mode;
        return -EBADFD;
}

/* Reads the whole file, at most size-1 bytes, into buf and terminates it. */
static long read_whole(int fd, char *buf, size_t size) {
        size_t len = 0;
        long r = 0;

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
        buf[len] = '\0';
        return r < 0 ? r : (long) len;
}

long read_file_typed(const char *path, char *buf, size_t size, unsigned *type) {
        struct stat st;
        long r;
        int fd;

        buf[0] = '\0';
        /* The type first, so that a FIFO, a socket (whose open() fails with ENXIO) or a device
         * is named, and never opened. */
        if (stat(path, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return refuse(&st, type);
        /* Without O_NONBLOCK, opening a FIFO waits for a writer: one put in the file's place
         * since would stall the udev event. fstat() checks what was opened. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = refuse(&st, type);
        else
                r = read_whole(fd, buf, size);
        close(fd);
        return r;
}

long read_fd_bounded(int fd, char *buf, size_t size) {
        return read_whole(fd, buf, size);
}

long read_file_bounded(const char *path, char *buf, size_t size) {
        return read_file_typed(path, buf, size, NULL);
}

void config_load(struct config *c, const char *path, config_warn_fn warn, void *userdata) {
        char *text, msg[CONFIG_PATH_SHOWN + 128], shown[CONFIG_PATH_SHOWN];
        unsigned type = 0;
        bool whole = true; /* the problem, if any, is with the file as a whole */
        long len;

        config_defaults(c);
        text = malloc(CONFIG_FILE_MAX + 1);
        len = text ? read_file_typed(path, text, CONFIG_FILE_MAX + 1, &type) : -ENOMEM;
        if (len == -ENOENT) {
                free(text);
                return;
        }
        /* Without memory it is not known whether the file exists: as if it did. */
        c->found = true;
        /* The path is escaped only for a message: most runs have none to make. */
        if (len < 0) {
                escape_text(path, strlen(path), shown, sizeof(shown));
                snprintf(msg, sizeof(msg), "cannot read '%s': %s%s", shown,
                         read_error_text((int) len, type),
                         len == -EFBIG ? " (more than 64 KiB)" : "");
                c->unreadable = true;
        } else if (memchr(text, '\0', (size_t) len)) {
                escape_text(path, strlen(path), shown, sizeof(shown));
                snprintf(msg, sizeof(msg), "cannot use '%s': binary file (NUL bytes)", shown);
                c->unreadable = true;
        } else {
                /* A line it cannot read may make the file unreadable too: that line's warning
                 * says so. */
                config_parse(c, text, (size_t) len, path, warn, userdata);
                whole = false;
        }
        free(text);
        if (c->unreadable) {
                /* Nothing of it applies, not even the lines read before the problem. */
                config_defaults(c);
                c->found = c->unreadable = true;
                if (warn && whole)
                        warn(userdata, path, 0, msg);
        }
}

char *read_cmdline(char *small, size_t size, char **big, bool *cut) {
        long len = read_file_bounded("/proc/cmdline", small, size);

        *cut = false;
        if (len >= 0)
                return small;
        /* One byte past the bound tells whether the parameter that reaches it ends there. */
        if (len != -EFBIG || !(*big = malloc(CMDLINE_MAX + 2)))
                return NULL;
        len = read_file_bounded("/proc/cmdline", *big, CMDLINE_MAX + 2);
        if (len < 0 && len != -EFBIG)
                return NULL;
        if (len == -EFBIG || len > CMDLINE_MAX) {
                /* All of it but the newline the kernel ends it with is no cut. */
                *cut = len == -EFBIG || (*big)[CMDLINE_MAX] != '\n';
                (*big)[cmdline_cut(*big, CMDLINE_MAX)] = '\0';
        }
        return *big;
}
