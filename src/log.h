/* Where messages go: stdout and stderr, or syslog under udev (--udev). */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

enum verbosity {
        VERBOSITY_QUIET = -1, /* warnings and errors, no change lines */
        VERBOSITY_NORMAL = 0, /* warnings and changes */
        VERBOSITY_DEBUG = 1,  /* also why each disk was left alone */
};

/* stdout_is_report: stdout carries a report, and must carry nothing else. */
void log_setup(bool use_syslog, bool stdout_is_report, enum verbosity v);

/* LOG_ERR and LOG_WARNING go to stderr, LOG_INFO (a disk changed) to stdout, or to stderr when
 * stdout carries a report, LOG_DEBUG to stderr with --verbose; under udev all go to syslog,
 * which is opened only when needed, or to /dev/kmsg when no syslog listens on /dev/log. */
__attribute__((format(printf, 2, 3)))
void log_msg(int priority, const char *fmt, ...);

/* Writes text to stdout whole, past stdio, so that a failure names its own errno. Returns 0,
 * or -1 after logging why. */
int log_write_stdout(const char *text, size_t len);

/* Closes stdout and checks that it took everything written to it, as gnulib's close_stdout().
 * Returns 0, or -1 after logging why. */
int log_close_stdout(void);
