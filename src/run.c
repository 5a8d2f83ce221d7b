#include "run.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "devname.h"
#include "disk.h"
#include "facts.h"
#include "report.h"
#include "util.h"

#define CMDLINE_MAX 8192

struct results {
        struct disk_result *disks;
        size_t n, allocated;
        enum exit_status status;
};

/* The machine verdict, settled from CPUID alone where that suffices, else only when a disk
 * is about to be written: DMI is read once at most, and not at all for a disk that needs no
 * change. */
struct machine {
        struct machine_facts facts;
        struct machine_verdict verdict;
        bool settled;
};

static void settle(struct machine *m, struct udev *udev, bool full) {
        if (m->settled)
                return;
        facts_gather_rest(&m->facts, udev, full);
        verdict_decide(&m->facts, &m->verdict);
        m->settled = true;
}

/* Until DMI is read, CPUID said "Microsoft Hv" (or there is no CPUID): decide as for a guest. */
static enum verdict verdict_so_far(const struct machine *m) {
        return m->settled ? m->verdict.verdict : VERDICT_HYPERV_GUEST;
}

/* A report, or --verbose, names every disk's reason: it needs every fact, read up front. */
static bool wants_all_facts(const struct run_options *o) {
        return o->dry_run || o->json || o->verbosity == VERBOSITY_DEBUG;
}

static void warn_config(void *userdata, const char *path, unsigned line, const char *msg) {
        (void) userdata;
        if (line)
                log_msg(LOG_WARNING, "%s:%u: %s", path, line, msg);
        else
                log_msg(LOG_WARNING, "%s: %s", path, msg);
}

static void load_config(const struct run_options *o, struct config *c) {
        char cmdline[CMDLINE_MAX];
        enum mode m;
        int r;

        config_load(c, o->config_path, warn_config, NULL);
        if (!c->found && o->config_named)
                log_msg(LOG_WARNING, "cannot open '%s': %s, defaults apply", o->config_path,
                        strerror(ENOENT));
        if (read_file_bounded("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
                return;
        r = cmdline_mode(cmdline, &m);
        if (r < 0)
                log_msg(LOG_WARNING, "ignoring the last hyperv_scheduler= on the kernel command "
                                     "line: expected auto, always or off");
        else if (r > 0) {
                c->mode = m;
                c->mode_from_cmdline = true;
        }
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

static void apply(const struct run_options *o, struct udev_device *dev, struct disk_result *d,
                  struct results *res) {
        struct disk_decision *dd = &d->decision;
        const char *was = sched_list_current(&dd->available);
        char readback[256], shown[64];
        struct sched_list now;
        int r;

        r = disk_write_scheduler(dev, dd->target, readback, sizeof(readback));
        if (r < 0 && o->under_udev && (r == -ENOENT || r == -ENODEV)) {
                dd->action = ACTION_SKIPPED;
                dd->reason = REASON_VANISHED;
                log_msg(LOG_DEBUG, "%s: vanished before the write", d->name);
                return;
        }
        if (r < 0)
                snprintf(d->error, sizeof(d->error), "cannot write '%s' to '%s/queue/scheduler': %s",
                         dd->target, udev_device_get_syspath(dev), strerror(-r));
        else if (sched_list_parse(readback, &now) < 0 ||
                 !streq(sched_list_current(&now), dd->target)) {
                escape_text(readback, strlen(readback), shown, sizeof(shown));
                snprintf(d->error, sizeof(d->error),
                         "wrote '%s' to '%s/queue/scheduler' but it reads back '%s'", dd->target,
                         udev_device_get_syspath(dev), shown);
        }
        if (d->error[0]) {
                dd->action = ACTION_FAILED;
                log_msg(LOG_ERR, "%s", d->error);
                worsen(res, EXIT_FAILED);
                return;
        }
        dd->action = ACTION_CHANGED;
        dd->available = now;
        log_msg(LOG_INFO, "%s: %s -> %s", d->name, was ? was : "?", dd->target);
}

static void handle_device(const struct run_options *o, struct udev *udev, const struct config *c,
                          struct machine *m, struct udev_device *dev, struct results *res) {
        struct disk_result *d = add_result(res);
        bool full = wants_all_facts(o);
        struct disk_facts df;

        if (!d) {
                log_msg(LOG_ERR, "cannot allocate memory");
                worsen(res, EXIT_FAILED);
                return;
        }
        disk_gather(dev, &df, o->under_udev);
        copy_string(d->name, df.name ? df.name : "", sizeof(d->name));
        policy_decide(c, verdict_so_far(m), &df, &d->decision);
        /* The dear facts (DMI, the walk up to VMBus) only matter where a write is due, or where
         * a report names the reason: at boot most disks already run none. */
        if (c->mode == MODE_AUTO && (full || d->decision.action == ACTION_WOULD_CHANGE)) {
                settle(m, udev, full);
                /* Not a guest: not-hyperv outranks not-vmbus, the walk would change nothing. */
                if (policy_machine_allows(c->mode, m->verdict.verdict))
                        df.on_vmbus = disk_on_vmbus(dev);
                policy_decide(c, m->verdict.verdict, &df, &d->decision);
        }
        if (full)
                d->hw_queues = disk_hw_queues(dev);
        if (d->decision.action == ACTION_WOULD_CHANGE && !o->dry_run)
                apply(o, dev, d, res);
        else if (d->decision.action == ACTION_SKIPPED)
                log_msg(LOG_DEBUG, "%s: left alone (%s)", d->name,
                        reason_name(d->decision.reason));
}

static void handle_named(const struct run_options *o, struct udev *udev, const struct config *c,
                         struct machine *m, const char *arg, enum devname_kind kind,
                         struct results *res) {
        struct udev_device *dev;
        int r = disk_open(udev, arg, kind, &dev);

        if (r == 0) {
                handle_device(o, udev, c, m, dev, res);
                udev_device_unref(dev);
                return;
        }
        /* Under udev a disk that went away before its event was handled is no failure. */
        if (r == -ENODEV && o->under_udev) {
                log_msg(LOG_DEBUG, "%s: vanished before it could be looked up", arg);
                return;
        }
        log_msg(LOG_ERR, "cannot find block device '%s': %s", arg,
                r == -ENOTBLK ? "not a block device" : strerror(-r));
        worsen(res, EXIT_USAGE);
}

static void handle_all(const struct run_options *o, struct udev *udev, const struct config *c,
                       struct machine *m, struct results *res) {
        struct udev_enumerate *e = udev_enumerate_new(udev);
        struct udev_list_entry *item;

        if (!e || udev_enumerate_add_match_subsystem(e, "block") < 0 ||
            udev_enumerate_add_match_property(e, "DEVTYPE", "disk") < 0 ||
            udev_enumerate_scan_devices(e) < 0) {
                log_msg(LOG_ERR, "cannot enumerate block devices: %s", strerror(errno));
                worsen(res, EXIT_FAILED);
                udev_enumerate_unref(e);
                return;
        }
        udev_list_entry_foreach(item, udev_enumerate_get_list_entry(e)) {
                struct udev_device *dev =
                        udev_device_new_from_syspath(udev, udev_list_entry_get_name(item));

                if (!dev)
                        continue;
                handle_device(o, udev, c, m, dev, res);
                udev_device_unref(dev);
        }
        udev_enumerate_unref(e);
}

static int by_name(const void *a, const void *b) {
        return strverscmp(((const struct disk_result *) a)->name,
                          ((const struct disk_result *) b)->name);
}

enum exit_status run(const struct run_options *o) {
        bool report = o->dry_run || o->json;
        bool full = wants_all_facts(o);
        struct results res = { 0 };
        struct machine m = { 0 };
        struct config c;
        struct udev *udev;

        /* Every name is checked before anything is read or written. */
        for (size_t i = 0; i < o->n_devices; i++) {
                enum devname_kind kind;
                const char *why;
                char shown[96];

                if (devname_check(o->devices[i], &kind, &why) < 0) {
                        escape_text(o->devices[i], strlen(o->devices[i]), shown, sizeof(shown));
                        log_msg(LOG_ERR, "invalid device name '%s': %s", shown, why);
                        return EXIT_USAGE;
                }
        }

        load_config(o, &c);
        if (o->under_udev && c.mode == MODE_OFF && !report) {
                log_msg(LOG_DEBUG, "mode off: nothing to do");
                return EXIT_OK;
        }
        udev = udev_new();
        if (!udev) {
                log_msg(LOG_ERR, "cannot create udev context: %s", strerror(errno));
                return EXIT_FAILED;
        }
        facts_gather_cpuid(&m.facts);
        if (full) {
                settle(&m, udev, true);
        } else if (!verdict_needs_dmi(&m.facts)) {
                verdict_decide(&m.facts, &m.verdict);
                m.settled = true;
        }
        /* The common case at boot on other machines: CPUID settles it, nothing below is needed.
         * A person who names a device still learns whether it exists. */
        if (o->under_udev && !report && m.settled &&
            !policy_machine_allows(c.mode, m.verdict.verdict)) {
                log_msg(LOG_DEBUG, "%s: %s, nothing to do", verdict_name(m.verdict.verdict),
                        m.verdict.n_evidence ? m.verdict.evidence[m.verdict.n_evidence - 1]
                                             : "no evidence");
                udev_unref(udev);
                return EXIT_OK;
        }

        if (o->n_devices == 0)
                handle_all(o, udev, &c, &m, &res);
        for (size_t i = 0; i < o->n_devices; i++) {
                enum devname_kind kind;
                const char *why;

                devname_check(o->devices[i], &kind, &why);
                handle_named(o, udev, &c, &m, o->devices[i], kind, &res);
        }

        if (report) {
                struct report r = {
                        .verdict = &m.verdict,
                        .config = &c,
                        .config_path = o->config_path,
                        .disks = res.disks,
                        .n_disks = res.n,
                };

                if (o->n_devices == 0)
                        qsort(res.disks, res.n, sizeof(res.disks[0]), by_name);
                if (o->json)
                        report_json(stdout, &r);
                else
                        report_text(stdout, &r);
        }
        free(res.disks);
        udev_unref(udev);
        return res.status;
}
