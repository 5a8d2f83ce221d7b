/* Block devices: what the policy needs of one, read from /sys by the helper itself for the
 * event's own disk and for every other alike; through libudev, finding one, the walk to VMBus
 * and the write of the scheduler, save for the event's own disk under --udev (sysfs.h); the
 * write's read-back, whichever wrote. */
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

/* Room for the attributes disk_read() reads. */
struct disk_sysfs_bufs {
        char scheduler[4096 + 1]; /* a sysfs attribute is at most a page, as libudev reads it */
        char zoned[32];
};

/* Whether syspath (/sys + DEVPATH: it comes from the environment) is a block device, by its
 * subsystem link, without libudev. Returns 0, -ENOTBLK when it is not, or another negative
 * errno when it cannot tell. */
int disk_sysfs_check(const char *syspath);

/* What the policy needs of the block device at syspath, for the per-event read without
 * libudev and for every disk libudev finds alike: its kernel name (syspath's last part, as
 * /sys/block spells it), whether it is a whole disk, queue/scheduler and queue/zoned, read by
 * the helper itself into b, never blocking. event: the event's own device, whose properties
 * (DEVTYPE, HYPERV_SCHEDULER) are the environment, as udev passes them to the programs an
 * event runs; without it opted_out is left false (disk_gather() asks the udev database).
 * Returns 0, or -ENAMETOOLONG when an attribute's path does not fit in PATH_MAX. */
int disk_read(const char *syspath, bool event, struct disk_facts *f, struct disk_sysfs_bufs *b);

/* disk_read() of a device libudev found, its opt-out from the udev database unless event. */
int disk_gather(struct udev_device *dev, bool event, struct disk_facts *f,
                struct disk_sysfs_bufs *b);

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

/* The same without libudev, for the disk at syspath (a real path, as libudev's): the write
 * through sysfs_write_attr(), the read-back and its outcome as above. */
void disk_write_scheduler_at(const char *syspath, const char *target, struct write_outcome *out);
