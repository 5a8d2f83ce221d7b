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
 * stdout carries a report, LOG_DEBUG to stderr with --verbose, each line in one write(2); under
 * udev all go to syslog, which is opened only when needed, or to /dev/kmsg when no syslog
 * listens on /dev/log. */
__attribute__((format(printf, 2, 3)))
void log_msg(int priority, const char *fmt, ...);

/* A disk changed: line ("sda: mq-deadline -> none") goes to the system log whoever runs the
 * helper, --quiet or not, and besides, on a run by hand, where log_msg(LOG_INFO) puts it. The
 * system log is syslog, reconnected once when a send fails, then /dev/kmsg, then stderr; a line
 * waits at most 250 ms in all. */
void log_change(const char *line);

/* Under udev, warnings about the config and the kernel command line are held from
 * log_hold_warnings(true) on, and logged only with an event whose disk changes, or that an
 * unreadable config keeps from changing: a line for every disk at every boot, where nothing
 * happens, would be noise. log_warning() logs now, or holds. log_show_warnings() logs what was
 * held, once: after the line that says what became of the disk, which a throttled /dev/kmsg (10
 * lines) or a full syslog queue must not lose, and only the first LOG_WARNINGS_SHOWN, then how
 * many more. */
#define LOG_WARNINGS_SHOWN 5
void log_hold_warnings(bool hold);
__attribute__((format(printf, 2, 3)))
void log_warning(int priority, const char *fmt, ...);
void log_show_warnings(void);
void log_free_warnings(void);

/* Writes text to stdout whole. Returns 0, or a negative errno after logging why. */
int log_write_stdout(const char *text, size_t len);

/* -EIO when a write to stdout or stderr failed: that output is lost, and the run fails. */
int log_output_failed(void);
