/* Per-disk policy: each reason in its order of precedence, and the target. A case that skips a
 * disk also breaks as many of the later checks as it can, so a reason asked too late shows up. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "policy.h"
#include "files.h"
#include "unit.h"
#include "util.h"

struct policy_case {
        const char *name;
        enum mode mode;
        enum verdict verdict;
        unsigned flavour; /* FLAVOUR_NESTED: a nested root */
        bool on_vmbus;
        struct disk_facts disk;
        const char *prefer;  /* 'scheduler =', NULL for the default */
        const char *exclude; /* 'exclude =' */
        const char *devices; /* 'devices =' */

        enum decision decision;
        enum reason reason;
        const char *target;
        const char *current; /* the bracketed name in available */
        unsigned n_available;
        bool problem;
};

/* A disk that is wrong in every way each later check looks at. */
#define BAD_DISK(sched)                                                                            \
        {                                                                                          \
                .name = "sdb", .is_disk = false, .scheduler = (sched), .zoned = "host-managed",    \
                .opted_out = true                                                                  \
        }
#define GOOD_DISK(sched)                                                                           \
        {                                                                                          \
                .name = "sdb", .is_disk = true, .scheduler = (sched), .zoned = "none",             \
                .opted_out = false                                                                 \
        }
/* No preference among the ones the disk offers, and the disk excluded. */
#define BAD_CONFIG .prefer = "kyber", .exclude = "sd*"
/* The machine stage comes last: a machine that would skip every disk. */
#define BAD_MACHINE .verdict = VERDICT_OTHER_HYPERVISOR, .on_vmbus = false
#define GUEST .verdict = VERDICT_HYPERV_GUEST, .on_vmbus = true

static const struct policy_case cases[] = {
        {
                .name = "mode off: disabled, whatever else",
                .mode = MODE_OFF, BAD_MACHINE,
                .disk = BAD_DISK("none [mq-deadline]"), BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_DISABLED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "mode off on a Hyper-V guest with a good disk",
                .mode = MODE_OFF, GUEST,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_DISABLED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "partition, whatever the machine",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = BAD_DISK("none [mq-deadline]"), BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_PARTITION,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "the event's DEVTYPE neither disk nor partition",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = false, .other_devtype = true,
                          .scheduler = "none [mq-deadline]" },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_NOT_DISK,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "partition without a scheduler",
                .mode = MODE_AUTO, GUEST,
                .disk = BAD_DISK(NULL), BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_PARTITION,
        },
        {
                .name = "no queue/scheduler",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .zoned = "host-managed",
                          .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_NO_SCHEDULER,
        },
        {
                /* Not known to be absent: no bio-based disk, and no disk to write blind. */
                .name = "queue/scheduler there but unreadable, whatever else",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler_error = -EACCES,
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_UNREADABLE,
        },
        {
                .name = "unreadable queue/scheduler on a Hyper-V guest, mode always",
                .mode = MODE_ALWAYS, GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler_error = -EBADFD,
                          .scheduler_type = S_IFIFO, .zoned = "none" },
                .decision = DECISION_SKIP, .reason = REASON_UNREADABLE,
        },
        {
                .name = "mode off: disabled, an unreadable queue/scheduler too",
                .mode = MODE_OFF, GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler_error = -EISDIR },
                .decision = DECISION_SKIP, .reason = REASON_DISABLED,
        },
        {
                .name = "bare none, no brackets: a queue that takes no scheduler (bio-based)",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "dm-0", .is_disk = true, .scheduler = "none\n",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_NO_SCHEDULER, .n_available = 1,
        },
        {
                .name = "empty queue/scheduler",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_NO_SCHEDULER,
        },
        {
                .name = "[none] alone (mq-deadline a module not loaded): already",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("[none]\n"),
                .decision = DECISION_ALREADY, .target = "none",
                .current = "none", .n_available = 1,
        },
        {
                .name = "[none] alone on another hypervisor, in a report: not-hyperv",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = GOOD_DISK("[none]"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_HYPERV,
                .current = "none", .n_available = 1,
        },
        {
                .name = "garbage queue/scheduler",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "foo bar [",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_NO_SUITABLE, .problem = true,
        },
        {
                /* Not known not to be zoned: before 6.10 none would lose a zoned disk's order. */
                .name = "queue/zoned there but unreadable, on a Hyper-V guest, mode always",
                .mode = MODE_ALWAYS, GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned_error = -EACCES },
                .decision = DECISION_SKIP, .reason = REASON_UNREADABLE,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "host-managed zoned disk",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_ZONED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "host-aware zoned disk, mode always",
                .mode = MODE_ALWAYS, GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "host-aware", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_ZONED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "no queue/zoned is not zoned",
                .mode = MODE_AUTO, GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none" },
                .decision = DECISION_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "excluded by an exclude pattern",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "excluded by not matching devices",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .opted_out = true },
                .prefer = "kyber", .devices = "nvme* sda",
                .decision = DECISION_SKIP, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "included by devices",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("[mq-deadline] none"), .devices = "nvme* sd[a-c]",
                .decision = DECISION_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "opted out by a udev rule",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .opted_out = true },
                .prefer = "kyber", .exclude = "sda nvme*",
                .decision = DECISION_SKIP, .reason = REASON_OPTED_OUT,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "no preferred scheduler offered",
                .mode = MODE_AUTO, BAD_MACHINE,
                .disk = GOOD_DISK("[bfq] mq-deadline"),
                .decision = DECISION_SKIP, .reason = REASON_NO_SUITABLE,
                .current = "bfq", .n_available = 2,
        },
        {
                .name = "auto on another hypervisor: not-hyperv, current still shown",
                .mode = MODE_AUTO, .verdict = VERDICT_OTHER_HYPERVISOR, .on_vmbus = false,
                .disk = GOOD_DISK("none [mq-deadline] kyber bfq"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 4,
        },
        {
                .name = "auto on bare metal",
                .mode = MODE_AUTO, .verdict = VERDICT_BARE_METAL, .on_vmbus = true,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto on the Hyper-V root partition, even for a VMBus disk",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_ROOT, .on_vmbus = true,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                /* Linux sets up VMBus on a root only when it is nested: there the VMBus disks
                 * are the outer Hyper-V's synthetic disks. */
                .name = "auto on a nested root partition, a VMBus disk",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_ROOT, .flavour = FLAVOUR_NESTED,
                .on_vmbus = true, .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto on a nested root partition, a disk not on VMBus",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_ROOT, .flavour = FLAVOUR_NESTED,
                .on_vmbus = false, .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_VMBUS,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto with an unknown verdict",
                .mode = MODE_AUTO, .verdict = VERDICT_UNKNOWN, .on_vmbus = true,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "not on VMBus, mode auto",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST, .on_vmbus = false,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .decision = DECISION_SKIP, .reason = REASON_NOT_VMBUS,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "mode always skips the machine stage: bare metal, not on VMBus",
                .mode = MODE_ALWAYS, BAD_MACHINE,
                .disk = { .name = "nvme0n1", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none" },
                .decision = DECISION_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "mode always still asks the disk-local checks",
                .mode = MODE_ALWAYS, BAD_MACHINE,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .opted_out = true },
                BAD_CONFIG,
                .decision = DECISION_SKIP, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "first preference offered: noop on a single-queue kernel",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("noop deadline [cfq]\n"),
                .decision = DECISION_CHANGE, .target = "noop",
                .current = "cfq", .n_available = 3,
        },
        {
                .name = "none preferred over noop when both are offered",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("noop [cfq] none"),
                .decision = DECISION_CHANGE, .target = "none",
                .current = "cfq", .n_available = 3,
        },
        {
                .name = "custom preference list, first one offered wins",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("[none] mq-deadline kyber"), .prefer = "bfq mq-deadline none",
                .decision = DECISION_CHANGE, .target = "mq-deadline",
                .current = "none", .n_available = 3,
        },
        {
                .name = "already the target",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("[none] mq-deadline\n"),
                .decision = DECISION_ALREADY, .target = "none",
                .current = "none", .n_available = 2,
        },
        {
                .name = "would change mq-deadline to none",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("none [mq-deadline] kyber bfq\n"),
                .decision = DECISION_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 4,
        },
        {
                .name = "no current scheduler bracketed",
                .mode = MODE_AUTO, GUEST,
                .disk = GOOD_DISK("none mq-deadline"),
                .decision = DECISION_CHANGE, .target = "none",
                .current = NULL, .n_available = 2,
        },
};

static const char *const decision_names[] = { "skip", "already", "change" };

static void set_globs(struct glob_list *l, const char *globs) {
        char copy[CONFIG_GLOBS_MAX * CONFIG_GLOB_LEN];

        memset(l, 0, sizeof(*l));
        if (!globs)
                return;
        ck_assert(copy_string(copy, globs, sizeof(copy)));
        for (char *save = NULL, *g = strtok_r(copy, " ", &save); g; g = strtok_r(NULL, " ", &save))
                ck_assert(copy_string(l->glob[l->n++], g, CONFIG_GLOB_LEN));
}

static void case_config(const struct policy_case *t, struct config *c) {
        config_defaults(c);
        c->mode = t->mode;
        if (t->prefer)
                ck_assert_int_eq(sched_list_parse(t->prefer, &c->schedulers), 0);
        set_globs(&c->exclude, t->exclude);
        set_globs(&c->devices, t->devices);
}

/* Both stages, as a report runs them: every disk not skipped yet meets the machine. */
START_TEST(disk_gets_the_expected_decision) {
        const struct policy_case *t = &cases[_i];
        struct config c;
        struct disk_decision d;

        case_config(t, &c);
        memset(&d, 0xa5, sizeof(d));

        policy_disk(&c, &t->disk, &d);
        if (policy_needs_machine(&c, &d)) {
                struct machine_verdict v = { .verdict = t->verdict, .flavour = t->flavour };

                policy_machine(&v, t->on_vmbus, &d);
        }

        ck_assert_msg(d.reason == t->reason, "%s: reason %s, expected %s", t->name,
                      reason_name(d.reason) ? reason_name(d.reason) : "(none)",
                      reason_name(t->reason) ? reason_name(t->reason) : "(none)");
        ck_assert_msg(d.decision == t->decision, "%s: decision %s, expected %s", t->name,
                      decision_names[d.decision], decision_names[t->decision]);
        ck_assert_msg(d.target == t->target || (d.target && t->target &&
                                                strcmp(d.target, t->target) == 0),
                      "%s: target '%s', expected '%s'", t->name,
                      d.target ? d.target : "(null)", t->target ? t->target : "(null)");
        ck_assert_msg(d.available.n == t->n_available, "%s: %u available, expected %u", t->name,
                      d.available.n, t->n_available);
        ck_assert_msg(streq(sched_list_current(&d.available), t->current) ||
                              (!t->current && !sched_list_current(&d.available)),
                      "%s: current '%s', expected '%s'", t->name,
                      sched_list_current(&d.available) ? sched_list_current(&d.available) : "(null)",
                      t->current ? t->current : "(null)");
        ck_assert_msg((d.problem != NULL) == t->problem, "%s: problem '%s'", t->name,
                      d.problem ? d.problem : "(null)");
        if (d.problem)
                ck_assert_str_eq(d.problem, "queue/scheduler is not a list of scheduler names");
}
END_TEST

/* The per-event path: a disk the disk-local stage skips, or finds already on its target, never
 * needs the machine, so no CPUID, DMI or VMBus walk is done for it. */
START_TEST(disk_stage_alone_settles_all_but_a_change) {
        const struct policy_case *t = &cases[_i];
        struct config c;
        struct disk_decision d;

        case_config(t, &c);
        policy_disk(&c, &t->disk, &d);
        if (d.decision != DECISION_CHANGE)
                return;
        ck_assert_msg(policy_needs_machine(&c, &d) == (t->mode == MODE_AUTO),
                      "%s: a change in mode %s %s the machine", t->name, mode_name(t->mode),
                      policy_needs_machine(&c, &d) ? "needs" : "does not need");
}
END_TEST

START_TEST(already_disk_needs_no_machine_on_the_event_path) {
        struct config c;
        struct disk_facts disk = GOOD_DISK("[none] mq-deadline");
        struct disk_decision d;

        config_defaults(&c);
        policy_disk(&c, &disk, &d);
        ck_assert_int_eq(d.decision, DECISION_ALREADY);
        ck_assert_int_eq(d.reason, REASON_NONE);
        ck_assert_str_eq(d.target, "none");
}
END_TEST

START_TEST(skip_needs_no_machine) {
        struct config c;
        struct disk_facts disk = BAD_DISK("[mq-deadline] none");
        struct disk_decision d;

        config_defaults(&c);
        policy_disk(&c, &disk, &d);
        ck_assert_int_eq(d.decision, DECISION_SKIP);
        ck_assert(!policy_needs_machine(&c, &d));
}
END_TEST

START_TEST(machine_stage_clears_the_target) {
        struct config c;
        struct disk_facts disk = GOOD_DISK("[mq-deadline] none");
        struct disk_decision d;

        config_defaults(&c);
        policy_disk(&c, &disk, &d);
        ck_assert_ptr_eq(d.target, c.schedulers.name[0]);
        policy_machine(&(struct machine_verdict) { .verdict = VERDICT_HYPERV_ROOT }, true, &d);
        ck_assert_ptr_null(d.target);
}
END_TEST

START_TEST(reason_names_match_json_contract) {
        ck_assert_ptr_null(reason_name(REASON_NONE));
        ck_assert_str_eq(reason_name(REASON_DISABLED), "disabled");
        ck_assert_str_eq(reason_name(REASON_PARTITION), "partition");
        ck_assert_str_eq(reason_name(REASON_NOT_DISK), "not-disk");
        ck_assert_str_eq(reason_name(REASON_NO_SCHEDULER), "no-scheduler");
        ck_assert_str_eq(reason_name(REASON_UNREADABLE), "unreadable");
        ck_assert_str_eq(reason_name(REASON_ZONED), "zoned");
        ck_assert_str_eq(reason_name(REASON_EXCLUDED), "excluded");
        ck_assert_str_eq(reason_name(REASON_OPTED_OUT), "opted-out");
        ck_assert_str_eq(reason_name(REASON_NO_SUITABLE), "no-suitable-scheduler");
        ck_assert_str_eq(reason_name(REASON_NOT_HYPERV), "not-hyperv");
        ck_assert_str_eq(reason_name(REASON_NOT_VMBUS), "not-vmbus");
}
END_TEST

static const struct {
        struct disk_facts disk;
        const char *kind;
} rule_skips[] = {
        { { .name = "loop0", .is_disk = true, .scheduler = "[none] mq-deadline" }, "loop" },
        { { .name = "zram0", .is_disk = true, .scheduler = "none" }, "zram" },
        { { .name = "dm-0", .is_disk = true }, "dm" },
        { { .name = "md127", .is_disk = true, .scheduler = "none" }, "md" },
        { { .name = "nullb0", .is_disk = true, .scheduler = "[none] mq-deadline" }, "nullb" },
        { { .name = "pmem0", .is_disk = true }, "pmem" },
        /* The rule's TEST!="queue/scheduler": bio-based disks of other names. */
        { { .name = "vda", .is_disk = true }, "bio-based" },
        /* A file the rule's TEST finds, whatever reading it says. */
        { { .name = "vda", .is_disk = true, .scheduler_error = -EACCES }, NULL },
        { { .name = "loop0", .is_disk = true, .scheduler_error = -EACCES }, "loop" },
        { { .name = "sda", .is_disk = true, .scheduler = "[mq-deadline] none" }, NULL },
        { { .name = "nvme0n1", .is_disk = true, .scheduler = "[none]" }, NULL },
        { { .name = "dmx", .is_disk = true, .scheduler = "[none]" }, NULL },
};

START_TEST(rule_never_runs_for_its_kernel_list_and_bio_based_disks) {
        ck_assert_pstr_eq(policy_rule_skips(&rule_skips[_i].disk), rule_skips[_i].kind);
}
END_TEST

/* The helper's list and the rule's KERNEL== match are one list: the rule file says it. */
START_TEST(rule_file_kernel_list_is_the_helpers) {
        char text[16384], *line, *end;
        long len = read_file_bounded("rules/60-hyperv-scheduler.rules", text, sizeof(text));
        size_t n = 0;

        ck_assert_msg(len > 0, "cannot read rules/60-hyperv-scheduler.rules: %ld", len);
        line = strstr(text, "\nKERNEL==\"");
        ck_assert_msg(line, "no KERNEL== line in the rule");
        line += strlen("\nKERNEL==\"");
        end = strchr(line, '"');
        ck_assert_ptr_nonnull(end);
        *end = '\0';
        for (char *glob = strtok(line, "|"); glob; glob = strtok(NULL, "|"), n++) {
                ck_assert_msg(n < n_rule_kernel_skip, "the rule has more than %zu globs: %s",
                              n_rule_kernel_skip, glob);
                ck_assert_str_eq(glob, rule_kernel_skip[n]);
        }
        ck_assert_uint_eq(n, n_rule_kernel_skip);
}
END_TEST

Suite *policy_suite(void) {
        Suite *s = suite_create("policy");
        TCase *tc;

        tc = tcase_create("decide");
        tcase_add_loop_test(tc, disk_gets_the_expected_decision, 0, ELEMENTSOF(cases));
        tcase_add_loop_test(tc, disk_stage_alone_settles_all_but_a_change, 0, ELEMENTSOF(cases));
        tcase_add_test(tc, already_disk_needs_no_machine_on_the_event_path);
        tcase_add_test(tc, skip_needs_no_machine);
        tcase_add_test(tc, machine_stage_clears_the_target);
        suite_add_tcase(s, tc);

        tc = tcase_create("names");
        tcase_add_test(tc, reason_names_match_json_contract);
        tcase_add_loop_test(tc, rule_never_runs_for_its_kernel_list_and_bio_based_disks, 0,
                            ELEMENTSOF(rule_skips));
        tcase_add_test(tc, rule_file_kernel_list_is_the_helpers);
        suite_add_tcase(s, tc);

        return s;
}
