#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static bool to_syslog, info_to_stderr;
static enum verbosity verbosity;

/* Warnings about the config and the kernel command line, while held. */
static struct {
        struct held {
                int priority;
                char *msg;
        } *held;
        size_t n;
        bool hold, shown;
} warnings;

void log_setup(bool use_syslog, bool stdout_is_report, enum verbosity v) {
        to_syslog = use_syslog;
        info_to_stderr = stdout_is_report;
        verbosity = v;
}

static bool wanted(int priority) {
        switch (verbosity) {
        case VERBOSITY_QUIET:
                return priority <= LOG_WARNING;
        case VERBOSITY_NORMAL:
                return priority <= LOG_INFO;
        case VERBOSITY_DEBUG:
                break;
        }
        return true;
}

/* glibc's syslog() waits as long as the daemon's queue is full (net.unix.max_dgram_qlen, 10
 * unless systemd raised it): a daemon that does not drain it held the event until udevd killed
 * the helper, the disk unwritten. A line waits at most this long for room, the time a daemon
 * that is draining, busy with a storm of events, takes; after one that waited in vain, the rest
 * are dropped unsent. */
#define SYSLOG_WAIT_USEC 250000

/* The syslog socket, connected, with SYSLOG_WAIT_USEC as its send timeout. Same socket types
 * as glibc's openlog(); a negative errno when nothing listens on /dev/log. */
static int syslog_connect(bool *stream) {
        static const struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
        static const struct timeval wait = { .tv_usec = SYSLOG_WAIT_USEC };
        static const int types[] = { SOCK_DGRAM, SOCK_STREAM };

        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
                int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0), r;

                if (fd < 0)
                        return -errno;
                /* The timeout bounds a stream's connect() too. */
                if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof(wait)) == 0 &&
                    connect(fd, (const struct sockaddr *) &addr, sizeof(addr)) == 0) {
                        *stream = types[i] == SOCK_STREAM;
                        return fd;
                }
                r = -errno;
                close(fd);
                if (r != -EPROTOTYPE)
                        return r;
        }
        return -EPROTOTYPE;
}

/* Under udev: to syslog as glibc's syslog() formats it, <PRI>TIMESTAMP TAG[PID]: MESSAGE, with
 * the RFC 3164 time stamp "Mmm dd hh:mm:ss" in local time; or, early in boot or in an initramfs
 * where no syslog listens yet, to the kernel's log, in the form udev's own helpers use (systemd
 * src/basic/log.c, write_to_kmsg()). */
__attribute__((format(printf, 2, 0)))
static void to_system_log(int priority, const char *fmt, va_list ap) {
        static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
        static int fd, kmsg;
        static bool opened, stream;
        char msg[1024], stamp[32] = "";
        time_t now;
        struct tm tm;
        size_t len;
        int n;

        if (!opened) {
                opened = true;
                fd = syslog_connect(&stream);
                if (fd < 0)
                        kmsg = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
        }
        if (fd < 0 && kmsg < 0)
                return;
        now = time(NULL);
        if (fd >= 0 && localtime_r(&now, &tm))
                snprintf(stamp, sizeof(stamp), "%s %2d %02d:%02d:%02d ", months[tm.tm_mon % 12],
                         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
        n = snprintf(msg, sizeof(msg), "<%d>%shyperv-scheduler[%d]: ", LOG_DAEMON | priority, stamp,
                     (int) getpid());
        if (n < 0 || (size_t) n >= sizeof(msg))
                return;
        vsnprintf(msg + n, sizeof(msg) - (size_t) n - 1, fmt, ap);
        len = strlen(msg);
        if (fd < 0) {
                msg[len++] = '\n';
                (void) !write(kmsg, msg, len);
        } else {
                /* A stream carries each message with its NUL, as glibc sends it. */
                if (send(fd, msg, len + stream, MSG_NOSIGNAL) < 0) {
                        close(fd);
                        fd = kmsg = -1;
                }
        }
}

/* Writes all of buf to fd. Returns 0 or a negative errno. */
static int write_all(int fd, const char *buf, size_t len) {
        while (len > 0) {
                ssize_t n = write(fd, buf, len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return n < 0 ? -errno : -EIO;
                buf += n;
                len -= (size_t) n;
        }
        return 0;
}

/* Standard output and error are written with write(2), each line whole, without stdio: every
 * write is checked where it happens, as gnulib's close_stdout() checks at exit. */
static bool stdout_failed, stderr_failed;

static void to_stderr(const char *buf, size_t len) {
        if (write_all(STDERR_FILENO, buf, len) < 0)
                stderr_failed = true;
}

/* The first failure on stdout is named on stderr; the run fails on it. */
static int to_stdout(const char *buf, size_t len) {
        int r = write_all(STDOUT_FILENO, buf, len);

        if (r < 0 && !stdout_failed) {
                stdout_failed = true;
                log_msg(LOG_ERR, "cannot write to standard output: %s", strerror(-r));
        }
        return r;
}

void log_msg(int priority, const char *fmt, ...) {
        static const char prefix[] = "hyperv-scheduler: ";
        char msg[4096];
        size_t n = 0;
        va_list ap;

        if (!wanted(priority))
                return;
        va_start(ap, fmt);
        if (to_syslog) {
                to_system_log(priority, fmt, ap);
                va_end(ap);
                return;
        }
        /* The change line on its own; everything else names the program. */
        if (priority != LOG_INFO) {
                memcpy(msg, prefix, sizeof(prefix) - 1);
                n = sizeof(prefix) - 1;
        }
        vsnprintf(msg + n, sizeof(msg) - n - 1, fmt, ap);
        va_end(ap);
        n = strlen(msg);
        msg[n++] = '\n';
        if (priority == LOG_INFO && !info_to_stderr)
                to_stdout(msg, n);
        else
                to_stderr(msg, n);
}

void log_hold_warnings(bool hold) {
        warnings.hold = hold;
}

void log_warning(int priority, const char *fmt, ...) {
        char msg[1536];
        struct held *h;
        size_t len;
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (!warnings.hold) {
                log_msg(priority, "%s", msg);
                return;
        }
        /* Without memory a warning is lost, never the run. */
        h = realloc(warnings.held, (warnings.n + 1) * sizeof(*h));
        if (!h)
                return;
        warnings.held = h;
        h[warnings.n].priority = priority;
        len = strlen(msg) + 1;
        if ((h[warnings.n].msg = malloc(len))) {
                memcpy(h[warnings.n].msg, msg, len);
                warnings.n++;
        }
}

void log_show_warnings(void) {
        size_t shown = warnings.n <= LOG_WARNINGS_SHOWN + 1 ? warnings.n : LOG_WARNINGS_SHOWN;

        if (warnings.shown)
                return;
        warnings.shown = true;
        for (size_t i = 0; i < shown; i++)
                log_msg(warnings.held[i].priority, "%s", warnings.held[i].msg);
        if (shown < warnings.n)
                log_msg(LOG_WARNING, "%zu more warnings not shown (hyperv-scheduler --dry-run "
                                     "shows them all)", warnings.n - shown);
}

void log_free_warnings(void) {
        for (size_t i = 0; i < warnings.n; i++)
                free(warnings.held[i].msg);
        free(warnings.held);
        warnings.held = NULL;
        warnings.n = 0;
}

int log_write_stdout(const char *text, size_t len) {
        return to_stdout(text, len);
}

int log_output_failed(void) {
        return stdout_failed || stderr_failed ? -EIO : 0;
}
