#include "undo.h"

#include <dirent.h>
#include <errno.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>

#include "devname.h"
#include "disk.h"
#include "record.h"
#include "report.h"
#include "util.h"

static void worsen(enum exit_status *status, enum exit_status s) {
        if (s > *status)
                *status = s;
}

/* Puts back the record of the disk named name, only where it is still the disk that was
 * changed and still reads what this program wrote; else says why, in one line, and leaves
 * both disk and record alone. */
static void undo_one(const struct run_options *o, struct udev *udev, const char *name,
                     enum exit_status *status) {
        struct udev_device *dev = NULL;
        struct record r, now = { 0 };
        struct write_outcome out;
        struct sched_list list;
        struct disk_sysfs_bufs bufs;
        struct disk_facts df;
        const char *current;
        char line[128], msg[320];
        unsigned type = 0;
        int e = record_load(RECORD_DIR, name, &r, &type);

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
                e = record_identity(udev_device_get_syspath(dev), name, &now);
        if (e < 0) {
                log_msg(LOG_ERR, "%s: not undone: %s", name,
                        e == -ENODEV ? "the disk is gone" : strerror(-e));
                worsen(status, EXIT_FAILED);
                goto out;
        }
        if (!record_same_disk(&r, &now)) {
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
        if (!streq(current, r.to)) {
                log_msg(LOG_ERR, "%s: not undone: on %s now, not %s (changed since)", name,
                        current ? current : "no scheduler", r.to);
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
        e = record_remove(RECORD_DIR, name);
        if (e < 0 && e != -ENOENT)
                log_msg(LOG_WARNING, "cannot remove '%s/%s': %s", RECORD_DIR, name, strerror(-e));
out:
        udev_device_unref(dev);
}

static int by_version(const void *a, const void *b) {
        return strverscmp(*(char *const *) a, *(char *const *) b);
}

/* Every record: the names in RECORD_DIR, in the order of a report. */
static void undo_all(const struct run_options *o, struct udev *udev, enum exit_status *status) {
        DIR *d = opendir(RECORD_DIR);
        char **names = NULL;
        size_t n = 0;
        struct dirent *de;

        if (!d) {
                if (errno != ENOENT) {
                        log_msg(LOG_ERR, "cannot read '%s': %s", RECORD_DIR, strerror(errno));
                        worsen(status, EXIT_FAILED);
                }
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
                undo_one(o, udev, names[i], status);
                free(names[i]);
        }
        free(names);
}

enum exit_status undo(const struct run_options *o) {
        enum exit_status status = EXIT_OK;
        struct udev *udev = udev_new();

        if (!udev) {
                log_msg(LOG_ERR, "cannot create udev context: %s", strerror(errno));
                return EXIT_FAILED;
        }
        if (o->n_devices == 0)
                undo_all(o, udev, &status);
        for (size_t i = 0; i < o->n_devices; i++) {
                const char *arg = o->devices[i], *name = arg;
                struct udev_device *dev = NULL;
                enum devname_kind kind;
                const char *why;
                char msg[256];
                int e;

                if (devname_check(arg, &kind, &why) < 0) {
                        report_name_error(msg, sizeof(msg), arg, why);
                        log_msg(LOG_ERR, "%s", msg);
                        worsen(&status, EXIT_USAGE);
                        continue;
                }
                /* A path names the disk that is there now; a kernel name, a disk gone too. */
                if (kind != DEVNAME_KERNEL) {
                        e = disk_open(udev, arg, kind, &dev);
                        if (e < 0) {
                                report_lookup_error(msg, sizeof(msg), arg, e);
                                log_msg(LOG_ERR, "%s", msg);
                                worsen(&status, EXIT_USAGE);
                                continue;
                        }
                        name = udev_device_get_sysname(dev);
                }
                undo_one(o, udev, name, &status);
                udev_device_unref(dev);
        }
        udev_unref(udev);
        return status;
}
