/* Should this disk change, and to what? A pure function of the disk's attributes, the machine
 * verdict and the config. */
#pragma once
#include <stdbool.h>

#include "config.h"
#include "schedlist.h"
#include "verdict.h"

enum action {
        ACTION_CHANGED,
        ACTION_WOULD_CHANGE,
        ACTION_ALREADY,
        ACTION_SKIPPED,
        ACTION_FAILED,
};

enum reason {
        REASON_NONE,
        REASON_DISABLED,
        REASON_NOT_HYPERV,
        REASON_PARTITION,
        REASON_NO_SCHEDULER,
        REASON_NOT_CONFIGURABLE,
        REASON_ZONED,
        REASON_NOT_VMBUS,
        REASON_EXCLUDED,
        REASON_OPTED_OUT,
        REASON_NO_SUITABLE,
        REASON_VANISHED,
};

enum vmbus {
        VMBUS_NO,
        VMBUS_YES,
        VMBUS_UNKNOWN, /* not looked up yet: decided as if on VMBus, asked before a write */
};

struct disk_facts {
        const char *name;      /* kernel name */
        bool is_disk;          /* DEVTYPE=disk */
        const char *scheduler; /* queue/scheduler, NULL when absent */
        const char *zoned;     /* queue/zoned, NULL when absent */
        enum vmbus on_vmbus;   /* an ancestor device is on the vmbus bus */
        bool opted_out;        /* udev property HYPERV_SCHEDULER=skip */
};

struct disk_decision {
        enum action action; /* WOULD_CHANGE, ALREADY or SKIPPED */
        enum reason reason;
        struct sched_list available; /* n == 0 when unknown */
        const char *target;          /* NULL when none */
        const char *problem;         /* why the scheduler list could not be used, or NULL */
};

/* Whether the mode and the machine verdict let any disk change at all: the per-event path
 * stops here on machines that are not Hyper-V guests. */
bool policy_machine_allows(enum mode mode, enum verdict verdict);

void policy_decide(const struct config *c, enum verdict verdict, const struct disk_facts *d,
                   struct disk_decision *out);

const char *action_name(enum action a);
const char *reason_name(enum reason r);
