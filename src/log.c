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

#include "util.h"

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
 * that is draining, busy with a storm of events, takes; after one that waited in vain, syslog
 * is given up for the rest of the run. A line is sent again only after a send that failed at
 * once, without waiting. */
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

static struct {
        int fd, kmsg;
        unsigned kmsg_lines; /* written through kmsg */
        bool opened, kmsg_opened, stream, given_up;
} sys_log;

/* One line to syslog. As glibc's syslog() (misc/syslog.c, __vsyslog_internal()), a send that
 * fails on a connection the daemon dropped (restarted, or a stream it closed) is sent again
 * once on a new one; a send that timed out is not: the daemon is not draining. */
static bool to_syslog_socket(const char *msg, size_t len) {
        if (sys_log.given_up)
                return false;
        for (int attempt = 0; attempt < 2; attempt++) {
                if (!sys_log.opened || sys_log.fd < 0) {
                        sys_log.opened = true;
                        sys_log.fd = syslog_connect(&sys_log.stream);
                        if (sys_log.fd < 0)
                                break;
                }
                /* A stream carries each message with its NUL, as glibc sends it. */
                if (send(sys_log.fd, msg, len + sys_log.stream, MSG_NOSIGNAL) >= 0)
                        return true;
                attempt += errno == EAGAIN || errno == EWOULDBLOCK;
                close(sys_log.fd);
                sys_log.fd = -1;
        }
        sys_log.given_up = true;
        return false;
}

/* The kernel limits the lines written through one open file of /dev/kmsg to 10 in 5 seconds
 * and drops the rest, write() still reporting success (Linux 6.12, kernel/printk/printk.c:
 * devkmsg_open() gives each open file its own ratelimit_default_init(), devkmsg_write()
 * checks it unless printk.devkmsg=on): the file is opened anew before it has taken that many. */
#define KMSG_LINES_PER_OPEN 10

/* One line to the kernel's log, in the form udev's own helpers use (systemd src/basic/log.c,
 * write_to_kmsg()). */
static bool to_kmsg(const char *msg, size_t len) {
        if (sys_log.kmsg_opened && sys_log.kmsg_lines == KMSG_LINES_PER_OPEN) {
                if (sys_log.kmsg >= 0)
                        close(sys_log.kmsg);
                sys_log.kmsg_opened = false;
        }
        if (!sys_log.kmsg_opened) {
                sys_log.kmsg_opened = true;
                sys_log.kmsg_lines = 0;
                /* O_APPEND: a plain file in its place (a test's) keeps every line too. */
                sys_log.kmsg = open("/dev/kmsg",
                                    O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
        }
        sys_log.kmsg_lines++;
        return sys_log.kmsg >= 0 && write(sys_log.kmsg, msg, len) == (ssize_t) len;
}

/* To syslog as glibc's syslog() formats it, <PRI>TIMESTAMP TAG[PID]: MESSAGE, with the RFC 3164
 * time stamp "Mmm dd hh:mm:ss" in local time; where that fails (early in boot or in an
 * initramfs no syslog listens yet), to the kernel's log. False when neither took the line. */
/* Two digits of v (0 to 99), the first pad where v < 10. */
static void two_digits(char *p, int v, char pad) {
        p[0] = v >= 10 ? (char) ('0' + v / 10 % 10) : pad;
        p[1] = (char) ('0' + v % 10);
}

/* "<PRI>STAMPhyperv-scheduler[PID]: " and the first 1000 bytes of msg, then end, in line,
 * which holds them all. Built by hand: snprintf() cost an event that changes a disk more than
 * the rest of its line to the log (BENCHMARKS.md). Returns its length. */
static size_t log_line(char *line, size_t size, int priority, const char *stamp,
                       const char *msg, const char *end) {
        size_t len = str_append(line, size, 0, "<");

        len = str_append_number(line, size, len, LOG_DAEMON | priority);
        len = str_append(line, size, len, ">");
        len = str_append(line, size, len, stamp);
        len = str_append(line, size, len, "hyperv-scheduler[");
        len = str_append_number(line, size, len, getpid());
        len = str_append(line, size, len, "]: ");
        for (size_t i = 0; i < 1000 && msg[i] && len + 1 < size; i++)
                line[len++] = msg[i];
        line[len] = '\0';
        return str_append(line, size, len, end);
}

static bool to_system_log(int priority, const char *msg) {
        static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
        char line[1100], stamp[] = "Mmm dd hh:mm:ss ";
        time_t now = time(NULL);
        struct tm tm;

        /* RFC 3164's "Mmm dd hh:mm:ss ", the day padded with a space. */
        if (localtime_r(&now, &tm)) {
                memcpy(stamp, months[tm.tm_mon % 12], 3);
                two_digits(stamp + 4, tm.tm_mday, ' ');
                two_digits(stamp + 7, tm.tm_hour, '0');
                two_digits(stamp + 10, tm.tm_min, '0');
                two_digits(stamp + 13, tm.tm_sec, '0');
        } else {
                stamp[0] = '\0';
        }
        if (to_syslog_socket(line, log_line(line, sizeof(line), priority, stamp, msg, "")))
                return true;
        return to_kmsg(line, log_line(line, sizeof(line), priority, "", msg, "\n"));
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

/* A line that no log took: on stderr, named. */
static void to_stderr_named(const char *text) {
        char msg[4096];
        int n = snprintf(msg, sizeof(msg), "hyperv-scheduler: %s\n", text);

        if (n > 0)
                to_stderr(msg, (size_t) n < sizeof(msg) ? (size_t) n : sizeof(msg) - 1);
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

/* One line on stdout or stderr, as log_msg() says. */
static void to_terminal(int priority, const char *text) {
        static const char prefix[] = "hyperv-scheduler: ";
        char msg[4096];
        size_t n = 0;

        /* The change line on its own; everything else names the program. */
        if (priority != LOG_INFO) {
                memcpy(msg, prefix, sizeof(prefix) - 1);
                n = sizeof(prefix) - 1;
        }
        snprintf(msg + n, sizeof(msg) - n - 1, "%s", text);
        n = strlen(msg);
        msg[n++] = '\n';
        if (priority == LOG_INFO && !info_to_stderr)
                to_stdout(msg, n);
        else
                to_stderr(msg, n);
}

void log_msg(int priority, const char *fmt, ...) {
        char msg[4096];
        va_list ap;

        if (!wanted(priority))
                return;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        /* Under udev, standard error (which udevd reads) when no log took the line. */
        if (to_syslog) {
                if (!to_system_log(priority, msg))
                        to_stderr_named(msg);
                return;
        }
        to_terminal(priority, msg);
}

void log_change(const char *line) {
        bool logged = to_system_log(LOG_INFO, line);

        if (!to_syslog && wanted(LOG_INFO))
                to_terminal(LOG_INFO, line);
        else if (!logged)
                to_stderr_named(line);
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
