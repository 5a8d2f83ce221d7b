#include "log.h"

#include <stdarg.h>
#include <stdio.h>

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
                return priority <= LOG_ERR;
        case VERBOSITY_NORMAL:
                return priority <= LOG_INFO;
        case VERBOSITY_DEBUG:
                break;
        }
        return true;
}

void log_msg(int priority, const char *fmt, ...) {
        static bool opened;
        va_list ap;

        if (!wanted(priority))
                return;
        va_start(ap, fmt);
        if (to_syslog) {
                if (!opened) {
                        openlog("hyperv-scheduler", LOG_PID, LOG_DAEMON);
                        opened = true;
                }
                vsyslog(priority, fmt, ap);
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
