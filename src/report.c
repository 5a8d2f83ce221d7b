#include "report.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "json.h"
#include "util.h"

static const char *const action_names[] = {
        [ACTION_CHANGED] = "changed",
        [ACTION_WOULD_CHANGE] = "would-change",
        [ACTION_ALREADY] = "already",
        [ACTION_SKIPPED] = "skipped",
        [ACTION_FAILED] = "failed",
};

const char *action_name(enum action a) {
        return action_names[a];
}

enum action result_action(const struct disk_result *d) {
        if (d->written)
                switch (d->outcome.result) {
                case WRITE_CHANGED:
                        return ACTION_CHANGED;
                case WRITE_VANISHED:
                        return ACTION_SKIPPED;
                case WRITE_FAILED:
                case WRITE_NOT_KEPT:
                        return ACTION_FAILED;
                }
        switch (d->decision.decision) {
        case DECISION_SKIP:
                return ACTION_SKIPPED;
        case DECISION_ALREADY:
                return ACTION_ALREADY;
        case DECISION_CHANGE:
                break;
        }
        return ACTION_WOULD_CHANGE;
}

const char *result_reason(const struct disk_result *d) {
        if (d->written)
                return d->outcome.result == WRITE_VANISHED ? "vanished" : NULL;
        return reason_name(d->decision.reason);
}

/* What the disk offers now: after a change, what was read back. */
static const struct sched_list *shown_list(const struct disk_result *d) {
        return d->written && d->outcome.result == WRITE_CHANGED ? &d->outcome.now
                                                                 : &d->decision.available;
}

void report_change_line(char *buf, size_t size, const struct disk_result *d) {
        const char *was = sched_list_current(&d->decision.available);

        snprintf(buf, size, "%s: %s -> %s", d->name, was ? was : "?",
                 sched_list_current(&d->outcome.now));
}

bool report_check_fails(char *buf, size_t size, const struct disk_result *d) {
        const char *now = sched_list_current(shown_list(d));

        buf[0] = '\0';
        if (d->rule_skips)
                return false;
        if (d->decision.problem)
                snprintf(buf, size, "%s: %s", d->name, d->decision.problem);
        else if (d->decision.reason == REASON_UNREADABLE)
                snprintf(buf, size, "%s: %s", d->name, d->error);
        else if (result_action(d) == ACTION_WOULD_CHANGE)
                snprintf(buf, size, "%s: on %s, wants %s", d->name, now ? now : "?",
                         d->decision.target);
        else
                return false;
        return true;
}

/* "cannot VERB 'SYSPATH/ATTR'TAIL" in size bytes, SYSPATH escaped (a directory name may hold
 * a newline): a syspath too long loses its middle, never ATTR or TAIL, the parts that
 * explain. */
static void attr_message(char *buf, size_t size, const char *verb, const char *path,
                         const char *attr, const char *tail) {
        char file[32], syspath[4 * PATH_MAX + 1];
        size_t fixed, len;

        snprintf(file, sizeof(file), "/%s", attr);
        escape_text(path, strlen(path), syspath, sizeof(syspath));
        fixed = strlen("cannot ") + strlen(verb) + strlen(" ''") + strlen(file) + strlen(tail) + 1;
        len = strlen(syspath);

        if (fixed + len <= size || fixed + 16 > size) {
                snprintf(buf, size, "cannot %s '%s%s'%s", verb, syspath, file, tail);
                return;
        }
        /* Keep both ends: /sys/devices/... names the bus, the end names the disk. */
        size_t keep = size - fixed - 3, head = keep / 2, rest = keep - head;

        snprintf(buf, size, "cannot %s '%.*s...%s%s'%s", verb, (int) head, syspath,
                 syspath + len - rest, file, tail);
}

void report_write_error(char *buf, size_t size, const char *syspath, const char *target,
                        const struct write_outcome *o) {
        char tail[160];

        switch (o->result) {
        case WRITE_FAILED:
        case WRITE_VANISHED:
                snprintf(tail, sizeof(tail), ": %s", strerror(-o->error));
                attr_message(buf, size, "write", syspath, "queue/scheduler", tail);
                break;
        case WRITE_NOT_KEPT:
                if (o->error) {
                        snprintf(tail, sizeof(tail), ": %s", read_error_text(o->error, o->type));
                        attr_message(buf, size, "read back", syspath, "queue/scheduler", tail);
                } else {
                        snprintf(tail, sizeof(tail), ": wrote '%s', it reads back '%s'", target,
                                 o->readback);
                        attr_message(buf, size, "set", syspath, "queue/scheduler", tail);
                }
                break;
        case WRITE_CHANGED:
                buf[0] = '\0';
                break;
        }
}

void report_read_error(char *buf, size_t size, const char *syspath, const char *attr, int error,
                       unsigned type) {
        char tail[160];

        snprintf(tail, sizeof(tail), ": %s", read_error_text(error, type));
        attr_message(buf, size, "read", syspath, attr, tail);
}

void report_name_error(char *buf, size_t size, const char *arg, const char *why) {
        char shown[96];

        escape_text(arg, strlen(arg), shown, sizeof(shown));
        snprintf(buf, size, "cannot use '%s': %s", shown, why);
}

void report_lookup_error(char *buf, size_t size, const char *arg, int error) {
        char shown[96];

        escape_text(arg, strlen(arg), shown, sizeof(shown));
        snprintf(buf, size, "cannot find '%s': %s", shown,
                 error == -ENOTBLK ? "not a block device" : strerror(-error));
}

void report_enumerate_error(char *buf, size_t size, int error) {
        snprintf(buf, size, "cannot enumerate '/sys/class/block': %s", strerror(-error));
}

static const struct {
        unsigned flag;
        const char *json, *text;
} flavours[] = {
        { FLAVOUR_NESTED, "nested", "nested" },
        { FLAVOUR_CONFIDENTIAL, "confidential", "confidential" },
        { FLAVOUR_L1VH, "l1vh", "L1VH" },
        { FLAVOUR_AZURE, "azure", "Azure" },
        { FLAVOUR_WSL2, "wsl2", "WSL2" },
        { FLAVOUR_GEN1, "gen1", "Gen 1" },
        { FLAVOUR_GEN2, "gen2", "Gen 2" },
};

static void flavour_list(FILE *f, const struct machine_verdict *v) {
        const char *sep = " (";

        for (size_t i = 0; i < ELEMENTSOF(flavours); i++)
                if (v->flavour & flavours[i].flag) {
                        fprintf(f, "%s%s", sep, flavours[i].text);
                        sep = ", ";
                        if (flavours[i].flag == FLAVOUR_CONFIDENTIAL && v->isolation >= 0 &&
                            isolation_name(v->isolation))
                                fprintf(f, " %s%s", isolation_name(v->isolation),
                                        v->paravisor > 0 ? " with a paravisor" : "");
                }
        if (v->flavour)
                fputc(')', f);
}

static void headline(FILE *f, const struct machine_verdict *v) {
        switch (v->verdict) {
        case VERDICT_HYPERV_GUEST:
                fputs("Hyper-V guest", f);
                flavour_list(f, v);
                break;
        case VERDICT_HYPERV_ROOT:
                if (v->flavour & FLAVOUR_NESTED)
                        fputs("Hyper-V root partition (nested): its VMBus disks are the outer "
                              "Hyper-V's", f);
                else
                        fputs("Hyper-V root partition (the host): its disks are left alone", f);
                break;
        case VERDICT_OTHER_HYPERVISOR:
                fprintf(f, "Not Hyper-V: another hypervisor (%s)",
                        v->hypervisor ? v->hypervisor : "unknown");
                break;
        case VERDICT_BARE_METAL:
                fputs("Not Hyper-V: bare metal", f);
                break;
        case VERDICT_UNKNOWN:
                fputs("Not Hyper-V: no sign of it", f);
                break;
        }
        fputs(":\n", f);
        for (unsigned i = 0; i < v->n_evidence; i++)
                fprintf(f, "  %s\n", v->evidence[i]);
}

void report_queue_why(const struct queue_facts *q, char *buf, size_t size) {
        const char *why[3];
        size_t n = 0, len = 0;

        buf[0] = '\0';
        if (!q->storvsc)
                return;
        if (q->ide)
                why[n++] = "an IDE controller (Generation 1)";
        if (q->present_cpus == 1)
                why[n++] = "one present CPU";
        if (q->max_hw_queues == 1)
                why[n++] = "hv_storvsc.storvsc_max_hw_queues=1";
        for (size_t i = 0; i < n && len < size; i++) {
                int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", why[i]);

                if (w < 0)
                        break;
                len += (size_t) w;
        }
}

int report_linux_version(const char *release) {
        unsigned part[2] = { 0, 0 };
        const char *p = release;

        for (int i = 0; i < 2; i++) {
                if (*p < '0' || *p > '9')
                        return -1;
                while (*p >= '0' && *p <= '9' && part[i] < 1000)
                        part[i] = part[i] * 10 + (unsigned) (*p++ - '0');
                if (part[i] >= 1000 || (i == 0 && *p++ != '.'))
                        return -1;
        }
        return (int) (part[0] * 1000 + part[1]);
}

/* Linux 5.4 to 6.9 start a zoned disk whose driver requires ELEVATOR_F_ZBD_SEQ_WRITE on the
 * first scheduler providing it, mq-deadline, whatever its queues, and on none where mq-deadline
 * is not registered: elevator_init_mq() and elevator_get_by_features() of Linux 6.1.192
 * (block/elevator.c, lines 636-695), from 68c43f133a75 ("block: Introduce elevator features",
 * 5.4). SCSI's sd_zbc.c asks for it (line 954), so storvsc's zoned disks do; NVMe's zns.c never
 * did. Linux 6.10 removed it with zone write plugging (e4eb37cc0f3e, "block: Remove elevator
 * required features"): from there, and before 5.4, a zoned disk starts as any disk does. */
static bool zoned_starts_on_deadline(const struct disk_result *d, int linux_version) {
        return d->zoned && linux_version >= 5004 && linux_version < 6010 &&
               strncmp(d->name, "nvme", 4) != 0;
}

/* elevator_get_default() of Linux 6.12.118 (block/elevator.c): mq-deadline for a queue with one
 * hardware queue, or whose queues share one tag set (storvsc's do not), and only where
 * mq-deadline is registered: elevator_find_get() loads no module. A list without "none" is the
 * legacy block layer's, where none of this applies; the devices the rule skips are left out,
 * as their drivers may ask for no scheduler at all (loop: BLK_MQ_F_NO_SCHED_BY_DEFAULT). */
const char *report_kernel_default(const struct disk_result *d, int linux_version, char *why,
                                  size_t size) {
        const struct sched_list *l = &d->decision.available;
        bool deadline = sched_list_find(l, "mq-deadline") >= 0;

        why[0] = '\0';
        if (d->rule_skips || sched_list_find(l, "none") < 0)
                return NULL;
        if (zoned_starts_on_deadline(d, linux_version)) {
                if (!deadline) {
                        snprintf(why, size, "zoned, on Linux 5.4 to 6.9, but no mq-deadline "
                                            "offered (a module not loaded): the kernel starts "
                                            "it on none");
                        return "none";
                }
                snprintf(why, size, "zoned, on Linux 5.4 to 6.9: the kernel starts it on "
                                    "mq-deadline, whatever its queues");
                return "mq-deadline";
        }
        /* A zoned disk on a kernel whose release is unknown: either may be true. */
        if (d->hw_queues <= 0 || (d->zoned && linux_version < 0))
                return NULL;
        if (d->hw_queues == 1 && deadline) {
                snprintf(why, size, "1 hardware queue: the kernel starts it on mq-deadline");
                return "mq-deadline";
        }
        if (d->hw_queues == 1)
                snprintf(why, size, "1 hardware queue, but no mq-deadline offered (a module not "
                                    "loaded): the kernel starts it on none");
        else if (deadline)
                snprintf(why, size, "%d hardware queues: the kernel starts it on none "
                                    "(mq-deadline if they share one tag set)", d->hw_queues);
        else
                snprintf(why, size, "%d hardware queues: the kernel starts it on none",
                         d->hw_queues);
        return "none";
}

/* Why the policy leaves a zoned disk alone, true of every kernel: before Linux 6.10 only
 * mq-deadline kept a zoned disk's writes in order (the kernel required it); from 6.10 zone
 * write plugging (block/blk-zoned.c) orders them under any scheduler. */
static const char *const zoned_why =
        "zoned: left alone; before Linux 6.10 only mq-deadline kept its writes in order, from "
        "6.10 the block layer's zone write plugging does, whatever the scheduler";

/* The notes a report ends with: what the kernel ignores, and where the rule never runs. */
static const char *const note_elevator =
        "elevator= on the kernel command line does nothing since Linux 5.0 (the kernel only warns): "
        "this package sets the scheduler, and hyperv_scheduler= on the command line sets its mode";
static const char *const note_no_udev =
        "no udev daemon is running (no " UDEV_CONTROL "): the rule never runs here; run "
        "hyperv-scheduler --all at boot instead (hyperv-scheduler(8))";

static size_t report_notes(const struct report *r, const char *notes[2]) {
        size_t n = 0;

        if (r->config->cmdline_elevator)
                notes[n++] = note_elevator;
        if (r->udev_checked && !r->udev_running)
                notes[n++] = note_no_udev;
        return n;
}

static bool hidden(const struct report *r, const struct disk_result *d) {
        return r->hide_rule_skipped && d->rule_skips;
}

/* "203 loop, zram devices not shown (-v shows them)": each kind once, in the order met. */
static void hidden_line(FILE *f, const struct report *r) {
        const char *kinds[32];
        size_t n_kinds = 0, count = 0;

        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                size_t k = 0;

                if (!hidden(r, d))
                        continue;
                count++;
                while (k < n_kinds && !streq(kinds[k], d->rule_skips))
                        k++;
                if (k == n_kinds && n_kinds < ELEMENTSOF(kinds))
                        kinds[n_kinds++] = d->rule_skips;
        }
        if (!count)
                return;
        fprintf(f, "\n%zu ", count);
        for (size_t k = 0; k < n_kinds; k++)
                fprintf(f, "%s%s", k ? ", " : "", kinds[k]);
        fprintf(f, " device%s not shown (-v shows them)\n", count == 1 ? "" : "s");
}

static const char *or_dash(const char *s) {
        return s && *s ? s : "-";
}

/* Who made a recorded change, for the text report. */
static const char *by_text(const char *by) {
        if (streq(by, "udev"))
                return "the udev rule";
        if (streq(by, "install"))
                return "the package's install";
        return "a run by hand";
}

void report_text(FILE *f, const struct report *r) {
        const struct config *c = r->config;
        int width = (int) strlen("DEVICE");
        char path[CONFIG_PATH_SHOWN];
        bool footer = false;
        const char *notes[2];
        size_t n_notes;

        headline(f, r->verdict);
        fprintf(f, "Policy: mode %s%s, schedulers", mode_name(c->mode),
                c->mode_from_cmdline ? " (kernel command line)" : "");
        for (unsigned i = 0; i < c->schedulers.n; i++)
                fprintf(f, " %s", c->schedulers.name[i]);
        escape_text(r->config_path, strlen(r->config_path), path, sizeof(path));
        fprintf(f, ", config %s%s\n", path,
                c->unreadable ? " (cannot be read: the defaults shown, nothing is changed)"
                : c->found    ? ""
                              : " (not found, defaults)");

        for (size_t i = 0; i < r->n_disks; i++)
                if (!hidden(r, &r->disks[i]) && (int) strlen(r->disks[i].name) > width)
                        width = (int) strlen(r->disks[i].name);
        fprintf(f, "\n%-*s  %-6s  %-12s  %-12s  %-12s  %s\n", width, "DEVICE", "QUEUES", "CURRENT",
                "TARGET", "ACTION", "REASON");
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                char queues[16] = "-";

                if (hidden(r, d))
                        continue;
                if (d->hw_queues >= 0)
                        snprintf(queues, sizeof(queues), "%d", d->hw_queues);
                fprintf(f, "%-*s  %-6s  %-12s  %-12s  %-12s  %s%s\n", width, or_dash(d->name),
                        queues, or_dash(sched_list_current(shown_list(d))),
                        or_dash(d->decision.target), action_name(result_action(d)),
                        d->changed && !result_reason(d) ? "" : or_dash(result_reason(d)),
                        d->changed ? (result_reason(d) ? ", changed" : "changed") : "");
        }
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];

                if (!hidden(r, d) && (d->error[0] || d->decision.problem))
                        fprintf(f, "%s: %s\n", or_dash(d->name),
                                d->error[0] ? d->error : d->decision.problem);
        }
        /* What the kernel starts each disk on, and why, from the disk's own facts (and, for a zoned
         * disk, the kernel's version). */
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                char why[160];
                bool zoned = d->decision.reason == REASON_ZONED;

                if (hidden(r, d) ||
                    (!report_kernel_default(d, r->linux_version, why, sizeof(why)) &&
                     !d->queue_why[0] && !zoned && !d->changed))
                        continue;
                if (!footer)
                        fputc('\n', f);
                footer = true;
                if (why[0])
                        fprintf(f, "%s: %s\n", d->name, why);
                if (d->queue_why[0])
                        fprintf(f, "%s: 1 hardware queue: %s\n", d->name, d->queue_why);
                if (zoned)
                        fprintf(f, "%s: %s\n", d->name, zoned_why);
                if (d->changed) {
                        char at[32];

                        record_time(d->record.at, at, sizeof(at));
                        fprintf(f, "%s: changed %s -> %s at %s by %s\n", d->name,
                                d->record.from, d->record.to, at, by_text(d->record.by));
                }
        }
        hidden_line(f, r);
        n_notes = report_notes(r, notes);
        if (n_notes)
                fputc('\n', f);
        for (size_t i = 0; i < n_notes; i++)
                fprintf(f, "Note: %s.\n", notes[i]);
}

static void json_member(struct json *j, const char *key, const char *value) {
        json_key(j, key);
        json_str(j, value);
}

static void json_names(struct json *j, const char *key, const struct sched_list *l) {
        json_key(j, key);
        json_array_begin(j, false);
        for (unsigned i = 0; i < l->n; i++)
                json_str(j, l->name[i]);
        json_array_end(j);
}

static void json_machine(struct json *j, const struct machine_verdict *v) {
        bool confidential;

        json_object_begin(j);
        json_member(j, "verdict", verdict_name(v->verdict));
        json_member(j, "hypervisor", v->hypervisor);
        json_key(j, "flavour");
        json_array_begin(j, false);
        for (size_t i = 0; i < ELEMENTSOF(flavours); i++)
                if (v->flavour & flavours[i].flag)
                        json_str(j, flavours[i].json);
        json_array_end(j);
        /* A confidential guest's 0x4000000C; null elsewhere, or where it was not read. */
        confidential = (v->flavour & FLAVOUR_CONFIDENTIAL) && v->isolation >= 0;
        json_member(j, "isolation", confidential ? isolation_name(v->isolation) : NULL);
        json_key(j, "paravisor");
        if (confidential && v->paravisor >= 0)
                json_bool(j, v->paravisor);
        else
                json_null(j);
        json_key(j, "evidence");
        json_array_begin(j, false);
        for (unsigned i = 0; i < v->n_evidence; i++)
                json_str(j, v->evidence[i]);
        json_array_end(j);
        json_object_end(j);
}

static void json_policy(struct json *j, const struct report *r) {
        const struct config *c = r->config;

        json_object_begin(j);
        json_member(j, "mode", mode_name(c->mode));
        json_key(j, "mode_from_cmdline");
        json_bool(j, c->mode_from_cmdline);
        json_names(j, "schedulers", &c->schedulers);
        json_member(j, "config", r->config_path);
        json_key(j, "config_found");
        json_bool(j, c->found);
        json_key(j, "config_unreadable");
        json_bool(j, c->unreadable);
        json_object_end(j);
}

static void json_disk(struct json *j, const struct disk_result *d, int linux_version) {
        const struct sched_list *shown = shown_list(d);
        char why[160];

        json_object_begin(j);
        json_member(j, "name", d->name[0] ? d->name : NULL);
        json_member(j, "current", sched_list_current(shown));
        json_names(j, "available", shown);
        json_key(j, "queues");
        if (d->hw_queues >= 0)
                json_int(j, d->hw_queues);
        else
                json_null(j);
        json_member(j, "queues_why", d->queue_why[0] ? d->queue_why : NULL);
        json_member(j, "kernel_default",
                    report_kernel_default(d, linux_version, why, sizeof(why)));
        json_member(j, "rule_skips", d->rule_skips);
        json_member(j, "target", d->decision.target);
        json_member(j, "action", action_name(result_action(d)));
        json_member(j, "reason", result_reason(d));
        json_member(j, "error", d->error[0] ? d->error : d->decision.problem);
        /* What this program changed on it this boot, from its record. */
        json_key(j, "changed");
        if (d->changed) {
                char at[32];

                record_time(d->record.at, at, sizeof(at));
                json_object_begin(j);
                json_member(j, "from", d->record.from);
                json_member(j, "to", d->record.to);
                json_member(j, "at", at);
                json_member(j, "by", d->record.by);
                json_object_end(j);
        } else {
                json_null(j);
        }
        json_object_end(j);
}

static void json_check(struct json *j, const struct report *r) {
        char line[sizeof(r->disks[0].name) + 256];

        json_key(j, "check");
        json_object_begin(j);
        json_key(j, "ok");
        json_bool(j, r->check_ok);
        json_key(j, "failing");
        json_array_begin(j, false);
        for (size_t i = 0; i < r->n_disks; i++)
                if (report_check_fails(line, sizeof(line), &r->disks[i]))
                        json_str(j, r->disks[i].name);
        json_array_end(j);
        json_object_end(j);
}

void report_json(FILE *f, const struct report *r) {
        const char *notes[2];
        size_t n_notes;
        struct json j;

        json_begin(&j, f);
        json_object_begin(&j);
        json_member(&j, "version", VERSION);
        json_key(&j, "schema_version");
        json_int(&j, REPORT_SCHEMA_VERSION);
        json_key(&j, "machine");
        json_machine(&j, r->verdict);
        json_key(&j, "policy");
        json_policy(&j, r);
        json_key(&j, "devices");
        json_array_begin(&j, true);
        for (size_t i = 0; i < r->n_disks; i++)
                json_disk(&j, &r->disks[i], r->linux_version);
        json_array_end(&j);
        json_key(&j, "udev_running");
        if (r->udev_checked)
                json_bool(&j, r->udev_running);
        else
                json_null(&j);
        json_key(&j, "notes");
        json_array_begin(&j, false);
        n_notes = report_notes(r, notes);
        for (size_t i = 0; i < n_notes; i++)
                json_str(&j, notes[i]);
        json_array_end(&j);
        if (r->check)
                json_check(&j, r);
        json_object_end(&j);
        json_end(&j);
}
