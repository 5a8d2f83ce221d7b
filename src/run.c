#include "run.h"

#include <errno.h>
#include <libudev.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "config.h"
#include "devname.h"
#include "disk.h"
#include "facts.h"
#include "files.h"
#include "record.h"
#include "report.h"
#include "sysfs.h"
#include "udevlib.h"
#include "util.h"

struct results {
        struct disk_result *disks;
        size_t n, allocated;
        enum exit_status status;
};

/* The machine verdict, settled only when a disk would change or a report needs it: on the
 * per-event path a disk already on none reads no CPUID and no DMI. */
struct machine {
        struct machine_facts facts;
        struct machine_verdict verdict;
        bool settled;
};

static const struct machine_verdict *machine_verdict(struct machine *m, bool full) {
        if (!m->settled) {
                facts_gather_early(&m->facts, full);
                facts_gather_late(&m->facts, full);
                verdict_decide(&m->facts, &m->verdict);
                m->settled = true;
        }
        return &m->verdict;
}

/* A report, or --verbose, names every disk's reason: it needs every fact. */
static bool wants_all_facts(const struct run_options *o) {
        return o->dry_run || o->json || o->verbosity == VERBOSITY_DEBUG;
}

static void warn_config(void *userdata, const char *path, unsigned line, const char *msg) {
        char shown[CONFIG_PATH_SHOWN];

        (void) userdata;
        escape_text(path, strlen(path), shown, sizeof(shown));
        if (line)
                log_warning(LOG_WARNING, "%s:%u: %s", shown, line, msg);
        else
                log_warning(LOG_ERR, "%s, nothing is changed", msg);
}

static void load_config(const struct run_options *o, bool report, struct config *c) {
        char small[CMDLINE_SMALL], *big = NULL, *cmdline, shown[CONFIG_PATH_SHOWN];
        bool cut;
        enum mode m;
        int r;

        config_load(c, o->config_path, warn_config, NULL);
        if (!c->found && o->config_named) {
                escape_text(o->config_path, strlen(o->config_path), shown, sizeof(shown));
                log_warning(LOG_WARNING, "cannot open '%s': %s, defaults apply", shown,
                        strerror(ENOENT));
        }
        cmdline = read_cmdline(small, sizeof(small), &big, &cut);
        if (!cmdline)
                return;
        if (cut)
                log_warning(LOG_WARNING, "cannot read all of '/proc/cmdline': longer than 1 MiB, "
                                     "only the parameters in its first 1 MiB count");
        /* Only a report notes elevator=: no second pass over the command line per event. */
        if (report)
                c->cmdline_elevator = cmdline_has_elevator(cmdline);
        r = cmdline_mode(cmdline, &m);
        if (r < 0)
                log_warning(LOG_WARNING, "cannot use '/proc/cmdline': the last hyperv_scheduler= "
                                     "is not auto, always or off, the configured mode applies");
        else if (r > 0) {
                c->mode = m;
                c->mode_from_cmdline = true;
        }
        free(big);
}

static struct disk_result *add_result(struct results *res) {
        if (res->n == res->allocated) {
                size_t n = res->allocated ? 2 * res->allocated : 16;
                struct disk_result *p = realloc(res->disks, n * sizeof(*p));

                if (!p)
                        return NULL;
                res->disks = p;
                res->allocated = n;
        }
        memset(&res->disks[res->n], 0, sizeof(res->disks[0]));
        res->disks[res->n].hw_queues = -1;
        return &res->disks[res->n++];
}

static void worsen(struct results *res, enum exit_status s) {
        if (s > res->status)
                res->status = s;
}

/* The record of this disk, where it is one of this disk's, this boot: none of a disk that is
 * gone, or that is another disk now. */
static bool load_record(const char *syspath, const char *name, struct record *r) {
        struct record now = { 0 };
        const char *attr;
        unsigned type = 0;
        int dir = record_dir(false), e;

        if (dir < 0 || record_identity(syspath, name, &now, &attr) < 0)
                return false;
        e = record_load(dir, name, r, &type, NULL);
        if (e < 0) {
                record_warn(name, e, type);
                return false;
        }
        switch (record_match(r, &now, record_boot())) {
        case RECORD_THIS_DISK:
                return true;
        case RECORD_OTHER_BOOT:
                log_msg(LOG_DEBUG, "%s: a record of another boot, not this disk's", name);
                break;
        case RECORD_NO_DISKSEQ:
                record_warn(name, -EINVAL, 0);
                break;
        case RECORD_OTHER_DISK:
                break;
        }
        return false;
}

/* The record of a change: the first "before" of this disk kept. Without it the change stands,
 * with a warning. */
static void save_record(const struct run_options *o, const char *syspath,
                        struct disk_result *d) {
        const char *was = sched_list_current(&d->decision.available), *attr;
        struct record r = { 0 }, old;
        int e, dir;

        /* A record of another user's would not be trusted (hyperv-scheduler(8), RECORD): such a
         * run, which only a fake tree or a delegated sysfs attribute lets write, keeps none. */
        if (!was || !record_keeper())
                return;
        e = record_identity(syspath, d->name, &r, &attr);
        if (e < 0) {
                char shown[160];

                escape_text(syspath, strlen(syspath), shown, sizeof(shown));
                log_msg(LOG_WARNING, "cannot read '%s/%s': %s, no record is kept", shown, attr,
                        strerror(-e));
                return;
        }
        /* Without a boot id (a /proc without sys/: a build chroot's), the record names none. */
        copy_string(r.boot, record_boot(), sizeof(r.boot));
        if ((dir = record_dir(true)) < 0)
                return;
        copy_string(r.from, was, sizeof(r.from));
        copy_string(r.to, d->decision.target, sizeof(r.to));
        copy_string(r.by, o->by, sizeof(r.by));
        r.at = (long long) time(NULL);
        if (load_record(syspath, d->name, &old))
                copy_string(r.from, old.from, sizeof(r.from));
        e = record_save(dir, &r);
        if (e < 0)
                log_msg(LOG_WARNING, "cannot write '%s/%s': %s", RECORD_DIR, d->name,
                        strerror(-e));
}

/* dev NULL: the event's own disk under udev, at syspath, written without libudev. */
static void write_disk(const struct run_options *o, const char *syspath, struct udev_device *dev,
                       struct disk_result *d, struct results *res) {
        struct write_outcome *out = &d->outcome;
        char line[128];

        if (dev)
                disk_write_scheduler(dev, d->decision.target, out);
        else
                disk_write_scheduler_at(syspath, d->decision.target, out);
        d->written = true;
        /* Under udev a disk that went away before the write, or right after it, is no failure. */
        if (out->result == WRITE_VANISHED && o->under_udev) {
                log_msg(LOG_DEBUG, "%s: vanished before the %s", d->name,
                        out->read_back ? "read-back" : "write");
                return;
        }
        if (out->result == WRITE_VANISHED)
                out->result = out->read_back ? WRITE_NOT_KEPT : WRITE_FAILED;
        if (out->result != WRITE_CHANGED) {
                report_write_error(d->error, sizeof(d->error), syspath, d->decision.target, out);
                log_msg(LOG_ERR, "%s", d->error);
                worsen(res, EXIT_FAILED);
                return;
        }
        report_change_line(line, sizeof(line), d);
        log_change(line);
        save_record(o, syspath, d);
}

/* The machine stage, only where a write is due or a report names every reason. dev NULL: the
 * event's own disk at syspath (a real path), walked to VMBus without libudev. */
static void decide_machine(struct machine *m, const struct config *c, bool full,
                           const char *syspath, struct udev_device *dev,
                           struct disk_decision *dd) {
        const struct machine_verdict *v;
        bool on_vmbus;

        if (!policy_needs_machine(c, dd) || !(full || dd->decision == DECISION_CHANGE))
                return;
        v = machine_verdict(m, full);
        on_vmbus = verdict_vmbus_disks_are_synthetic(v) &&
                   (dev ? disk_on_vmbus(dev) : sysfs_on_vmbus(syspath));
        policy_machine(v, on_vmbus, dd);
}

/* The rest of a disk's decision and its write: the machine (CPUID, DMI, the walk to VMBus) only
 * where a write is due or a report names every reason. dev NULL: the event's own disk under
 * udev, at syspath, without libudev (event_settled_early()), with no report. */
static void settle_disk(const struct run_options *o, const struct config *c, struct machine *m,
                        const char *syspath, struct udev_device *dev, struct disk_result *d,
                        struct results *res) {
        struct disk_decision *dd = &d->decision;

        decide_machine(m, c, wants_all_facts(o), syspath, dev, dd);
        if (dd->decision == DECISION_CHANGE && !o->dry_run) {
                if (c->unreadable)
                        worsen(res, EXIT_FAILED);
                else
                        write_disk(o, syspath, dev, d, res);
                /* What was held back under udev now matters: this disk would change. */
                log_show_warnings();
        } else if (dd->decision == DECISION_SKIP)
                log_msg(LOG_DEBUG, "%s: left alone (%s)", d->name, reason_name(dd->reason));
        else if (dd->decision == DECISION_ALREADY)
                log_msg(LOG_DEBUG, "%s: already on %s", d->name, dd->target);
}

/* Each disk is decided once: the disk-local stage first, then the machine (settle_disk()). */
static void handle_device(const struct run_options *o, const struct config *c, struct machine *m,
                          struct udev_device *dev, bool event, struct results *res) {
        bool full = wants_all_facts(o);
        struct disk_sysfs_bufs bufs;
        struct disk_decision *dd;
        struct disk_result *d;
        struct disk_facts df;
        int r;

        /* The event's environment describes the event's device, no other. */
        r = disk_gather(dev, event, &df, &bufs);
        if (r < 0) {
                char shown[160];
                const char *path = udev_device_get_syspath(dev);

                escape_text(path, strlen(path), shown, sizeof(shown));
                log_msg(LOG_ERR, "cannot read '%s': %s", shown, strerror(-r));
                worsen(res, EXIT_FAILED);
                return;
        }
        d = add_result(res);
        if (!d) {
                log_msg(LOG_ERR, "cannot allocate memory");
                worsen(res, EXIT_FAILED);
                return;
        }
        dd = &d->decision;
        copy_string(d->name, df.name ? df.name : "", sizeof(d->name));
        policy_disk(c, &df, dd);
        /* Left alone, but for no reason a disk may have: the run fails, and says why once, in
         * the report or --check's line where there is one. */
        if (dd->reason == REASON_UNREADABLE) {
                bool sched = df.scheduler_error != 0;

                report_read_error(d->error, sizeof(d->error), udev_device_get_syspath(dev),
                                  sched ? "queue/scheduler" : "queue/zoned",
                                  sched ? df.scheduler_error : df.zoned_error,
                                  sched ? df.scheduler_type : df.zoned_type);
                worsen(res, EXIT_FAILED);
                if (!o->dry_run && !o->json)
                        log_msg(LOG_ERR, "%s", d->error);
        }
        if (full) {
                d->hw_queues = disk_hw_queues(dev);
                d->rule_skips = policy_rule_skips(&df);
                d->zoned = df.zoned && !streq(df.zoned, "none");
                if (d->hw_queues == 1) {
                        struct queue_facts q;

                        disk_queue_facts(dev, &q);
                        report_queue_why(&q, d->queue_why, sizeof(d->queue_why));
                }
        }
        settle_disk(o, c, m, udev_device_get_syspath(dev), dev, d, res);
        /* Only a report reads the records of disks it does not write. */
        /* A record whose change was undone since, or overwritten, is no change of the disk's
         * now. */
        if (o->dry_run || o->json)
                d->changed = load_record(udev_device_get_syspath(dev), d->name, &d->record) &&
                             streq(sched_list_current(d->written ? &d->outcome.now
                                                                 : &dd->available),
                                   d->record.to);
}

/* Whether path's last component is name. */
static bool names(const char *path, const char *name) {
        size_t n = strlen(path), m = strlen(name);

        return n > m && path[n - m - 1] == '/' && streq(path + n - m, name);
}

/* Whether arg, a device named under udev, is the event's own: a kernel name that DEVPATH ends
 * in. Both the read without libudev and the run with it ask this, and nothing else. The names
 * are checked first (names_valid()): one that is no path is a kernel name. */
static bool event_named(const struct run_options *o, const char *arg) {
        return arg[0] != '/' && o->event_syspath && names(o->event_syspath, arg);
}

static void handle_named(const struct run_options *o, struct udev *udev, const struct config *c,
                         struct machine *m, const char *arg, enum devname_kind kind,
                         struct results *res) {
        struct udev_device *dev;
        char msg[160];
        bool event;
        int r;

        /* The event's own disk: udev gave its syspath, no lookup by name is needed. A DEVPATH
         * that names nothing is no proof that the disk is gone: then the name decides. */
        r = -ENODEV;
        if (event_named(o, arg)) {
                r = disk_open_event(udev, o->event_syspath, &dev);
                if (r == -ENOTBLK)
                        arg = o->event_syspath;
        }
        /* What DEVPATH names is the event's disk, whatever form the path has: the read
         * without libudev takes it so (event_disk_early()). */
        event = r == 0;
        if (r == -ENODEV)
                r = disk_open(udev, arg, kind, &dev);

        if (r == 0) {
                handle_device(o, c, m, dev, event, res);
                udev_device_unref(dev);
                return;
        }
        /* Under udev a disk that went away before its event was handled is no failure. */
        if (r == -ENODEV && o->under_udev) {
                char shown[DEVICE_PATH_MAX * 4];

                escape_text(arg, strlen(arg), shown, sizeof(shown));
                log_msg(LOG_DEBUG, "%s: vanished before it could be looked up", shown);
                return;
        }
        report_lookup_error(msg, sizeof(msg), arg, r);
        log_msg(LOG_ERR, "%s", msg);
        worsen(res, EXIT_USAGE);
}

static void handle_all(const struct run_options *o, struct udev *udev, const struct config *c,
                       struct machine *m, struct results *res) {
        struct udev_enumerate *e = udev_enumerate_new(udev);
        struct udev_list_entry *item;
        int r;

        /* These return a negative errno and leave errno alone. */
        if (!e)
                r = -ENOMEM;
        else if ((r = udev_enumerate_add_match_subsystem(e, "block")) >= 0 &&
                 (r = udev_enumerate_add_match_property(e, "DEVTYPE", "disk")) >= 0)
                r = udev_enumerate_scan_devices(e);
        if (r < 0) {
                char msg[160];

                report_enumerate_error(msg, sizeof(msg), r);
                log_msg(LOG_ERR, "%s", msg);
                worsen(res, EXIT_FAILED);
                udev_enumerate_unref(e);
                return;
        }
        udev_list_entry_foreach(item, udev_enumerate_get_list_entry(e)) {
                struct udev_device *dev =
                        udev_device_new_from_syspath(udev, udev_list_entry_get_name(item));

                if (!dev)
                        continue;
                handle_device(o, c, m, dev,
                              o->event_syspath && streq(udev_device_get_syspath(dev),
                                                        o->event_syspath),
                              res);
                udev_device_unref(dev);
        }
        udev_enumerate_unref(e);
}

/* systemd-udevd and eudev both listen on this socket while they run; where neither does (WSL2
 * without systemd, Alpine with mdev) the rule never fires. */
static bool udev_running(void) {
        struct stat st;

        return stat(UDEV_CONTROL, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int by_name(const void *a, const void *b) {
        return strverscmp(((const struct disk_result *) a)->name,
                          ((const struct disk_result *) b)->name);
}

/* The report is built in memory and written whole: it can be long, and a stdio buffer that
 * fails half-way loses the errno. Returns 0, or a negative errno after logging why. */
static int print_report(bool json, const struct report *r) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        int ret;

        if (!f) {
                ret = -errno;
                log_msg(LOG_ERR, "cannot write the report: %s", strerror(-ret));
                return ret;
        }
        if (json)
                report_json(f, r);
        else
                report_text(f, r);
        if (fclose(f) != 0) {
                ret = -errno;
                log_msg(LOG_ERR, "cannot write the report: %s", strerror(-ret));
        } else {
                ret = log_write_stdout(text, len);
        }
        free(text);
        return ret;
}

/* The i-th device named, as the helper reads it: under udev, a kernel name in udev's spelling
 * (etherd/e0.0 for etherd!e0.0) where DEVPATH ends in it, as the kernel's. */
static const char *device_arg(const struct run_options *o, size_t i, char *buf, size_t size) {
        if (o->under_udev && o->event_syspath &&
            devname_from_udev(o->devices[i], o->event_syspath, buf, size))
                return buf;
        return o->devices[i];
}

/* Every name is checked before anything is read or written. */
static bool names_valid(const struct run_options *o) {
        for (size_t i = 0; i < o->n_devices; i++) {
                char msg[256], buf[KERNEL_NAME_MAX];
                const char *arg = device_arg(o, i, buf, sizeof(buf));
                enum devname_kind kind;
                const char *why;

                if (devname_check(arg, &kind, &why) < 0) {
                        report_name_error(msg, sizeof(msg), o->devices[i], why);
                        log_msg(LOG_ERR, "%s", msg);
                        return false;
                }
        }
        return true;
}

static int show_report(const struct run_options *o, const struct machine *m,
                       const struct config *c, struct results *res) {
        struct report r = {
                .verdict = &m->verdict,
                .config = c,
                .config_path = o->config_path,
                .disks = res->disks,
                .n_disks = res->n,
                .linux_version = report_linux_version(m->facts.osrelease),
                /* Named disks are always shown; -v and JSON show every one. */
                .hide_rule_skipped = o->n_devices == 0 && o->verbosity != VERBOSITY_DEBUG,
                .udev_checked = o->dry_run,
                .udev_running = udev_running(),
                .check = o->check,
                .check_ok = res->status == EXIT_OK,
        };

        return print_report(o->json, &r);
}

/* --check: each disk that fails it fails the run; without --json, one line each says why.
 * Returns 0, or a negative errno when the lines cannot be written. */
static int check_disks(const struct run_options *o, struct results *res) {
        char *text = NULL, line[sizeof(res->disks[0].name) + sizeof(res->disks[0].error) + 2];
        size_t len = 0;
        FILE *f = o->json ? NULL : open_memstream(&text, &len);
        int ret = 0;

        if (!o->json && !f) {
                ret = -errno;
                log_msg(LOG_ERR, "cannot write the check: %s", strerror(-ret));
                return ret;
        }
        for (size_t i = 0; i < res->n; i++)
                if (report_check_fails(line, sizeof(line), &res->disks[i])) {
                        worsen(res, EXIT_FAILED);
                        if (f)
                                fprintf(f, "%s\n", line);
                }
        if (!f)
                return 0;
        if (fclose(f) != 0) {
                ret = -errno;
                log_msg(LOG_ERR, "cannot write the check: %s", strerror(-ret));
        } else {
                ret = log_write_stdout(text, len);
        }
        free(text);
        return ret;
}

/* The event's own disk, as the policy sees it, read as the run with libudev reads it
 * (disk_read()) but without libudev: only for a run under udev, for the event's own disk, with
 * no report. False when that does not apply, when the event's device is no block device, or
 * when its attributes' paths do not fit or its scheduler cannot be read (the run with libudev
 * then says so). */
static bool event_disk_early(const struct run_options *o, const struct config *c,
                             struct disk_decision *dd) {
        char buf[KERNEL_NAME_MAX];
        struct disk_sysfs_bufs bufs;
        struct disk_facts df;

        if (!o->under_udev || wants_all_facts(o) || o->n_devices != 1 ||
            !event_named(o, device_arg(o, 0, buf, sizeof(buf))) ||
            disk_sysfs_check(o->event_syspath) < 0 ||
            disk_read(o->event_syspath, true, &df, &bufs) < 0)
                return false;
        policy_disk(c, &df, dd);
        return dd->reason != REASON_UNREADABLE;
}

/* The event settled without libudev: its disk left alone, already on its target, or written,
 * the machine (CPUID, the FADT, DMI, the walk to VMBus) read from /sys where a write would be
 * due, as handle_device() does with libudev. False, with nothing done, where the event's own
 * disk cannot be settled so, before any machine fact is read: the run with libudev then handles
 * it. */
static bool event_settled_early(const struct run_options *o, const struct config *c,
                                struct machine *m, struct results *res) {
        char buf[KERNEL_NAME_MAX], syspath[PATH_MAX];
        struct disk_decision dd;
        struct disk_result *d;
        const char *name;

        if (!event_disk_early(o, c, &dd))
                return false;
        name = device_arg(o, 0, buf, sizeof(buf));
        if (dd.decision == DECISION_SKIP) {
                log_msg(LOG_DEBUG, "%s: left alone (%s)", name, reason_name(dd.reason));
                return true;
        }
        if (dd.decision == DECISION_ALREADY) {
                log_msg(LOG_DEBUG, "%s: already on %s", name, dd.target);
                return true;
        }
        /* The path libudev names the disk by, in a message and in its record. A disk gone
         * already is libudev's to tell. */
        if (sysfs_real_path(o->event_syspath, syspath, sizeof(syspath)) < 0)
                return false;
        d = add_result(res);
        if (!d) {
                log_msg(LOG_ERR, "cannot allocate memory");
                worsen(res, EXIT_FAILED);
                return true;
        }
        copy_string(d->name, name, sizeof(d->name));
        d->decision = dd;
        settle_disk(o, c, m, syspath, NULL, d, res);
        return true;
}

enum exit_status run(const struct run_options *o) {
        bool report = o->dry_run || o->json, full = wants_all_facts(o);
        bool hold = o->under_udev && !o->dry_run;
        struct results res = { 0 };
        struct machine m = { 0 };
        struct udev *udev = NULL;
        struct config c;

        if (!names_valid(o))
                return EXIT_USAGE;
        log_hold_warnings(hold);
        load_config(o, report, &c);
        if (c.unreadable && !hold)
                worsen(&res, EXIT_FAILED);
        /* Without a report to show, there is nothing left to do. */
        if (c.unreadable && !report && !o->under_udev)
                goto out;
        if (o->under_udev && c.mode == MODE_OFF && !report) {
                log_msg(LOG_DEBUG, "mode off: nothing to do");
                goto out;
        }
        /* libudev is loaded only for what the event's own environment and /sys cannot settle
         * (event_settled_early()): a report (--dry-run, --json, --verbose: every reason, the
         * udev database's view), --all, a disk named that is not the event's own (another
         * name, a /dev path, more than one, a run by hand), a DEVPATH that names no block
         * device, whose attributes' paths do not fit or whose real path is outside /sys, and a
         * queue/scheduler that cannot be read. Other disks' HYPERV_SCHEDULER is in the udev
         * database, which only libudev reads. */
        if (event_settled_early(o, &c, &m, &res))
                goto out;
        udev = udev_new();
        if (!udev && udevlib_error()) {
                log_msg(LOG_ERR, "%s", udevlib_error());
                worsen(&res, EXIT_FAILED);
                goto out;
        }
        if (!udev) {
                log_msg(LOG_ERR, "cannot create udev context: %s", strerror(errno));
                worsen(&res, EXIT_FAILED);
                goto out;
        }
        /* The headline of a report names the machine, whatever the disks need. */
        if (report)
                machine_verdict(&m, full);

        if (o->n_devices == 0)
                handle_all(o, udev, &c, &m, &res);
        for (size_t i = 0; i < o->n_devices; i++) {
                char buf[KERNEL_NAME_MAX];
                const char *arg = device_arg(o, i, buf, sizeof(buf));
                enum devname_kind kind;
                const char *why;

                devname_check(arg, &kind, &why);
                handle_named(o, udev, &c, &m, arg, kind, &res);
        }
        /* qsort's array must not be NULL, even for no element. */
        if (o->n_devices == 0 && res.n > 0)
                qsort(res.disks, res.n, sizeof(res.disks[0]), by_name);
        if (o->check && check_disks(o, &res) < 0)
                worsen(&res, EXIT_FAILED);
        else if (report && (!o->check || o->json) && show_report(o, &m, &c, &res) < 0)
                worsen(&res, EXIT_FAILED);
out:
        free(res.disks);
        udev_unref(udev);
        log_free_warnings();
        return res.status;
}
