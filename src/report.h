/* The report: what was decided for the machine and each disk, and what became of each write, as
 * text or JSON; and the one-line messages about a write. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "devname.h"
#include "policy.h"
#include "record.h"
#include "types.h"
#include "verdict.h"

enum action {
        ACTION_CHANGED,
        ACTION_WOULD_CHANGE,
        ACTION_ALREADY,
        ACTION_SKIPPED,
        ACTION_FAILED,
};

struct disk_result {
        char name[KERNEL_NAME_MAX]; /* kernel name, or "" when the device was not found */
        struct disk_decision decision;
        bool written;                 /* a write was tried: outcome says what became of it */
        struct write_outcome outcome;
        int hw_queues; /* negative when unknown */
        char queue_why[160]; /* a storvsc disk with 1 queue: why, where readable; else "" */
        const char *rule_skips; /* policy_rule_skips(): the rule never runs for it; or NULL */
        bool zoned;             /* queue/zoned reads other than "none" */
        char error[320];
        bool changed;         /* this program changed it this boot: record says how */
        struct record record;
};

struct report {
        const struct machine_verdict *verdict;
        const struct config *config;
        const char *config_path;
        const struct disk_result *disks;
        size_t n_disks;
        int linux_version;      /* the running kernel's, as report_linux_version(); -1 unknown */
        bool hide_rule_skipped; /* text: leave out the disks the rule never runs for, count them */
        bool udev_checked;      /* udev_running was looked at (--dry-run) */
        bool udev_running;      /* UDEV_CONTROL exists */
        bool check;             /* --check: the JSON report says whether it passed */
        bool check_ok;          /* nothing failed it (hyperv-scheduler(8), --check) */
};

/* The JSON report's "schema_version" (report.schema.json): bumped when a key goes or changes
 * meaning, not when one is added. */
#define REPORT_SCHEMA_VERSION 1

/* The control socket both systemd-udevd and eudev listen on while they run. */
#define UDEV_CONTROL "/run/udev/control"

/* Why a storvsc disk has one hardware queue, from what could be read; "" when nothing tells. */
void report_queue_why(const struct queue_facts *q, char *buf, size_t size);

/* A kernel release ("6.1.0-28-cloud-amd64") as MAJOR * 1000 + MINOR (6001); -1 when it does not
 * start with two numbers. */
int report_linux_version(const char *release);

/* The scheduler the kernel starts the disk on, from its queue count and the schedulers its file
 * offers, and for a zoned disk the running kernel's version (linux_version, -1 unknown), with
 * the sentence why; NULL (why "") where those do not tell. */
const char *report_kernel_default(const struct disk_result *d, int linux_version, char *why,
                                  size_t size);

void report_text(FILE *f, const struct report *r);
void report_json(FILE *f, const struct report *r);

/* What the report says of a disk: the decision, or what became of its write. */
enum action result_action(const struct disk_result *d);
/* The reason name for a skipped disk (a policy reason, or "vanished"), else NULL. */
const char *result_reason(const struct disk_result *d);
const char *action_name(enum action a);

/* --check: whether the disk fails it, and if so the line that says why in buf: a disk the rule
 * acts on (rule_skips NULL) that is not on the target the policy wants ("sda: on mq-deadline,
 * wants none"), whose queue/scheduler is not a list, or that cannot be read (its error). */
bool report_check_fails(char *buf, size_t size, const struct disk_result *d);

/* "sda: mq-deadline -> none", for a disk whose write changed it. */
void report_change_line(char *buf, size_t size, const struct disk_result *d);

/* The messages, each "cannot VERB 'PATH': REASON". A write that failed or was not kept: */
void report_write_error(char *buf, size_t size, const char *syspath, const char *target,
                        const struct write_outcome *o);
/* An attribute of the disk at syspath (queue/scheduler, queue/zoned) that is there but cannot be
 * read (REASON_UNREADABLE): error is a negative errno, type the st_mode of what is no regular
 * file, or 0. */
void report_read_error(char *buf, size_t size, const char *syspath, const char *attr, int error,
                       unsigned type);
/* A device argument that is not a device name (why from devname_check()); shown escaped. */
void report_name_error(char *buf, size_t size, const char *arg, const char *why);
/* A device that cannot be found: error is a negative errno, -ENOTBLK for a path that is not a
 * block device. */
void report_lookup_error(char *buf, size_t size, const char *arg, int error);
/* The list of every disk cannot be read: error is a negative errno. */
void report_enumerate_error(char *buf, size_t size, int error);
