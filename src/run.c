#include "run.h"

#include <errno.h>
#include <libudev.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "devname.h"
#include "disk.h"
#include "facts.h"
#include "report.h"
#include "util.h"

/* /proc/cmdline: COMMAND_LINE_SIZE is 2048 bytes on x86 and arm64, but bootconfig appends
 * its parameters, rendered from up to 32 KiB of data (XBC_DATA_MAX) with each key's whole path.
 * What fits on the stack is read there; a longer one is read again up to CMDLINE_MAX. */
#define CMDLINE_SMALL 8192
#define CMDLINE_MAX   (1024 * 1024)

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

static const struct machine_verdict *machine_verdict(struct machine *m, struct udev *udev,
                                                     bool full) {
        if (!m->settled) {
                facts_gather(&m->facts, udev, full);
                verdict_decide(&m->facts, &m->verdict);
                m->settled = true;
        }
        return &m->verdict;
}

/* A report, or --verbose, names every disk's reason: it needs every fact. */
static bool wants_all_facts(const struct run_options *o) {
        return o->dry_run || o->json || o->verbosity == VERBOSITY_DEBUG;
}

/* Warnings about the config and the kernel command line. Under udev they are held and logged
 * only with an event that changes its disk, or that an unreadable config keeps from changing:
 * a line for every disk at every boot, where nothing happens, would be noise. */
static struct {
        struct held {
                int priority;
                char *msg;
        } *held;
        size_t n;
        bool hold, shown;
} warnings;

__attribute__((format(printf, 2, 3)))
static void warning(int priority, const char *fmt, ...) {
        char msg[CONFIG_PATH_SHOWN + 512];
        struct held *h;
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        if (!warnings.hold) {
                log_msg(priority, "%s", msg);
                return;
        }
        /* Without memory a warning is lost, never the run. */
        h = realloc(warnings.held, (warnings.n + 1) * sizeof(*h));
        if (!h)
                return;
        warnings.held = h;
        h[warnings.n].priority = priority;
        if ((h[warnings.n].msg = strdup(msg)))
                warnings.n++;
}

static void show_warnings(void) {
        if (warnings.shown)
                return;
        warnings.shown = true;
        for (size_t i = 0; i < warnings.n; i++)
                log_msg(warnings.held[i].priority, "%s", warnings.held[i].msg);
}

static void free_warnings(void) {
        for (size_t i = 0; i < warnings.n; i++)
                free(warnings.held[i].msg);
        free(warnings.held);
}

static void warn_config(void *userdata, const char *path, unsigned line, const char *msg) {
        char shown[CONFIG_PATH_SHOWN];

        (void) userdata;
        escape_text(path, strlen(path), shown, sizeof(shown));
        if (line)
                warning(LOG_WARNING, "%s:%u: %s", shown, line, msg);
        else
                warning(LOG_ERR, "%s, nothing is changed", msg);
}

/* The kernel command line, whole up to CMDLINE_MAX; NULL when there is none. *cut is set when
 * it is longer: then it ends before the parameter the bound split. */
static char *read_cmdline(char *small, size_t size, char **big, bool *cut) {
        long len = read_file_bounded("/proc/cmdline", small, size);

        *cut = false;
        if (len >= 0)
                return small;
        if (len != -EFBIG || !(*big = malloc(CMDLINE_MAX + 1)))
                return NULL;
        len = read_file_bounded("/proc/cmdline", *big, CMDLINE_MAX + 1);
        if (len == -EFBIG) {
                *cut = true;
                (*big)[strcspn(*big, "\n")] = '\0';
                for (char *p = *big + strlen(*big); p > *big && !strchr(" \t\n\v\f\r\xa0", p[-1]);)
                        *--p = '\0';
        } else if (len < 0) {
                return NULL;
        }
        return *big;
}

static void load_config(const struct run_options *o, bool report, struct config *c) {
        char small[CMDLINE_SMALL], *big = NULL, *cmdline, shown[CONFIG_PATH_SHOWN];
        bool cut;
        enum mode m;
        int r;

        config_load(c, o->config_path, warn_config, NULL);
        if (!c->found && o->config_named) {
                escape_text(o->config_path, strlen(o->config_path), shown, sizeof(shown));
                warning(LOG_WARNING, "cannot open '%s': %s, defaults apply", shown,
                        strerror(ENOENT));
        }
        cmdline = read_cmdline(small, sizeof(small), &big, &cut);
        if (!cmdline)
                return;
        if (cut)
                warning(LOG_WARNING, "cannot read all of '/proc/cmdline': longer than 1 MiB, "
                                     "only the parameters in its first 1 MiB count");
        /* Only a report notes elevator=: no second pass over the command line per event. */
        if (report)
                c->cmdline_elevator = cmdline_has_elevator(cmdline);
        r = cmdline_mode(cmdline, &m);
        if (r < 0)
                warning(LOG_WARNING, "cannot use '/proc/cmdline': the last hyperv_scheduler= "
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

static void write_disk(const struct run_options *o, struct udev_device *dev, struct disk_result *d,
                       struct results *res) {
        struct write_outcome *out = &d->outcome;
        char line[128];

        disk_write_scheduler(dev, d->decision.target, out);
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
                report_write_error(d->error, sizeof(d->error), udev_device_get_syspath(dev),
                                   d->decision.target, out);
                log_msg(LOG_ERR, "%s", d->error);
                worsen(res, EXIT_FAILED);
                return;
        }
        report_change_line(line, sizeof(line), d);
        log_msg(LOG_INFO, "%s", line);
}

/* Each disk is decided once: the disk-local stage first, then the machine (CPUID, DMI, the walk
 * to VMBus) only where a write is due or a report names every reason. */
static void handle_device(const struct run_options *o, struct udev *udev, const struct config *c,
                          struct machine *m, struct udev_device *dev, struct results *res) {
        struct disk_result *d = add_result(res);
        bool full = wants_all_facts(o);
        struct disk_decision *dd;
        struct disk_facts df;

        if (!d) {
                log_msg(LOG_ERR, "cannot allocate memory");
                worsen(res, EXIT_FAILED);
                return;
        }
        dd = &d->decision;
        /* The event's environment describes the event's device, no other. */
        disk_gather(dev, &df, o->event_syspath && streq(udev_device_get_syspath(dev),
                                                        o->event_syspath));
        copy_string(d->name, df.name ? df.name : "", sizeof(d->name));
        policy_disk(c, &df, dd);
        if (policy_needs_machine(c, dd) && (full || dd->decision == DECISION_CHANGE)) {
                const struct machine_verdict *v = machine_verdict(m, udev, full);

                policy_machine(v, verdict_vmbus_disks_are_synthetic(v) && disk_on_vmbus(dev), dd);
        }
        if (full) {
                d->hw_queues = disk_hw_queues(dev);
                d->rule_skips = policy_rule_skips(&df);
                if (d->hw_queues == 1) {
                        struct queue_facts q;

                        disk_queue_facts(dev, &q);
                        report_queue_why(&q, d->queue_why, sizeof(d->queue_why));
                }
        }
        if (dd->decision == DECISION_CHANGE && !o->dry_run) {
                /* What was held back under udev now matters: this disk would change. */
                show_warnings();
                if (c->unreadable)
                        worsen(res, EXIT_FAILED);
                else
                        write_disk(o, dev, d, res);
        } else if (dd->decision == DECISION_SKIP)
                log_msg(LOG_DEBUG, "%s: left alone (%s)", d->name, reason_name(dd->reason));
        else if (dd->decision == DECISION_ALREADY)
                log_msg(LOG_DEBUG, "%s: already on %s", d->name, dd->target);
}

static void handle_named(const struct run_options *o, struct udev *udev, const struct config *c,
                         struct machine *m, const char *arg, enum devname_kind kind,
                         struct results *res) {
        const char *base = o->event_syspath ? strrchr(o->event_syspath, '/') : NULL;
        struct udev_device *dev;
        char msg[160];
        int r;

        /* The event's own disk: udev gave its syspath, no lookup by name is needed. A DEVPATH
         * that names nothing is no proof that the disk is gone: then the name decides. */
        r = -ENODEV;
        if (kind == DEVNAME_KERNEL && base && streq(base + 1, arg)) {
                r = disk_open_event(udev, o->event_syspath, &dev);
                if (r == -ENOTBLK)
                        arg = o->event_syspath;
        }
        if (r == -ENODEV)
                r = disk_open(udev, arg, kind, &dev);

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
        report_lookup_error(msg, sizeof(msg), arg, -r);
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

                report_enumerate_error(msg, sizeof(msg), -r);
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
                handle_device(o, udev, c, m, dev, res);
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
 * fails half-way loses the errno. Returns 0, or -1 after logging why. */
static int print_report(bool json, const struct report *r) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        int ret;

        if (!f) {
                log_msg(LOG_ERR, "cannot write the report: %s", strerror(errno));
                return -1;
        }
        if (json)
                report_json(f, r);
        else
                report_text(f, r);
        if (fclose(f) != 0) {
                log_msg(LOG_ERR, "cannot write the report: %s", strerror(errno));
                ret = -1;
        } else {
                ret = log_write_stdout(text, len);
        }
        free(text);
        return ret;
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
                char msg[256];

                if (devname_check(o->devices[i], &kind, &why) < 0) {
                        report_name_error(msg, sizeof(msg), o->devices[i], why);
                        log_msg(LOG_ERR, "%s", msg);
                        return EXIT_USAGE;
                }
        }

        warnings.hold = o->under_udev && !o->dry_run;
        load_config(o, report, &c);
        if (c.unreadable && !warnings.hold)
                worsen(&res, EXIT_FAILED);
        /* Without a report to show, there is nothing left to do. */
        if (c.unreadable && !report && !o->under_udev) {
                free_warnings();
                return res.status;
        }
        if (o->under_udev && c.mode == MODE_OFF && !report) {
                log_msg(LOG_DEBUG, "mode off: nothing to do");
                free_warnings();
                return EXIT_OK;
        }
        udev = udev_new();
        if (!udev) {
                log_msg(LOG_ERR, "cannot create udev context: %s", strerror(errno));
                free_warnings();
                return EXIT_FAILED;
        }
        /* The headline of a report names the machine, whatever the disks need. */
        if (report)
                machine_verdict(&m, udev, full);

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
                        /* Named disks are always shown; -v and JSON show every one. */
                        .hide_rule_skipped = o->n_devices == 0 && o->verbosity != VERBOSITY_DEBUG,
                        .udev_checked = o->dry_run,
                        .udev_running = udev_running(),
                };

                /* qsort's array must not be NULL, even for no element. */
                if (o->n_devices == 0 && res.n > 0)
                        qsort(res.disks, res.n, sizeof(res.disks[0]), by_name);
                if (print_report(o->json, &r) < 0)
                        worsen(&res, EXIT_FAILED);
        }
        free(res.disks);
        udev_unref(udev);
        free_warnings();
        return res.status;
}
