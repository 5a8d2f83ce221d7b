#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "log.h"
#include "record.h"
#include "util.h"

/* A sysfs attribute of the disk, its trailing newline dropped; "" when absent. */
static int attribute(const char *syspath, const char *attr, char *buf, size_t size) {
        char path[4096], text[64];
        long len;

        if (snprintf(path, sizeof(path), "%s/%s", syspath, attr) >= (int) sizeof(path))
                return -ENAMETOOLONG;
        len = read_file_bounded(path, text, sizeof(text));
        buf[0] = '\0';
        if (len == -ENOENT)
                return 0;
        if (len < 0)
                return (int) len;
        text[strcspn(text, "\n")] = '\0';
        return copy_string(buf, text, size) ? 0 : -EINVAL;
}

int record_identity(const char *syspath, const char *name, struct record *r) {
        int e;

        if (strncmp(syspath, "/sys/", 5) != 0 || !copy_string(r->name, name, sizeof(r->name)) ||
            !copy_string(r->devpath, syspath + 4, sizeof(r->devpath)))
                return -EINVAL;
        if ((e = attribute(syspath, "diskseq", r->diskseq, sizeof(r->diskseq))) < 0)
                return e;
        return attribute(syspath, "dev", r->devnum, sizeof(r->devnum));
}

/* Only a run that writes or removes a record calls these: looked up then, as udevlib.c does
 * for libudev, not bound by the loader at every start of the helper (-z now binds each symbol
 * the executable imports, on every udev event: BENCHMARKS.md). */
static int late_mkdir(const char *path, mode_t mode) {
        int (*f)(const char *, mode_t) = (int (*)(const char *, mode_t)) dlsym(RTLD_DEFAULT, "mkdir");

        return f ? f(path, mode) : (errno = ENOSYS, -1);
}

static int late_rename(const char *from, const char *to) {
        int (*f)(const char *, const char *) =
                (int (*)(const char *, const char *)) dlsym(RTLD_DEFAULT, "rename");

        return f ? f(from, to) : (errno = ENOSYS, -1);
}

static int late_unlink(const char *path) {
        int (*f)(const char *) = (int (*)(const char *)) dlsym(RTLD_DEFAULT, "unlink");

        return f ? f(path) : (errno = ENOSYS, -1);
}

bool record_keeper(void) {
        uid_t (*f)(void) = (uid_t (*)(void)) dlsym(RTLD_DEFAULT, "geteuid");

        return f && f() == 0;
}

static int record_path(char *buf, size_t size, const char *dir, const char *name) {
        /* A kernel name has no '/' (devname_check()), and none of ours starts with a dot. */
        if (!name[0] || name[0] == '.' || strchr(name, '/'))
                return -EINVAL;
        return snprintf(buf, size, "%s/%s", dir, name) < (int) size ? 0 : -ENAMETOOLONG;
}

int record_load(const char *dir, const char *name, struct record *r, unsigned *type) {
        char path[4096], text[RECORD_FILE_MAX + 1];
        struct stat st;
        long len;
        int e, fd;

        if ((e = record_path(path, sizeof(path), dir, name)) < 0)
                return e;
        /* What is at path itself, a symbolic link too, never followed nor opened for reading:
         * O_PATH opens no FIFO's other end. */
        fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        e = fstat(fd, &st) < 0 ? -errno : 0;
        close(fd);
        if (e < 0)
                return e;
        if (!S_ISREG(st.st_mode)) {
                if (type)
                        *type = (unsigned) st.st_mode;
                return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
        }
        /* Root's, and only root may write it. */
        if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
                return -EPERM;
        len = read_file_typed(path, text, sizeof(text), type);
        if (len < 0)
                return (int) len;
        if (record_parse(text, (size_t) len, r) < 0 || !streq(r->name, name))
                return -EINVAL;
        return 0;
}

int record_save(const char *dir, const struct record *r) {
        char path[4096], tmp[4096], text[RECORD_FILE_MAX];
        int len = record_format(r, text, sizeof(text)), fd, e = 0;

        if (len < 0)
                return len;
        if ((e = record_path(path, sizeof(path), dir, r->name)) < 0)
                return e;
        if (snprintf(tmp, sizeof(tmp), "%s/.%s.%ld", dir, r->name, (long) getpid()) >=
            (int) sizeof(tmp))
                return -ENAMETOOLONG;
        if (late_mkdir(dir, 0755) < 0 && errno != EEXIST)
                return -errno;
        /* A file left by a run that died here is ours to replace. */
        (void) late_unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return -errno;
        if (write(fd, text, (size_t) len) != len)
                e = errno ? -errno : -EIO;
        if (close(fd) < 0 && !e)
                e = -errno;
        if (!e && late_rename(tmp, path) < 0)
                e = -errno;
        if (e)
                (void) late_unlink(tmp);
        return e;
}

int record_remove(const char *dir, const char *name) {
        char path[4096];
        int e = record_path(path, sizeof(path), dir, name);

        if (e < 0)
                return e;
        return late_unlink(path) < 0 ? -errno : 0;
}

void record_warn(const char *name, int e, unsigned type) {
        if (e == -EINVAL)
                log_msg(LOG_WARNING, "cannot use '%s/%s': not a record of hyperv-scheduler",
                        RECORD_DIR, name);
        else if (e == -EPERM)
                log_msg(LOG_WARNING, "cannot use '%s/%s': writable by another user than root",
                        RECORD_DIR, name);
        else if (e != -ENOENT)
                log_msg(LOG_WARNING, "cannot read '%s/%s': %s%s", RECORD_DIR, name,
                        read_error_text(e, type), e == -EFBIG ? " (more than 1 KiB)" : "");
}
