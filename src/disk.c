#include "disk.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "sysfs.h"
#include "util.h"

int disk_open(struct udev *udev, const char *arg, enum devname_kind kind,
              struct udev_device **out) {
        struct udev_device *dev = NULL;
        struct stat st;

        errno = 0;
        switch (kind) {
        case DEVNAME_KERNEL:
                dev = udev_device_new_from_subsystem_sysname(udev, "block", arg);
                /* libudev names a device as udev's %k does, each '!' of the kernel's name a
                 * '/': libudev 262 finds etherd!e0.0 only as etherd/e0.0, where 252 finds it
                 * by the kernel's name. */
                if (!dev && strchr(arg, '!')) {
                        char udev_name[KERNEL_NAME_MAX];

                        if (copy_string(udev_name, arg, sizeof(udev_name))) {
                                for (char *p = udev_name; (p = strchr(p, '!')); p++)
                                        *p = '/';
                                errno = 0;
                                dev = udev_device_new_from_subsystem_sysname(udev, "block",
                                                                             udev_name);
                        }
                }
                break;
        case DEVNAME_DEV:
                if (stat(arg, &st) < 0)
                        return errno == ENOENT ? -ENODEV : -errno;
                if (!S_ISBLK(st.st_mode))
                        return -ENOTBLK;
                dev = udev_device_new_from_devnum(udev, 'b', st.st_rdev);
                break;
        case DEVNAME_SYS:
                dev = udev_device_new_from_syspath(udev, arg);
                if (dev && !streq(udev_device_get_subsystem(dev), "block")) {
                        udev_device_unref(dev);
                        return -ENOTBLK;
                }
                break;
        }
        if (!dev)
                return errno == 0 || errno == ENOENT ? -ENODEV : -errno;
        *out = dev;
        return 0;
}

int disk_open_event(struct udev *udev, const char *syspath, struct udev_device **out) {
        errno = 0;
        *out = udev_device_new_from_syspath(udev, syspath);
        if (!*out)
                return errno == 0 || errno == ENOENT ? -ENODEV : -errno;
        /* DEVPATH comes from the environment: the rule's SUBSYSTEM match does not vouch for it. */
        if (!streq(udev_device_get_subsystem(*out), "block")) {
                udev_device_unref(*out);
                *out = NULL;
                return -ENOTBLK;
        }
        return 0;
}

/* The longest attribute disk_read() reads. */
#define LONGEST_ATTR "queue/scheduler"

/* attr of the device at syspath, the trailing newline cut, in buf; NULL when it cannot be
 * read, and then in *error (where not NULL) 0 when it is absent, else the negative errno, with
 * *type the st_mode of what is no regular file. disk_read() made sure that every attribute's
 * path fits. */
static const char *read_attr(const char *syspath, const char *attr, char *buf, size_t size,
                             int *error, unsigned *type) {
        char path[PATH_MAX];
        struct stat st;
        size_t n;
        long r;

        path_join(path, sizeof(path), syspath, attr);
        r = read_file_bounded(path, buf, size);
        if (r < 0) {
                if (!error)
                        return NULL;
                /* Absent, or gone with its disk (ENODEV), as a write takes them (WRITE_VANISHED). */
                *error = r == -ENOENT || r == -ENODEV ? 0 : (int) r;
                /* What it is, only for the message: read_file_typed(), which says it, is the
                 * read-back's, which the test build redirects (tests/README.md). */
                if (r == -EBADFD && stat(path, &st) == 0)
                        *type = (unsigned) st.st_mode;
                return NULL;
        }
        n = strlen(buf);
        while (n > 0 && buf[n - 1] == '\n')
                buf[--n] = '\0';
        return buf;
}

int disk_sysfs_check(const char *syspath) {
        static const char block[] = "/block";
        char path[PATH_MAX], subsystem[PATH_MAX];
        ssize_t n;

        if (!path_join(path, sizeof(path), syspath, "subsystem"))
                return -ENAMETOOLONG;
        n = readlink(path, subsystem, sizeof(subsystem) - 1);
        if (n < 0)
                return -errno;
        subsystem[n] = '\0';
        /* The link ends in .../class/block, or .../block on kernels without sysfs classes. */
        if ((size_t) n < sizeof(block) - 1 || !streq(subsystem + n - (sizeof(block) - 1), block))
                return -ENOTBLK;
        return 0;
}

int disk_read(const char *syspath, bool event, struct disk_facts *f, struct disk_sysfs_bufs *b) {
        const char *devtype = event ? getenv("DEVTYPE") : NULL;
        size_t n = strlen(syspath);

        /* An attribute whose path does not fit is no absent attribute: a disk without a
         * readable queue/scheduler would be taken for one that has none. */
        if (n + 1 + sizeof(LONGEST_ATTR) > PATH_MAX)
                return -ENAMETOOLONG;
        memset(f, 0, sizeof(*f));
        /* The last part, as /sys/block spells it (etherd!e0.0, where libudev's sysname reads
         * etherd/e0.0). No strrchr(): one symbol fewer for the loader to bind per event. */
        while (n > 0 && syspath[n - 1] != '/')
                n--;
        f->name = syspath + n;
        /* udev always sets DEVTYPE for a block device, but a hand-made environment may lack
         * it. Otherwise: only partitions have a "partition" attribute, cheaper than parsing
         * the whole uevent file for DEVTYPE. */
        f->is_disk = devtype ? streq(devtype, "disk")
                             : !read_attr(syspath, "partition", b->zoned, sizeof(b->zoned), NULL,
                                          NULL);
        f->other_devtype = devtype && !f->is_disk && !streq(devtype, "partition");
        if (!f->is_disk)
                return 0;
        /* One that is there but cannot be read is no bio-based disk's absent file. */
        f->scheduler = read_attr(syspath, LONGEST_ATTR, b->scheduler, sizeof(b->scheduler),
                                 &f->scheduler_error, &f->scheduler_type);
        /* Nor one whose zoned file cannot be read a disk known not to be zoned. */
        f->zoned = read_attr(syspath, "queue/zoned", b->zoned, sizeof(b->zoned), &f->zoned_error,
                             &f->zoned_type);
        f->opted_out = event && streq(getenv("HYPERV_SCHEDULER"), "skip");
        return 0;
}

int disk_gather(struct udev_device *dev, bool event, struct disk_facts *f,
                struct disk_sysfs_bufs *b) {
        int r = disk_read(udev_device_get_syspath(dev), event, f, b);

        /* Another device's properties are in the udev database, which only libudev reads. */
        if (r == 0 && !event && f->is_disk)
                f->opted_out =
                        streq(udev_device_get_property_value(dev, "HYPERV_SCHEDULER"), "skip");
        return r;
}

bool disk_on_vmbus(struct udev_device *dev) {
        return udev_device_get_parent_with_subsystem_devtype(dev, "vmbus", NULL) != NULL;
}

int disk_hw_queues(struct udev_device *dev) {
        char path[PATH_MAX];
        struct dirent *e;
        int n = 0;
        DIR *d;

        if (snprintf(path, sizeof(path), "%s/mq", udev_device_get_syspath(dev)) >= (int) sizeof(path))
                return -ENAMETOOLONG;
        d = opendir(path);
        if (!d)
                return -errno;
        while ((e = readdir(d)))
                if (e->d_name[0] != '.')
                        n++;
        closedir(d);
        return n;
}

/* storvsc's IDE channel class (the Generation 1 fast path), as the VMBus class_id reads. */
#define VMBUS_CLASS_IDE "{32412632-86cb-44a2-9b5c-50d1417354f5}"

/* The number of CPUs in a kernel CPU list such as "0-3,8", or -EINVAL. */
static int count_cpu_list(const char *s) {
        int n = 0;

        while (*s && *s != '\n') {
                char *end;
                long a = strtol(s, &end, 10), b = a;

                if (end == s || a < 0)
                        return -EINVAL;
                if (*end == '-') {
                        s = end + 1;
                        b = strtol(s, &end, 10);
                        if (end == s || b < a)
                                return -EINVAL;
                }
                n += (int) (b - a + 1);
                s = *end == ',' ? end + 1 : end;
        }
        return n > 0 ? n : -EINVAL;
}

void disk_queue_facts(struct udev_device *dev, struct queue_facts *q) {
        struct udev_device *vmbus = udev_device_get_parent_with_subsystem_devtype(dev, "vmbus", NULL);
        char text[256];
        char *end;
        long v;
        int n;

        memset(q, 0, sizeof(*q));
        q->present_cpus = q->max_hw_queues = -1;
        if (!vmbus || !streq(udev_device_get_driver(vmbus), "hv_storvsc"))
                return;
        q->storvsc = true;
        q->ide = streq(udev_device_get_sysattr_value(vmbus, "class_id"), VMBUS_CLASS_IDE);
        if (read_file_bounded("/sys/devices/system/cpu/present", text, sizeof(text)) >= 0 &&
            (n = count_cpu_list(text)) > 0)
                q->present_cpus = n;
        if (read_file_bounded("/sys/module/hv_storvsc/parameters/storvsc_max_hw_queues", text,
                              sizeof(text)) >= 0) {
                v = strtol(text, &end, 10);
                if (end != text && v >= 0 && v <= 65535)
                        q->max_hw_queues = (int) v;
        }
}

/* What became of a write of target to the disk at syspath that returned r: the read-back
 * tells. The same for the write through libudev and the one without it. */
static void write_outcome(const char *syspath, const char *target, int r,
                          struct write_outcome *out) {
        char path[PATH_MAX], text[256];
        unsigned type = 0;
        long len;

        memset(out, 0, sizeof(*out));
        out->now.current = -1;
        if (r == -ENOENT || r == -ENODEV) {
                out->result = WRITE_VANISHED;
                out->error = r;
                return;
        }
        if (r < 0) {
                out->result = WRITE_FAILED;
                out->error = r;
                return;
        }
        /* Only the file itself tells what the kernel kept (libudev caches the value it wrote). */
        if (!path_join(path, sizeof(path), syspath, "queue/scheduler"))
                len = -ENAMETOOLONG;
        else
                len = read_file_typed(path, text, sizeof(text), &type);
        out->read_back = true;
        /* Gone between the write and the read-back: as gone before the write. */
        if (len == -ENOENT || len == -ENODEV) {
                out->result = WRITE_VANISHED;
                out->error = (int) len;
                return;
        }
        if (len < 0) {
                out->result = WRITE_NOT_KEPT;
                out->error = (int) len;
                out->type = type;
                return;
        }
        if (sched_list_parse(text, &out->now) < 0) {
                out->now.n = 0;
                out->now.current = -1;
        }
        out->result = streq(sched_list_current(&out->now), target) ? WRITE_CHANGED : WRITE_NOT_KEPT;
        if (out->result == WRITE_NOT_KEPT)
                escape_text(text, strlen(text), out->readback, sizeof(out->readback));
}

void disk_write_scheduler(struct udev_device *dev, const char *target, struct write_outcome *out) {
        write_outcome(udev_device_get_syspath(dev), target,
                      udev_device_set_sysattr_value(dev, "queue/scheduler", target), out);
}

void disk_write_scheduler_at(const char *syspath, const char *target, struct write_outcome *out) {
        write_outcome(syspath, target, sysfs_write_attr(syspath, "queue/scheduler", target), out);
}
