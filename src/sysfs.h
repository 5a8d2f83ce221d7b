/* A device's directory in /sys read and written by the helper itself, without libudev, as
 * libudev would: the event's own disk decided and written under --udev (run.c). */
#pragma once
#include <stdbool.h>
#include <stddef.h>

/* The real path of path (/sys + DEVPATH, from the environment), which libudev takes as the
 * device's syspath: the one the messages and the record name, and the walk to VMBus climbs.
 * Returns 0, -EXDEV when it is not under /sys, or another negative errno (-ENOENT for a device
 * gone). */
int sysfs_real_path(const char *path, char *buf, size_t size);

/* Whether an ancestor of the device at syspath (a real path) is on the vmbus bus, as libudev's
 * udev_device_get_parent_with_subsystem_devtype(dev, "vmbus", NULL) tells. */
bool sysfs_on_vmbus(const char *syspath);

/* Writes value and a newline to the attribute attr of the device at syspath in one write(), as
 * libudev's udev_device_set_sysattr_value() does. Returns 0 or a negative errno. The test build
 * wraps it at link time (tests/testfacts.c). */
int sysfs_write_attr(const char *syspath, const char *attr, const char *value);
