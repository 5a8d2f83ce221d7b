/* libudev, opened by udev_new() on first use rather than by the dynamic loader at start.
 *
 * The per-event run on a machine that is not a Hyper-V guest, or on a disk already on its
 * target, decides from /sys and CPUID alone (run.c) and never calls udev_new(). Linked to
 * libudev, the loader would still map it and bind its symbols under BIND_NOW before main():
 * about half of that run's instructions (BENCHMARKS.md). Here each libudev function the
 * helper calls is defined with its own name and prototype and forwards to the library's,
 * found with dlsym() when udev_new() first runs. The definitions are not exported (the
 * executable is linked without --export-dynamic), so libudev's calls to itself stay its own.
 * Every call but udev_new() comes after a udev_new() that succeeded: each needs the context
 * or a device that only exists through it. */
#include <dlfcn.h>
#include <errno.h>
#include <libudev.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "udevlib.h"
#include "util.h"

/* The library as Debian, Fedora and every distro with systemd ship it. */
#define LIBUDEV_SONAME "libudev.so.1"

/* Each function: its name, what it returns, its parameters, its arguments. udev_new() and
 * udev_unref() are written out below; the others only forward. */
#define UDEV_CONTEXT(X)                                                                       \
        X(udev_new, struct udev *, (void), ())                                                \
        X(udev_unref, struct udev *, (struct udev * u), (u))
#define UDEV_FORWARDED(X)                                                            \
        X(udev_device_unref, struct udev_device *, (struct udev_device * d), (d))             \
        X(udev_device_new_from_syspath, struct udev_device *,                                 \
          (struct udev * u, const char *syspath), (u, syspath))                               \
        X(udev_device_new_from_subsystem_sysname, struct udev_device *,                       \
          (struct udev * u, const char *subsystem, const char *sysname),                      \
          (u, subsystem, sysname))                                                            \
        X(udev_device_new_from_devnum, struct udev_device *,                                  \
          (struct udev * u, char type, dev_t devnum), (u, type, devnum))                      \
        X(udev_device_get_syspath, const char *, (struct udev_device * d), (d))               \
        X(udev_device_get_sysname, const char *, (struct udev_device * d), (d))               \
        X(udev_device_get_subsystem, const char *, (struct udev_device * d), (d))             \
        X(udev_device_get_driver, const char *, (struct udev_device * d), (d))                \
        X(udev_device_get_sysattr_value, const char *,                                        \
          (struct udev_device * d, const char *attr), (d, attr))                              \
        X(udev_device_set_sysattr_value, int,                                                 \
          (struct udev_device * d, const char *attr, const char *value), (d, attr, value))    \
        X(udev_device_get_property_value, const char *,                                       \
          (struct udev_device * d, const char *key), (d, key))                                \
        X(udev_device_get_parent_with_subsystem_devtype, struct udev_device *,                \
          (struct udev_device * d, const char *subsystem, const char *devtype),               \
          (d, subsystem, devtype))                                                            \
        X(udev_enumerate_new, struct udev_enumerate *, (struct udev * u), (u))                \
        X(udev_enumerate_unref, struct udev_enumerate *, (struct udev_enumerate * e), (e))    \
        X(udev_enumerate_add_match_subsystem, int,                                            \
          (struct udev_enumerate * e, const char *subsystem), (e, subsystem))                 \
        X(udev_enumerate_add_match_property, int,                                             \
          (struct udev_enumerate * e, const char *property, const char *value),               \
          (e, property, value))                                                               \
        X(udev_enumerate_scan_devices, int, (struct udev_enumerate * e), (e))                 \
        X(udev_enumerate_get_list_entry, struct udev_list_entry *,                            \
          (struct udev_enumerate * e), (e))                                                   \
        X(udev_list_entry_get_next, struct udev_list_entry *,                                 \
          (struct udev_list_entry * l), (l))                                                  \
        X(udev_list_entry_get_name, const char *, (struct udev_list_entry * l), (l))

#define POINTER(name, ret, params, args) ret(*name) params;
static struct {
        UDEV_CONTEXT(POINTER)
        UDEV_FORWARDED(POINTER)
} sym;

#define NAME(name, ret, params, args) #name,
static const char *const sym_names[] = { UDEV_CONTEXT(NAME) UDEV_FORWARDED(NAME) };

static char error[512];

const char *udevlib_error(void) {
        return error[0] ? error : NULL;
}

/* "cannot VERB ...: DLERROR" in error, dlerror()'s text escaped: it holds a path. */
static void set_error(const char *what) {
        const char *why = dlerror();
        char shown[384];

        if (!why)
                why = "no reason given";
        escape_text(why, strlen(why), shown, sizeof(shown));
        snprintf(error, sizeof(error), "%s: %s", what, shown);
}

/* Opens the library and finds every function, once. 0, or -ELIBACC when the library or one of
 * its functions is missing (then nothing is kept, and udevlib_error() says why). */
static int udevlib_open(void) {
        static void *lib;
        void *found[ELEMENTSOF(sym_names)];

        if (lib)
                return 0;
        lib = dlopen(LIBUDEV_SONAME, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
                set_error("cannot load '" LIBUDEV_SONAME "'");
                return -ELIBACC;
        }
        for (size_t i = 0; i < ELEMENTSOF(sym_names); i++) {
                found[i] = dlsym(lib, sym_names[i]);
                if (!found[i]) {
                        char what[128];

                        /* Before dlclose(), which may set dlerror() anew. */
                        snprintf(what, sizeof(what), "cannot find '%s' in '" LIBUDEV_SONAME "'",
                                 sym_names[i]);
                        set_error(what);
                        dlclose(lib);
                        lib = NULL;
                        return -ELIBACC;
                }
        }
        error[0] = '\0';
        /* The struct holds nothing but function pointers, in the order of sym_names, each the
         * size of dlsym()'s object pointer, as POSIX requires of dlsym(). */
        _Static_assert(sizeof(sym) == sizeof(found), "one pointer for each name");
        memcpy(&sym, found, sizeof(sym));
        return 0;
}

struct udev *udev_new(void) {
        int r = udevlib_open();

        if (r < 0) {
                errno = -r;
                return NULL;
        }
        return sym.udev_new();
}

/* udev_unref(NULL) is a no-op in libudev, and run() calls it on every path. */
struct udev *udev_unref(struct udev *u) {
        return u ? sym.udev_unref(u) : NULL;
}

#define FORWARD(name, ret, params, args)                                                      \
        ret name params {                                                                     \
                return sym.name args;                                                         \
        }
UDEV_FORWARDED(FORWARD)
