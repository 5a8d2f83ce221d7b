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

        if (!path_join(path, sizeof(path), syspath, attr))
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

int record_identity(const char *syspath, const char *name, struct record *r, const char **attr) {
        int e;

        *attr = "";
        if (strncmp(syspath, "/sys/", 5) != 0 || !copy_string(r->name, name, sizeof(r->name)) ||
            !copy_string(r->devpath, syspath + 4, sizeof(r->devpath)))
                return -EINVAL;
        *attr = "diskseq";
        if ((e = attribute(syspath, "diskseq", r->diskseq, sizeof(r->diskseq))) < 0)
                return e;
        *attr = "dev";
        return attribute(syspath, "dev", r->devnum, sizeof(r->devnum));
}

int record_boot_id(char *buf, size_t size) {
        char text[64];
        long len = read_file_bounded(RECORD_BOOT_ID, text, sizeof(text));

        if (len < 0)
                return (int) len;
        text[strcspn(text, "\n")] = '\0';
        if (strlen(text) != RECORD_BOOT_ID_LEN || !copy_string(buf, text, size))
                return -EINVAL;
        return 0;
}

const char *record_boot(void) {
        static char boot[RECORD_BOOT_ID_LEN + 1];
        static bool read;

        if (!read && record_boot_id(boot, sizeof(boot)) < 0)
                boot[0] = '\0';
        read = true;
        return boot;
}

/* Only a run that writes or removes a record calls these: looked up then, as udevlib.c does
 * for libudev, not bound by the loader at every start of the helper (-z now binds each symbol
 * the executable imports, on every udev event: BENCHMARKS.md). */
#define LATE(name) dlsym(RTLD_DEFAULT, name)

static int late_mkdir(const char *path, mode_t mode) {
        int (*f)(const char *, mode_t) = (int (*)(const char *, mode_t)) LATE("mkdir");

        return f ? f(path, mode) : (errno = ENOSYS, -1);
}

static int late_fchmod(int fd, mode_t mode) {
        int (*f)(int, mode_t) = (int (*)(int, mode_t)) LATE("fchmod");

        return f ? f(fd, mode) : (errno = ENOSYS, -1);
}

static int late_renameat2(int from_dir, const char *from, int to_dir, const char *to,
                          unsigned flags) {
        int (*f)(int, const char *, int, const char *, unsigned) =
                (int (*)(int, const char *, int, const char *, unsigned)) LATE("renameat2");

        return f ? f(from_dir, from, to_dir, to, flags) : (errno = ENOSYS, -1);
}

static int late_unlinkat(int dir, const char *path, int flags) {
        int (*f)(int, const char *, int) = (int (*)(int, const char *, int)) LATE("unlinkat");

        return f ? f(dir, path, flags) : (errno = ENOSYS, -1);
}

static int late_fstatat(int dir, const char *path, struct stat *st, int flags) {
        int (*f)(int, const char *, struct stat *, int) =
                (int (*)(int, const char *, struct stat *, int)) LATE("fstatat");

        return f ? f(dir, path, st, flags) : (errno = ENOSYS, -1);
}

static int late_openat(int dir, const char *path, int flags, mode_t mode) {
        int (*f)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...)) LATE("openat");

        return f ? f(dir, path, flags, mode) : (errno = ENOSYS, -1);
}

bool record_keeper(void) {
        uid_t (*f)(void) = (uid_t (*)(void)) LATE("geteuid");

        return f && f() == 0;
}

/* Root's, and only root may write it. */
static int root_alone(const struct stat *st) {
        if (st->st_uid != 0)
                return -EPERM;
        return st->st_mode & (S_IWGRP | S_IWOTH) ? -EACCES : 0;
}

int record_dir_open(bool create) {
        struct stat st;
        bool made = false;
        int fd, e;

        if (create) {
                made = late_mkdir(RECORD_DIR, 0755) == 0;
                if (!made && errno != EEXIST)
                        return -errno;
        }
        /* Not followed: a symbolic link in its place may lead to another user's directory. */
        fd = open(RECORD_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return errno == ELOOP ? -ENOTDIR : -errno;
        e = fstat(fd, &st) < 0 ? -errno : root_alone(&st);
        /* Its mode is ours to give, not the umask's: a user's report reads it. */
        if (!e && made && late_fchmod(fd, 0755) < 0)
                e = -errno;
        if (e) {
                close(fd);
                return e;
        }
        return fd;
}

static void record_dir_warn(int e);

int record_dir(bool create) {
        static int fd = -ENOENT;
        static bool tried;

        if (fd >= 0 || (tried && fd != -ENOENT) || (tried && !create))
                return fd;
        tried = true;
        fd = record_dir_open(create);
        record_dir_warn(fd);
        return fd;
}

static void record_dir_warn(int e) {
        if (e == -ENOTDIR)
                log_msg(LOG_WARNING, "cannot use '%s': not a directory (a symbolic link "
                                     "too), no record is read or kept", RECORD_DIR);
        else if (e == -EPERM || e == -EACCES)
                log_msg(LOG_WARNING, "cannot use '%s': %s, no record is read or kept", RECORD_DIR,
                        e == -EPERM ? "owned by another user than root"
                                    : "writable by another user than root");
        else if (e < 0 && e != -ENOENT)
                log_msg(LOG_WARNING, "cannot open '%s': %s", RECORD_DIR, strerror(-e));
}

/* A name of ours: a kernel name has no '/' (devname_check()), and none starts with a dot. */
static bool record_name(const char *name) {
        return name[0] && name[0] != '.' && !strchr(name, '/');
}

int record_load(int dir, const char *name, struct record *r, unsigned *type, int *kept) {
        char text[RECORD_FILE_MAX + 1];
        struct stat st, opened;
        long len;
        int e, fd;

        if (!record_name(name))
                return -EINVAL;
        /* What is at name itself, a symbolic link too, never followed nor opened for reading:
         * O_PATH opens no FIFO's other end, and no device. */
        fd = late_openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
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
        /* Checked and read through one open file, the one that was looked at above: a file
         * put in its place meanwhile is refused. */
        fd = late_openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &opened) < 0)
                e = -errno;
        else if (opened.st_ino != st.st_ino || opened.st_dev != st.st_dev ||
                 !S_ISREG(opened.st_mode))
                e = -ESTALE;
        else if ((e = root_alone(&opened)) == 0 && opened.st_nlink != 1)
                /* A second name of the file: another file of root's, linked in. */
                e = -EMLINK;
        len = e ? e : read_fd_bounded(fd, text, sizeof(text));
        if (len >= 0 && (record_parse(text, (size_t) len, r) < 0 || !streq(r->name, name)))
                len = -EINVAL;
        if (len < 0 || !kept) {
                close(fd);
                return len < 0 ? (int) len : 0;
        }
        *kept = fd;
        return 0;
}

int record_save(int dir, const struct record *r) {
        char tmp[256], text[RECORD_FILE_MAX];
        int len = record_format(r, text, sizeof(text)), fd, e = 0;

        if (len < 0)
                return len;
        if (!record_name(r->name))
                return -EINVAL;
        snprintf(tmp, sizeof(tmp), ".%s.%ld", r->name, (long) getpid());
        /* A file left by a run that died here is ours to replace. */
        (void) late_unlinkat(dir, tmp, 0);
        fd = late_openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
                return -errno;
        /* Readable by all whatever the umask: a user's report shows it. */
        if (late_fchmod(fd, 0644) < 0 || write(fd, text, (size_t) len) != len)
                e = errno ? -errno : -EIO;
        if (close(fd) < 0 && !e)
                e = -errno;
        if (!e && late_renameat2(dir, tmp, dir, r->name, 0) < 0)
                e = -errno;
        if (e)
                (void) late_unlinkat(dir, tmp, 0);
        return e;
}

int record_remove(int dir, const char *name, int kept) {
        char tmp[256];
        struct stat st, read;
        int e = 0;

        if (!record_name(name))
                return -EINVAL;
        if (fstat(kept, &read) < 0)
                return -errno;
        /* Moved aside first, so that what is removed is what was moved: a record written
         * since it was read (a udev event for the disk) goes back, unless an even newer one
         * stands there now. */
        snprintf(tmp, sizeof(tmp), ".%s.%ld.undone", name, (long) getpid());
        if (late_renameat2(dir, name, dir, tmp, 0) < 0)
                return -errno;
        if (late_fstatat(dir, tmp, &st, AT_SYMLINK_NOFOLLOW) < 0)
                e = -errno;
        else if (st.st_ino != read.st_ino || st.st_dev != read.st_dev) {
                e = -ESTALE;
                if (late_renameat2(dir, tmp, dir, name, RENAME_NOREPLACE) == 0)
                        return e;
        }
        (void) late_unlinkat(dir, tmp, 0);
        return e;
}

void record_warn(const char *name, int e, unsigned type) {
        char shown[KERNEL_NAME_MAX * 4];

        escape_text(name, strlen(name), shown, sizeof(shown));
        if (e == -EINVAL || e == -EMLINK || e == -ESTALE)
                log_msg(LOG_WARNING, "cannot use '%s/%s': %s", RECORD_DIR, shown,
                        e == -EINVAL ? "not a record of hyperv-scheduler"
                        : e == -EMLINK ? "a file with more than one name"
                                       : "replaced while it was read");
        else if (e == -EACCES)
                log_msg(LOG_WARNING, "cannot use '%s/%s': writable by another user than root",
                        RECORD_DIR, shown);
        else if (e == -EPERM)
                log_msg(LOG_WARNING, "cannot use '%s/%s': owned by another user than root",
                        RECORD_DIR, shown);
        else if (e != -ENOENT)
                log_msg(LOG_WARNING, "cannot read '%s/%s': %s%s", RECORD_DIR, shown,
                        read_error_text(e, type), e == -EFBIG ? " (more than 1 KiB)" : "");
}
