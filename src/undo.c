#include "undo.h"

#include <dirent.h>
#include <errno.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devname.h"
#include "disk.h"
#include "record.h"
#include "report.h"
#include "udevlib.h"
#include "util.h"

static void worsen(enum exit_status *status, enum exit_status s) {
        if (s > *status)
                *status = s;
}

/* Puts back the record of the disk named name, only where it is still the disk that was
 * changed, this boot, and still reads what this program wrote; else says why, in one line, and
 * leaves both disk and record alone. */
static void undo_one(const struct run_options *o, struct udev *udev, int dir, const char *name,
                     enum exit_status *status) {
        struct udev_device *dev = NULL;
        struct record r, now = { 0 };
        struct write_outcome out;
        struct sched_list list;
        struct disk_sysfs_bufs bufs;
        struct disk_facts df;
        const char *current, *attr;
        char line[128], msg[320];
        unsigned type = 0;
        int kept = -1, e = record_load(dir, name, &r, &type, &kept);

        if (e == -ENOENT) {
                log_msg(LOG_DEBUG, "%s: nothing to undo (no record of a change)", name);
                return;
        }
        if (e < 0) {
                record_warn(name, e, type);
                worsen(status, EXIT_FAILED);
                return;
        }
        e = disk_open(udev, name, DEVNAME_KERNEL, &dev);
        if (e == 0)
                e = record_identity(udev_device_get_syspath(dev), name, &now, &attr);
        if (e < 0) {
                log_msg(LOG_ERR, "%s: not undone: %s", name,
                        e == -ENODEV ? "the disk is gone" : strerror(-e));
                worsen(status, EXIT_FAILED);
                goto out;
        }
        switch (record_match(&r, &now, record_boot())) {
        case RECORD_THIS_DISK:
                break;
        case RECORD_OTHER_BOOT:
                log_msg(LOG_DEBUG, "%s: nothing to undo (a record of another boot)", name);
                goto out;
        case RECORD_NO_DISKSEQ:
                record_warn(name, -EINVAL, 0);
                worsen(status, EXIT_FAILED);
                goto out;
        case RECORD_OTHER_DISK:
                log_msg(LOG_ERR, "%s: not undone: another disk has its name now", name);
                worsen(status, EXIT_FAILED);
                goto out;
        }
        e = disk_gather(dev, false, &df, &bufs);
        if (e < 0) {
                log_msg(LOG_ERR, "%s: not undone: %s", name, strerror(-e));
                worsen(status, EXIT_FAILED);
                goto out;
        }
        current = df.scheduler && sched_list_parse(df.scheduler, &list) == 0 ?
                          sched_list_current(&list) : NULL;
        /* Put back already, by a run whose record could not be removed. */
        if (streq(current, r.from) && !o->dry_run) {
                log_msg(LOG_DEBUG, "%s: nothing to undo (on %s already)", name, r.from);
                goto remove;
        }
        if (!streq(current, r.to)) {
                log_msg(LOG_ERR, "%s: not undone: on %s now, not %s (changed since)", name,
                        current ? current : "no scheduler", r.to);
                worsen(status, EXIT_FAILED);
                goto out;
        }
        if (sched_list_find(&list, r.from) < 0) {
                log_msg(LOG_ERR, "%s: not undone: it offers no scheduler %s now", name, r.from);
                worsen(status, EXIT_FAILED);
                goto out;
        }
        if (o->dry_run) {
                log_msg(LOG_INFO, "%s: %s -> %s (would be undone)", name, r.to, r.from);
                goto out;
        }
        disk_write_scheduler(dev, r.from, &out);
        if (out.result == WRITE_VANISHED)
                out.result = out.read_back ? WRITE_NOT_KEPT : WRITE_FAILED;
        if (out.result != WRITE_CHANGED) {
                report_write_error(msg, sizeof(msg), udev_device_get_syspath(dev), r.from, &out);
                log_msg(LOG_ERR, "%s", msg);
                worsen(status, EXIT_FAILED);
                goto out;
        }
        snprintf(line, sizeof(line), "%s: %s -> %s (undone)", name, r.to, r.from);
        log_change(line);
remove:
        e = record_remove(dir, name, kept);
        if (e == -ESTALE)
                log_msg(LOG_DEBUG, "%s: a new record since, kept", name);
        else if (e < 0 && e != -ENOENT)
                log_msg(LOG_WARNING, "cannot remove '%s/%s': %s", RECORD_DIR, name, strerror(-e));
out:
        if (kept >= 0)
                close(kept);
        udev_device_unref(dev);
}

static int by_version(const void *a, const void *b) {
        return strverscmp(*(char *const *) a, *(char *const *) b);
}

/* Every record: the names in RECORD_DIR, in the order of a report. */
static void undo_all(const struct run_options *o, struct udev *udev, int dir,
                     enum exit_status *status) {
        int fd = dup(dir);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;

        if (!d) {
                log_msg(LOG_ERR, "cannot read '%s': %s", RECORD_DIR, strerror(errno));
                worsen(status, EXIT_FAILED);
                if (fd >= 0)
                        close(fd);
                return;
        }
        while ((de = readdir(d))) {
                size_t len = strlen(de->d_name) + 1;
                char **p;

                /* A dot file is a record being written, or no record. */
                if (de->d_name[0] == '.')
                        continue;
                if (!(p = realloc(names, (n + 1) * sizeof(*p))) || !(p[n] = malloc(len))) {
                        names = p ? p : names;
                        log_msg(LOG_ERR, "cannot allocate memory");
                        worsen(status, EXIT_FAILED);
                        break;
                }
                memcpy(p[n], de->d_name, len);
                names = p;
                n++;
        }
        closedir(d);
        if (n)
                qsort(names, n, sizeof(*names), by_version);
        for (size_t i = 0; i < n; i++) {
                undo_one(o, udev, dir, names[i], status);
                free(names[i]);
        }
        free(names);
}

enum exit_status undo(const struct run_options *o) {
        enum exit_status status = EXIT_OK;
        struct udev *udev;
        int dir;

        /* Every name is checked before anything is read or written. */
        for (size_t i = 0; i < o->n_devices; i++) {
                enum devname_kind kind;
                const char *why;
                char msg[256];

                if (devname_check(o->devices[i], &kind, &why) < 0) {
                        report_name_error(msg, sizeof(msg), o->devices[i], why);
                        log_msg(LOG_ERR, "%s", msg);
                        return EXIT_USAGE;
                }
        }
        dir = record_dir(false);
        if (dir == -ENOENT)
                return EXIT_OK;
        if (dir < 0)
                return EXIT_FAILED;
        udev = udev_new();
        /* As run() says it: the library named, where it is what failed. */
        if (!udev) {
                if (udevlib_error())
                        log_msg(LOG_ERR, "%s", udevlib_error());
                else
                        log_msg(LOG_ERR, "cannot create udev context: %s", strerror(errno));
                return EXIT_FAILED;
        }
        if (o->n_devices == 0)
                undo_all(o, udev, dir, &status);
        for (size_t i = 0; i < o->n_devices; i++) {
                const char *arg = o->devices[i], *name = arg;
                struct udev_device *dev = NULL;
                enum devname_kind kind;
                const char *why;
                char msg[256];
                int e;

                devname_check(arg, &kind, &why);
                /* A path names the disk that is there now; a kernel name, a disk gone too. */
                if (kind != DEVNAME_KERNEL) {
                        e = disk_open(udev, arg, kind, &dev);
                        if (e < 0) {
                                report_lookup_error(msg, sizeof(msg), arg, e);
                                log_msg(LOG_ERR, "%s", msg);
                                worsen(&status, EXIT_USAGE);
                                continue;
                        }
                        /* The kernel's spelling (etherd!e0.0), which names the record;
                         * libudev's sysname is udev's (etherd/e0.0). */
                        name = strrchr(udev_device_get_syspath(dev), '/') + 1;
                }
                undo_one(o, udev, dir, name, &status);
                udev_device_unref(dev);
        }
        udev_unref(udev);
        return status;
}
