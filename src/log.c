#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static bool to_syslog, info_to_stderr;
static enum verbosity verbosity;

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

/* Whether a syslog daemon listens on /dev/log: syslog(3) does not say when it has nowhere to
 * send a message. Same socket types as glibc's openlog(). */
static bool syslog_listens(void) {
        static const struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = "/dev/log" };
        static const int types[] = { SOCK_DGRAM, SOCK_STREAM };

        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
                int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0), r;

                if (fd < 0)
                        return false;
                r = connect(fd, (const struct sockaddr *) &addr, sizeof(addr));
                close(fd);
                if (r == 0)
                        return true;
                if (errno != EPROTOTYPE)
                        return false;
        }
        return false;
}

/* Early in boot or in an initramfs there is no syslog yet: the kernel's log takes the line, in
 * the form udev's own helpers use (systemd src/basic/log.c, write_to_kmsg()). */
__attribute__((format(printf, 2, 0)))
static void to_kmsg(int priority, const char *fmt, va_list ap) {
        static int fd = -2;
        char msg[1024];
        int n;

        if (fd == -2)
                fd = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
                return;
        n = snprintf(msg, sizeof(msg), "<%d>hyperv-scheduler[%d]: ", LOG_DAEMON | priority,
                     (int) getpid());
        if (n < 0 || (size_t) n >= sizeof(msg))
                return;
        vsnprintf(msg + n, sizeof(msg) - (size_t) n - 1, fmt, ap);
        n = (int) strlen(msg);
        msg[n++] = '\n';
        (void) !write(fd, msg, (size_t) n);
}

void log_msg(int priority, const char *fmt, ...) {
        static enum { UNKNOWN, SYSLOG, KMSG } sink;
        va_list ap;

        if (!wanted(priority))
                return;
        va_start(ap, fmt);
        if (to_syslog) {
                if (sink == UNKNOWN) {
                        sink = syslog_listens() ? SYSLOG : KMSG;
                        if (sink == SYSLOG)
                                openlog("hyperv-scheduler", LOG_PID, LOG_DAEMON);
                }
                if (sink == SYSLOG)
                        vsyslog(priority, fmt, ap);
                else
                        to_kmsg(priority, fmt, ap);
        } else if (priority == LOG_INFO) {
                FILE *f = info_to_stderr ? stderr : stdout;

                vfprintf(f, fmt, ap);
                fputc('\n', f);
        } else {
                fputs("hyperv-scheduler: ", stderr);
                vfprintf(stderr, fmt, ap);
                fputc('\n', stderr);
        }
        va_end(ap);
}

int log_write_stdout(const char *text, size_t len) {
        fflush(stdout);
        while (len > 0) {
                ssize_t n = write(STDOUT_FILENO, text, len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0) {
                        log_msg(LOG_ERR, "cannot write to standard output: %s",
                                strerror(n < 0 ? errno : EIO));
                        return -1;
                }
                text += n;
                len -= (size_t) n;
        }
        return 0;
}

int log_close_stdout(void) {
        bool failed = ferror(stdout) != 0, pending = __fpending(stdout) != 0;
        int error = 0;

        /* As gnulib's close_stdout(): a stdout that was closed and never written to is fine. */
        if (fclose(stdout) != 0 && (failed || pending || errno != EBADF)) {
                failed = true;
                error = errno;
        }
        if (!failed)
                return 0;
        log_msg(LOG_ERR, "cannot write to standard output: %s", strerror(error ? error : EIO));
        return -1;
}
