/* Which device a person or udev named: checked before anything touches the system. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define KERNEL_NAME_MAX 32 /* the kernel's DISK_NAME_LEN, terminator included */
#define DEVICE_PATH_MAX 256

enum devname_kind {
        DEVNAME_KERNEL, /* sda */
        DEVNAME_DEV,    /* /dev/sda, /dev/disk/by-id/… */
        DEVNAME_SYS,    /* /sys/block/sda, /sys/devices/…/block/sda */
};

/* Returns 0 and the kind of name, or -EINVAL and why it is not a device name. */
int devname_check(const char *arg, enum devname_kind *kind, const char **why);

bool kernel_name_valid(const char *name);
/* Whether c can be part of a kernel name. */
bool kernel_name_char(char c);

/* udev's %k spells each '!' of a kernel name as '/' (etherd!e0.0, an AoE disk, as
 * etherd/e0.0; systemd's sd-device keeps the sysname so). Whether arg, a name that is no path,
 * is in that spelling the last part of syspath (/sys + the event's DEVPATH): then the kernel's
 * name is in out (size bytes). */
bool devname_from_udev(const char *arg, const char *syspath, char *out, size_t size);
