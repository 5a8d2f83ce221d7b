#include "devname.h"

#include <errno.h>
#include <string.h>

#include "util.h"

/* What the kernel puts in block device names ('!' stands for '/' in cciss!c0d0). */
#define KERNEL_NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:+!@-"

bool kernel_name_char(char c) {
        return c != '\0' && strchr(KERNEL_NAME_CHARS, c);
}

bool kernel_name_valid(const char *name) {
        size_t len = strlen(name);

        return len > 0 && len < KERNEL_NAME_MAX && strspn(name, KERNEL_NAME_CHARS) == len &&
               !streq(name, ".") && !streq(name, "..");
}

static bool has_dot_component(const char *path) {
        for (const char *p = path; *p; p += strcspn(p, "/")) {
                size_t len;

                p += strspn(p, "/");
                len = strcspn(p, "/");
                if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
                        return true;
        }
        return false;
}

int devname_check(const char *arg, enum devname_kind *kind, const char **why) {
        size_t len = strlen(arg);

        if (len == 0) {
                *why = "empty name";
                return -EINVAL;
        }
        for (size_t i = 0; i < len; i++)
                if ((unsigned char) arg[i] <= ' ' || (unsigned char) arg[i] >= 0x7f) {
                        *why = "contains a space, a control character or a non-ASCII byte";
                        return -EINVAL;
                }
        if (arg[0] != '/') {
                if (strchr(arg, '/')) {
                        *why = "a kernel name has no '/'; give /dev/NAME or a /sys path";
                        return -EINVAL;
                }
                if (!kernel_name_valid(arg)) {
                        *why = len >= KERNEL_NAME_MAX ? "longer than a kernel name can be (31)"
                                                      : "not a kernel device name";
                        return -EINVAL;
                }
                *kind = DEVNAME_KERNEL;
                return 0;
        }
        if (len >= DEVICE_PATH_MAX) {
                *why = "path too long";
                return -EINVAL;
        }
        if (has_dot_component(arg)) {
                *why = "path contains '.' or '..'";
                return -EINVAL;
        }
        if (strncmp(arg, "/dev/", 5) == 0 && arg[5] != '\0') {
                *kind = DEVNAME_DEV;
                return 0;
        }
        if (strncmp(arg, "/sys/", 5) == 0 && arg[5] != '\0') {
                *kind = DEVNAME_SYS;
                return 0;
        }
        *why = "not a path under /dev or /sys";
        return -EINVAL;
}

bool devname_from_udev(const char *arg, const char *syspath, char *out, size_t size) {
        size_t len, n;

        /* Every event asks: a name without '/' is answered first. */
        if (arg[0] == '/' || !strchr(arg, '/'))
                return false;
        len = strlen(arg);
        n = strlen(syspath);
        if (len >= size || n <= len || syspath[n - len - 1] != '/')
                return false;
        for (size_t i = 0; i < len; i++) {
                out[i] = arg[i] == '/' ? '!' : arg[i];
                if (out[i] != syspath[n - len + i])
                        return false;
        }
        out[len] = '\0';
        return true;
}
