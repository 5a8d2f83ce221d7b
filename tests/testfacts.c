/* CPUID for tests/hyperv-scheduler-testfacts: the helper with CPUID read from the file named by
 * HYPERV_SCHEDULER_TEST_CPUID (see tests/cpuid-file.h), so that a test can stand for any machine.
 * The file is read before main(), whatever the command line: a test that forgot it, or gave a
 * bad one, fails with exit status 2 rather than deciding on a machine of zeros.
 * Where HYPERV_SCHEDULER_TEST_CPUID_LOG names a file, the leaves the helper asked for are written
 * to it at exit, one a line in the order asked: each is one CPUID instruction of the real build.
 * HYPERV_SCHEDULER_TEST_WRITE_ERROR and HYPERV_SCHEDULER_TEST_READBACK_ERROR name an errno
 * (ENODEV, ...) that the write of a scheduler, or its read-back, fails with instead;
 * HYPERV_SCHEDULER_TEST_REPORT_ERROR one (ENOMEM) that building the report in memory fails with;
 * HYPERV_SCHEDULER_TEST_LIBUDEV=missing, or a libudev function's name, fails libudev's loading;
 * HYPERV_SCHEDULER_TEST_LOG_SYNC=PATH holds the first connection to /dev/log until the listener
 * has acted on it (tests/dev-log). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <libudev.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cpuid-file.h"
#include "files.h"
#include "util.h"

#define CPUID_FILE_SIZE_MAX (256 * 1024)
#define EXIT_USAGE          2

static struct cpuid_file machine;
static int write_error, readback_error, report_error;
static uint32_t *asked;
static size_t n_asked, n_allocated;
static bool asked_overflow;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        fputs("hyperv-scheduler: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        exit(EXIT_USAGE);
}

static void write_log(void) {
        const char *path = getenv("HYPERV_SCHEDULER_TEST_CPUID_LOG");
        bool ok;
        FILE *f;

        if (!path || !*path)
                return;
        if (asked_overflow) {
                fprintf(stderr, "hyperv-scheduler: cannot write '%s': %s\n", path, strerror(ENOMEM));
                return;
        }
        f = fopen(path, "we");
        ok = f != NULL;
        for (size_t i = 0; ok && i < n_asked; i++)
                ok = fprintf(f, "0x%08x\n", asked[i]) > 0;
        if (f && fclose(f) != 0)
                ok = false;
        if (!ok)
                fprintf(stderr, "hyperv-scheduler: cannot write '%s': %s\n", path, strerror(errno));
        free(asked);
}

/* The fault points of the read-back after a write, linked with -Wl,--wrap=read_file_typed:
 * HYPERV_SCHEDULER_TEST_READBACK names the file read instead of a disk's queue/scheduler, e.g.
 * one that does not exist, as when the disk is removed right after the write;
 * HYPERV_SCHEDULER_TEST_READBACK_ERROR fails it with an errno no file in a fake tree gives, as
 * sysfs does for a device deleted under it (ENODEV). Only the read-back, from disk.c, is
 * redirected: the facts read queue/scheduler through read_file_bounded(), whose call inside
 * files.c the wrap does not reach. */
long __real_read_file_typed(const char *path, char *buf, size_t size, unsigned *type);
long __wrap_read_file_typed(const char *path, char *buf, size_t size, unsigned *type);

long __wrap_read_file_typed(const char *path, char *buf, size_t size, unsigned *type) {
        static const char attr[] = "/queue/scheduler";
        const char *instead = getenv("HYPERV_SCHEDULER_TEST_READBACK");
        size_t len = strlen(path);

        if (len >= sizeof(attr) - 1 && streq(path + len - (sizeof(attr) - 1), attr)) {
                if (readback_error) {
                        buf[0] = '\0';
                        return -readback_error;
                }
                if (instead)
                        path = instead;
        }
        return __real_read_file_typed(path, buf, size, type);
}
/* The fault points of the write, through libudev or without it (the event's own disk under
 * --udev, src/sysfs.c): linked with -Wl,--wrap (Makefile), so the shipped binary holds no hook.
 * With HYPERV_SCHEDULER_TEST_WRITE_ERROR the write fails with that errno and writes nothing, as
 * a disk removed between the decision and the write does. HYPERV_SCHEDULER_TEST_AFTER_WRITE: a
 * shell command run right after the write, as a udev event for the disk can run the helper
 * there (record.sh). */
static int after_write(int r) {
        const char *after = getenv("HYPERV_SCHEDULER_TEST_AFTER_WRITE");

        if (after && system(after) != 0)
                return -EIO;
        return r;
}

int __real_udev_device_set_sysattr_value(struct udev_device *dev, const char *attr,
                                         const char *value);
int __wrap_udev_device_set_sysattr_value(struct udev_device *dev, const char *attr,
                                         const char *value);

int __wrap_udev_device_set_sysattr_value(struct udev_device *dev, const char *attr,
                                         const char *value) {
        if (write_error)
                return -write_error;
        return after_write(__real_udev_device_set_sysattr_value(dev, attr, value));
}

int __real_sysfs_write_attr(const char *syspath, const char *attr, const char *value);
int __wrap_sysfs_write_attr(const char *syspath, const char *attr, const char *value);

int __wrap_sysfs_write_attr(const char *syspath, const char *attr, const char *value) {
        if (write_error)
                return -write_error;
        return after_write(__real_sysfs_write_attr(syspath, attr, value));
}

/* The fault point of the report, which is built in memory before it is written: linked with
 * -Wl,--wrap=open_memstream. Without memory the report is lost while stdout and stderr still
 * work, so only the report's own check can fail the run. */
FILE *__real_open_memstream(char **ptr, size_t *size);
FILE *__wrap_open_memstream(char **ptr, size_t *size);

FILE *__wrap_open_memstream(char **ptr, size_t *size) {
        if (report_error) {
                errno = report_error;
                return NULL;
        }
        return __real_open_memstream(ptr, size);
}

/* The fault points of libudev's loading (src/udevlib.c), linked with -Wl,--wrap=dlopen and
 * -Wl,--wrap=dlsym: HYPERV_SCHEDULER_TEST_LIBUDEV=missing fails the dlopen(), as on a system
 * without libudev; the name of a function fails its dlsym(), as an older libudev would. Each
 * fails in the real call, so that dlerror() says why as it would: a file under /nonexistent
 * is opened instead, a name with "-missing" appended looked up. */
void *__real_dlopen(const char *file, int mode);
void *__wrap_dlopen(const char *file, int mode);
void *__real_dlsym(void *handle, const char *name);
void *__wrap_dlsym(void *handle, const char *name);

void *__wrap_dlopen(const char *file, int mode) {
        const char *fault = getenv("HYPERV_SCHEDULER_TEST_LIBUDEV");

        char absent[256];

        if (fault && strcmp(fault, "missing") == 0) {
                snprintf(absent, sizeof(absent), "/nonexistent/%s", file);
                return __real_dlopen(absent, mode);
        }
        return __real_dlopen(file, mode);
}

void *__wrap_dlsym(void *handle, const char *name) {
        const char *fault = getenv("HYPERV_SCHEDULER_TEST_LIBUDEV");

        char absent[256];

        if (fault && strcmp(fault, name) == 0) {
                snprintf(absent, sizeof(absent), "%s-missing", name);
                return __real_dlsym(handle, absent);
        }
        return __real_dlsym(handle, name);
}

/* The fault point of the syslog connection, linked with -Wl,--wrap=connect: with
 * HYPERV_SCHEDULER_TEST_LOG_SYNC=PATH, once the first connection to /dev/log is made, a line
 * written to the FIFO PATH.req tells tests/dev-log, which restarts its socket or closes the
 * connection, then closes PATH.ack: a syslog daemon that restarts, or closes a stream, between
 * the helper's connect() and its send(), every time. */
int __real_connect(int fd, const struct sockaddr *addr, socklen_t len);
int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len);

int __wrap_connect(int fd, const struct sockaddr *addr, socklen_t len) {
        static bool synced;
        const char *sync = getenv("HYPERV_SCHEDULER_TEST_LOG_SYNC");
        int r = __real_connect(fd, addr, len), saved = errno;
        char path[4096], c;
        int s;

        if (r < 0 || synced || !sync || !*sync || addr->sa_family != AF_UNIX ||
            strcmp(((const struct sockaddr_un *) addr)->sun_path, "/dev/log") != 0)
                return errno = saved, r;
        synced = true;
        snprintf(path, sizeof(path), "%s.req", sync);
        if ((s = open(path, O_WRONLY | O_CLOEXEC)) >= 0) {
                (void) !write(s, "c\n", 2);
                close(s);
        }
        snprintf(path, sizeof(path), "%s.ack", sync);
        if ((s = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
                while (read(s, &c, 1) > 0)
                        ;
                close(s);
        }
        return r;
}

/* The errno named by the variable, 0 when it is unset; an unknown name ends the run. */
static int errno_from_env(const char *var) {
        static const struct {
                const char *name;
                int value;
        } names[] = {
                { "ENOENT", ENOENT }, { "ENODEV", ENODEV }, { "ENXIO", ENXIO },
                { "EIO", EIO },       { "EINVAL", EINVAL }, { "EACCES", EACCES },
                { "ENOMEM", ENOMEM },
        };
        const char *v = getenv(var);

        if (!v || !*v)
                return 0;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (strcmp(v, names[i].name) == 0)
                        return names[i].value;
        die("cannot use %s: '%s' is not ENOENT, ENODEV, ENXIO, EIO, EINVAL, EACCES or ENOMEM",
            var, v);
}

__attribute__((constructor))
static void load_machine(void) {
        static char text[CPUID_FILE_SIZE_MAX];
        const char *path = getenv("HYPERV_SCHEDULER_TEST_CPUID");
        char why[CPUID_FILE_WHY_MAX];
        unsigned line, type = 0;
        long len;

        if (!path || !*path)
                die("cannot read CPUID: HYPERV_SCHEDULER_TEST_CPUID is not set");
        len = __real_read_file_typed(path, text, sizeof(text), &type);
        if (len < 0)
                die("cannot read '%s': %s", path, read_error_text((int) len, type));
        if (cpuid_file_parse(text, (size_t) len, &machine, &line, why) < 0)
                die("cannot parse '%s': line %u: %s", path, line, why);
        atexit(write_log);
        write_error = errno_from_env("HYPERV_SCHEDULER_TEST_WRITE_ERROR");
        readback_error = errno_from_env("HYPERV_SCHEDULER_TEST_READBACK_ERROR");
        report_error = errno_from_env("HYPERV_SCHEDULER_TEST_REPORT_ERROR");
}

bool cpuid_supported(void) {
        return machine.n > 0;
}

void cpuid_query(uint32_t leaf, struct cpuid_regs *r) {
        if (n_asked == n_allocated && !asked_overflow) {
                size_t n = n_allocated ? 2 * n_allocated : 512;
                uint32_t *p = realloc(asked, n * sizeof(*p));

                if (p) {
                        asked = p;
                        n_allocated = n;
                } else {
                        asked_overflow = true;
                }
        }
        if (n_asked < n_allocated)
                asked[n_asked++] = leaf;
        cpuid_file_lookup(&machine, leaf, r);
}
