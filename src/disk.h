/* Block devices through libudev: finding one, reading what the policy needs, writing the
 * scheduler and reading it back; and the event's own disk read from /sys without it. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "devname.h"
#include "policy.h"
#include "schedlist.h"
#include "types.h"

struct udev;
struct udev_device;

/* Finds the block device arg names. Returns 0, -ENODEV when there is none, -ENOTBLK when the
 * path is not a block device, or another negative errno. */
int disk_open(struct udev *udev, const char *arg, enum devname_kind kind,
              struct udev_device **out);

/* Opens the event's own device from its syspath (/sys + $DEVPATH), with no lookup by name.
 * Returns as disk_open(): -ENOTBLK when the path is not a block device. */
int disk_open_event(struct udev *udev, const char *syspath, struct udev_device **out);

/* Room for the attributes disk_gather_sysfs() reads. */
struct disk_sysfs_bufs {
        char scheduler[4096]; /* a sysfs attribute is at most a page */
        char zoned[32];
};

/* disk_gather(from_event) without libudev, for the event's own device at syspath (/sys +
 * DEVPATH) named name: its attributes read from /sys into b, the event's properties from the
 * environment. Returns 0, -ENOTBLK when syspath is no block device (DEVPATH comes from the
 * environment), or another negative errno when it cannot tell. */
int disk_gather_sysfs(const char *syspath, const char *name, struct disk_facts *f,
                      struct disk_sysfs_bufs *b);

/* Fills f with the device's cheap attributes; the strings stay owned by the device.
 * from_event takes the event's properties (DEVTYPE, HYPERV_SCHEDULER) from the environment, as
 * udev passes them to the programs an event runs: only for the event's own device. */
void disk_gather(struct udev_device *dev, struct disk_facts *f, bool from_event);

/* Whether an ancestor of the device is on the vmbus bus: the costliest read, a walk up the tree. */
bool disk_on_vmbus(struct udev_device *dev);

/* Number of hardware queues (mq/ entries): 1 is where the kernel defaults to mq-deadline.
 * A negative errno when unknown. Only the report asks. */
int disk_hw_queues(struct udev_device *dev);

/* What can explain one hardware queue on a storvsc disk. Only the report asks. */
void disk_queue_facts(struct udev_device *dev, struct queue_facts *q);

/* Writes target to queue/scheduler and reads the file again with read_file_typed(), which the
 * test build wraps at link time to read another file (tests/README.md). */
void disk_write_scheduler(struct udev_device *dev, const char *target, struct write_outcome *out);
