/* Block devices through libudev: finding one, reading what the policy needs, writing the
 * scheduler and reading it back. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "devname.h"
#include "policy.h"

struct udev;
struct udev_device;

/* Finds the block device arg names. Returns 0, -ENODEV when there is none, -ENOTBLK when the
 * path is not a block device, or another negative errno. */
int disk_open(struct udev *udev, const char *arg, enum devname_kind kind,
              struct udev_device **out);

/* Fills f with the device's cheap attributes; the strings stay owned by the device. on_vmbus
 * is left VMBUS_UNKNOWN. from_event takes the event's properties from the environment, as udev
 * passes them to the programs an event runs. */
void disk_gather(struct udev_device *dev, struct disk_facts *f, bool from_event);

/* Whether an ancestor of the device is on the vmbus bus: the dearest read, a walk up the tree. */
enum vmbus disk_on_vmbus(struct udev_device *dev);

/* Number of hardware queues (mq/ entries): 1 is where the kernel defaults to mq-deadline.
 * -1 when unknown. Only the report asks. */
int disk_hw_queues(struct udev_device *dev);

/* Writes target to queue/scheduler, then reads the file again into readback (empty when it
 * cannot be read). Returns 0 or the write's negative errno. */
int disk_write_scheduler(struct udev_device *dev, const char *target, char *readback, size_t size);
