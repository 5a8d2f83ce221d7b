/* Should this disk change, and to what? Pure functions of the disk's attributes, the config and,
 * last, the machine verdict, so that a disk is decided once and the costly facts (CPUID, DMI, the
 * walk up to VMBus) are gathered only for a disk that would change, or for a report. */
#pragma once
#include <stdbool.h>

#include "config.h"
#include "schedlist.h"
#include "verdict.h"

enum decision {
        DECISION_SKIP,   /* leave it alone: reason says why */
        DECISION_ALREADY,
        DECISION_CHANGE, /* write target */
};

/* In the order they are checked; hyperv-scheduler(8) lists them so. */
enum reason {
        REASON_NONE,
        REASON_DISABLED,
        REASON_PARTITION,
        REASON_NOT_DISK,
        REASON_NO_SCHEDULER,
        REASON_UNREADABLE,
        REASON_ZONED,
        REASON_EXCLUDED,
        REASON_OPTED_OUT,
        REASON_NO_SUITABLE,
        REASON_NOT_HYPERV,
        REASON_NOT_VMBUS,
};

struct disk_facts {
        const char *name;        /* kernel name */
        bool is_disk;            /* DEVTYPE=disk */
        bool other_devtype;      /* the event's DEVTYPE is neither disk nor partition */
        const char *scheduler;   /* queue/scheduler, NULL when absent or unreadable */
        int scheduler_error;     /* negative errno when it is there but cannot be read, else 0 */
        unsigned scheduler_type; /* then the st_mode of what is no regular file, else 0 */
        const char *zoned;       /* queue/zoned, NULL when absent or unreadable */
        int zoned_error;         /* as scheduler_error, for queue/zoned */
        unsigned zoned_type;     /* as scheduler_type, for queue/zoned */
        bool opted_out;          /* udev property HYPERV_SCHEDULER=skip */
};

struct disk_decision {
        enum decision decision;
        enum reason reason;          /* REASON_NONE unless DECISION_SKIP */
        struct sched_list available; /* n == 0 when unknown */
        const char *target;          /* points into the config; NULL when none */
        const char *problem;         /* why the scheduler list could not be used, or NULL */
};

/* The disk-local stage: everything but the machine. */
void policy_disk(const struct config *c, const struct disk_facts *d, struct disk_decision *out);

/* Whether the machine stage can still skip the disk: in mode auto, for a disk not skipped yet.
 * The caller asks it for a disk that would change, and for every disk of a report. */
bool policy_needs_machine(const struct config *c, const struct disk_decision *d);

/* The machine stage: a disk is changed only where VMBus disks are another Hyper-V's synthetic
 * disks (a guest, or a nested root: verdict_vmbus_disks_are_synthetic()), and only when VMBus
 * provides it. on_vmbus counts only there: elsewhere the caller passes false without the walk. */
void policy_machine(const struct machine_verdict *v, bool on_vmbus, struct disk_decision *d);

const char *reason_name(enum reason r);

/* The rule's KERNEL== list of devices that never come from Hyper-V, in its order: the rule
 * starts no helper for them. A unit test proves that rules/60-hyperv-scheduler.rules and this
 * list agree. */
extern const char *const rule_kernel_skip[];
extern const size_t n_rule_kernel_skip;

/* Why the rule never starts the helper for this whole disk: the kind of name on its KERNEL list
 * ("loop", "zram", ...), "bio-based" for a disk without queue/scheduler (not one whose file
 * cannot be read: the rule's TEST finds that); NULL when it does. The report leaves those out
 * unless asked. */
const char *policy_rule_skips(const struct disk_facts *d);
