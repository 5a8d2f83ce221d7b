/* /etc/hyperv-scheduler.conf and the kernel command line: what the administrator asked for. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "schedlist.h"

#define CONFIG_FILE_MAX  (64 * 1024)
#define CONFIG_LINE_MAX  1024
#define CONFIG_GLOBS_MAX 32
#define CONFIG_GLOB_LEN  64
/* Room for the config's path, escaped, in a message; a longer one ends in "...". */
#define CONFIG_PATH_SHOWN 1024

enum mode {
        MODE_AUTO,   /* act on Hyper-V guests, on the disks VMBus provides */
        MODE_ALWAYS, /* skip the machine verdict and the VMBus check */
        MODE_OFF,
};

struct glob_list {
        unsigned n;
        char glob[CONFIG_GLOBS_MAX][CONFIG_GLOB_LEN];
};

struct config {
        enum mode mode;
        struct sched_list schedulers; /* preference order; current unused */
        struct glob_list exclude;
        struct glob_list devices; /* include list; empty means every disk */
        bool found;
        bool unreadable; /* found, but not read or parsed as a whole: the run changes nothing */
        bool mode_from_cmdline;
        bool cmdline_elevator; /* elevator= on the kernel command line, which Linux 5.0 dropped */
};

/* Called once for each bad line; line is 0 for problems with the whole file, whose message
 * then names the file itself, escaped: "cannot read 'PATH': REASON". */
typedef void (*config_warn_fn)(void *userdata, const char *path, unsigned line, const char *msg);

void config_defaults(struct config *c);

/* Parses text of len bytes (NUL bytes included) into c, on top of what c holds.
 * Returns the number of lines ignored. */
unsigned config_parse(struct config *c, const char *text, size_t len, const char *path,
                      config_warn_fn warn, void *userdata);

/* Finds hyperv_scheduler=MODE in a kernel command line, split as the kernel splits it (quotes
 * around the value or the whole parameter); the last one given wins. Returns 1 and
 * sets *mode when found, 0 when absent, -EINVAL (mode untouched) when the last value is not a
 * mode: then the command line overrides nothing, whatever earlier values said. */
int cmdline_mode(const char *cmdline, enum mode *mode);

/* The length of the longest start of cmdline, at most max bytes, that splits no parameter as
 * the kernel splits them: a parameter ends at a blank (the kernel's isspace()) outside double
 * quotes, so one that ends exactly at max is whole. cmdline, terminated, may run on past max. */
size_t cmdline_cut(const char *cmdline, size_t max);

/* Whether a kernel command line has elevator=: since Linux 5.0 (the legacy block layer gone)
 * the kernel ignores it and only warns, but guides still tell Hyper-V users to add it. */
bool cmdline_has_elevator(const char *cmdline);

int mode_from_string(const char *s, enum mode *mode);
const char *mode_name(enum mode m);

/* Whether the config lets the helper touch the disk with this kernel name. */
bool config_wants(const struct config *c, const char *name);
