#include "policy.h"

#include <fnmatch.h>
#include <string.h>

#include "util.h"

static const char *const reason_names[] = {
        [REASON_NONE] = NULL,
        [REASON_DISABLED] = "disabled",
        [REASON_PARTITION] = "partition",
        [REASON_NOT_DISK] = "not-disk",
        [REASON_NO_SCHEDULER] = "no-scheduler",
        [REASON_UNREADABLE] = "unreadable",
        [REASON_ZONED] = "zoned",
        [REASON_EXCLUDED] = "excluded",
        [REASON_OPTED_OUT] = "opted-out",
        [REASON_NO_SUITABLE] = "no-suitable-scheduler",
        [REASON_NOT_HYPERV] = "not-hyperv",
        [REASON_NOT_VMBUS] = "not-vmbus",
};

const char *reason_name(enum reason r) {
        return reason_names[r];
}

const char *const rule_kernel_skip[] = {
        "loop*", "ram*",      "zram*",     "dm-*",  "md*",     "nbd*",    "rbd*", "drbd*",
        "fd*",   "mtdblock*", "ubiblock*", "pmem*", "bcache*", "nullb*",
};
const size_t n_rule_kernel_skip = ELEMENTSOF(rule_kernel_skip);

/* What the report calls each: the glob without its wildcard. */
static const char *const rule_kernel_kind[] = {
        "loop", "ram",      "zram",     "dm",   "md",     "nbd",   "rbd", "drbd",
        "fd",   "mtdblock", "ubiblock", "pmem", "bcache", "nullb",
};
_Static_assert(ELEMENTSOF(rule_kernel_kind) == ELEMENTSOF(rule_kernel_skip),
               "a kind for every glob of the rule");

const char *policy_rule_skips(const struct disk_facts *d) {
        for (size_t i = 0; i < n_rule_kernel_skip; i++)
                if (d->name && fnmatch(rule_kernel_skip[i], d->name, 0) == 0)
                        return rule_kernel_kind[i];
        /* The rule's TEST!="queue/scheduler". */
        if (d->is_disk && !d->scheduler && !d->scheduler_error)
                return "bio-based";
        return NULL;
}

static enum reason disk_reason(const struct config *c, const struct disk_facts *d,
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
        /* A partition's requests are scheduled by its disk's queue. */
        if (!d->is_disk)
                return d->other_devtype ? REASON_NOT_DISK : REASON_PARTITION;
        /* Not known to be absent: nothing about it can be decided, and a write would be blind. */
        if (d->scheduler_error)
                return REASON_UNREADABLE;
        if (!d->scheduler)
                return REASON_NO_SCHEDULER;
        if (parsed < 0) {
                out->problem = "queue/scheduler is not a list of scheduler names";
                return REASON_NO_SUITABLE;
        }
        /* A bare "none", without brackets, is how the kernel says that a queue takes no
         * scheduler at all (bio-based dm, md, zram). "[none]" alone is a disk on none whose
         * other schedulers are modules not loaded: that one is decided below, as already. */
        if (avail->n == 0 || (avail->current < 0 && avail->n == 1 && streq(avail->name[0], "none")))
                return REASON_NO_SCHEDULER;
        /* Zoned disks are left as the kernel set them: before Linux 6.10 only mq-deadline kept
         * their writes in order; from 6.10 zone write plugging does under any scheduler, so
         * none would do there, but Hyper-V offers no zoned disk to gain from it. */
        if (d->zoned_error)
                return REASON_UNREADABLE;
        if (d->zoned && !streq(d->zoned, "none"))
                return REASON_ZONED;
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

void policy_disk(const struct config *c, const struct disk_facts *d, struct disk_decision *out) {
        memset(out, 0, sizeof(*out));
        out->reason = disk_reason(c, d, out);
        if (out->reason != REASON_NONE)
                out->decision = DECISION_SKIP;
        else if (streq(sched_list_current(&out->available), out->target))
                out->decision = DECISION_ALREADY;
        else
                out->decision = DECISION_CHANGE;
}

bool policy_needs_machine(const struct config *c, const struct disk_decision *d) {
        return c->mode == MODE_AUTO && d->decision != DECISION_SKIP;
}

void policy_machine(const struct machine_verdict *v, bool on_vmbus, struct disk_decision *d) {
        if (!verdict_vmbus_disks_are_synthetic(v))
                d->reason = REASON_NOT_HYPERV;
        else if (!on_vmbus)
                d->reason = REASON_NOT_VMBUS;
        else
                return;
        d->decision = DECISION_SKIP;
        d->target = NULL;
}
