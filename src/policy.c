#include "policy.h"

#include <string.h>

#include "util.h"

static const char *const action_names[] = {
        [ACTION_CHANGED] = "changed",
        [ACTION_WOULD_CHANGE] = "would-change",
        [ACTION_ALREADY] = "already",
        [ACTION_SKIPPED] = "skipped",
        [ACTION_FAILED] = "failed",
};

static const char *const reason_names[] = {
        [REASON_NONE] = NULL,
        [REASON_DISABLED] = "disabled",
        [REASON_NOT_HYPERV] = "not-hyperv",
        [REASON_PARTITION] = "partition",
        [REASON_NO_SCHEDULER] = "no-scheduler",
        [REASON_NOT_CONFIGURABLE] = "not-configurable",
        [REASON_ZONED] = "zoned",
        [REASON_NOT_VMBUS] = "not-vmbus",
        [REASON_EXCLUDED] = "excluded",
        [REASON_OPTED_OUT] = "opted-out",
        [REASON_NO_SUITABLE] = "no-suitable-scheduler",
        [REASON_VANISHED] = "vanished",
};

const char *action_name(enum action a) {
        return action_names[a];
}

const char *reason_name(enum reason r) {
        return reason_names[r];
}

bool policy_machine_allows(enum mode mode, enum verdict verdict) {
        return mode == MODE_ALWAYS || (mode == MODE_AUTO && verdict == VERDICT_HYPERV_GUEST);
}

static enum reason decide(const struct config *c, enum verdict verdict, const struct disk_facts *d,
                          struct disk_decision *out) {
        struct sched_list *avail = &out->available;
        /* Parsed first so that the report shows the current scheduler whatever the reason. */
        int parsed = d->scheduler ? sched_list_parse(d->scheduler, avail) : -1;

        if (parsed < 0) {
                avail->n = 0;
                avail->current = -1;
        }
        if (c->mode == MODE_OFF)
                return REASON_DISABLED;
        if (!policy_machine_allows(c->mode, verdict))
                return REASON_NOT_HYPERV;
        /* A partition's requests are scheduled by its disk's queue. */
        if (!d->is_disk)
                return REASON_PARTITION;
        if (!d->scheduler)
                return REASON_NO_SCHEDULER;
        if (parsed < 0) {
                out->problem = "queue/scheduler is not a list of scheduler names";
                return REASON_NO_SUITABLE;
        }
        /* A bare "none" is how bio-based devices (dm, md, zram) say there is nothing to pick. */
        if (avail->n == 0 || (avail->n == 1 && streq(avail->name[0], "none")))
                return REASON_NOT_CONFIGURABLE;
        /* Zoned disks need mq-deadline to keep writes in order. */
        if (d->zoned && !streq(d->zoned, "none"))
                return REASON_ZONED;
        if (c->mode == MODE_AUTO && d->on_vmbus == VMBUS_NO)
                return REASON_NOT_VMBUS;
        if (!config_wants(c, d->name))
                return REASON_EXCLUDED;
        if (d->opted_out)
                return REASON_OPTED_OUT;
        for (unsigned i = 0; i < c->schedulers.n && !out->target; i++)
                if (sched_list_find(avail, c->schedulers.name[i]) >= 0)
                        out->target = c->schedulers.name[i];
        if (!out->target)
                return REASON_NO_SUITABLE;
        return REASON_NONE;
}

void policy_decide(const struct config *c, enum verdict verdict, const struct disk_facts *d,
                   struct disk_decision *out) {
        memset(out, 0, sizeof(*out));
        out->reason = decide(c, verdict, d, out);
        if (out->reason != REASON_NONE)
                out->action = ACTION_SKIPPED;
        else if (streq(sched_list_current(&out->available), out->target))
                out->action = ACTION_ALREADY;
        else
                out->action = ACTION_WOULD_CHANGE;
}
