/* Per-disk policy: each reason in its order of precedence, and the target. A case that skips a
 * disk also breaks as many of the later checks as it can, so a reason asked too late shows up. */
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "unit.h"
#include "util.h"

struct policy_case {
        const char *name;
        enum mode mode;
        enum verdict verdict;
        struct disk_facts disk;
        const char *prefer;  /* 'scheduler =', NULL for the default */
        const char *exclude; /* 'exclude =' */
        const char *devices; /* 'devices =' */

        enum action action;
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
                .on_vmbus = VMBUS_NO, .opted_out = true                                            \
        }
#define GOOD_DISK(sched)                                                                           \
        {                                                                                          \
                .name = "sdb", .is_disk = true, .scheduler = (sched), .zoned = "none",             \
                .on_vmbus = VMBUS_YES, .opted_out = false                                          \
        }
/* No preference among the ones the disk offers, and the disk excluded. */
#define BAD_CONFIG .prefer = "kyber", .exclude = "sd*"

static const struct policy_case cases[] = {
        {
                .name = "mode off: disabled, whatever else",
                .mode = MODE_OFF, .verdict = VERDICT_OTHER_HYPERVISOR,
                .disk = BAD_DISK("none [mq-deadline]"), BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_DISABLED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "mode off on a Hyper-V guest with a good disk",
                .mode = MODE_OFF, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .action = ACTION_SKIPPED, .reason = REASON_DISABLED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto on another hypervisor: not-hyperv, current still shown",
                .mode = MODE_AUTO, .verdict = VERDICT_OTHER_HYPERVISOR,
                .disk = BAD_DISK("none [mq-deadline] kyber bfq"), BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 4,
        },
        {
                .name = "auto on bare metal, good disk",
                .mode = MODE_AUTO, .verdict = VERDICT_BARE_METAL,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .action = ACTION_SKIPPED, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto on the Hyper-V root partition",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_ROOT,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .action = ACTION_SKIPPED, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "auto with an unknown verdict",
                .mode = MODE_AUTO, .verdict = VERDICT_UNKNOWN,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .action = ACTION_SKIPPED, .reason = REASON_NOT_HYPERV,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "always bypasses the verdict: next check is partition",
                .mode = MODE_ALWAYS, .verdict = VERDICT_OTHER_HYPERVISOR,
                .disk = BAD_DISK("none [mq-deadline]"), BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_PARTITION,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "always on bare metal changes a good disk",
                .mode = MODE_ALWAYS, .verdict = VERDICT_BARE_METAL,
                .disk = GOOD_DISK("[mq-deadline] none"),
                .action = ACTION_WOULD_CHANGE, .reason = REASON_NONE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "partition",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = BAD_DISK(NULL), BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_PARTITION,
        },
        {
                .name = "no queue/scheduler",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .zoned = "host-managed",
                          .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NO_SCHEDULER,
        },
        {
                .name = "bare none (bio-based device)",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "dm-0", .is_disk = true, .scheduler = "none\n",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NOT_CONFIGURABLE, .n_available = 1,
        },
        {
                .name = "[none] alone",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[none]"),
                .action = ACTION_SKIPPED, .reason = REASON_NOT_CONFIGURABLE,
                .current = "none", .n_available = 1,
        },
        {
                .name = "empty queue/scheduler",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NOT_CONFIGURABLE,
        },
        {
                .name = "garbage queue/scheduler",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "foo bar [",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NO_SUITABLE, .problem = true,
        },
        {
                .name = "host-managed zoned disk",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "host-managed", .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_ZONED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "host-aware zoned disk, mode always",
                .mode = MODE_ALWAYS, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "host-aware", .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_ZONED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "no queue/zoned is not zoned",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .on_vmbus = VMBUS_YES },
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "not on VMBus, mode auto",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_NO, .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_NOT_VMBUS,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                /* Looked up only before a write: the caller asks again once it knows. */
                .name = "VMBus not looked up yet, mode auto: not a reason to skip",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_UNKNOWN },
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "not on VMBus, mode always: the VMBus check is skipped",
                .mode = MODE_ALWAYS, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_NO, .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "not on VMBus, mode always, good otherwise",
                .mode = MODE_ALWAYS, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "nvme0n1", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none" },
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "excluded by an exclude pattern",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_YES, .opted_out = true },
                BAD_CONFIG,
                .action = ACTION_SKIPPED, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "excluded by not matching devices",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_YES, .opted_out = true },
                .prefer = "kyber", .devices = "nvme* sda",
                .action = ACTION_SKIPPED, .reason = REASON_EXCLUDED,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "included by devices",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[mq-deadline] none"), .devices = "nvme* sd[a-c]",
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "opted out by a udev rule",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = { .name = "sdb", .is_disk = true, .scheduler = "[mq-deadline] none",
                          .zoned = "none", .on_vmbus = VMBUS_YES, .opted_out = true },
                .prefer = "kyber", .exclude = "sda nvme*",
                .action = ACTION_SKIPPED, .reason = REASON_OPTED_OUT,
                .current = "mq-deadline", .n_available = 2,
        },
        {
                .name = "no preferred scheduler offered",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[bfq] mq-deadline"),
                .action = ACTION_SKIPPED, .reason = REASON_NO_SUITABLE,
                .current = "bfq", .n_available = 2,
        },
        {
                .name = "first preference offered: noop on a single-queue kernel",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("noop deadline [cfq]\n"),
                .action = ACTION_WOULD_CHANGE, .target = "noop",
                .current = "cfq", .n_available = 3,
        },
        {
                .name = "none preferred over noop when both are offered",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("noop [cfq] none"),
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "cfq", .n_available = 3,
        },
        {
                .name = "custom preference list, first one offered wins",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[none] mq-deadline kyber"), .prefer = "bfq mq-deadline none",
                .action = ACTION_WOULD_CHANGE, .target = "mq-deadline",
                .current = "none", .n_available = 3,
        },
        {
                .name = "already the target",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("[none] mq-deadline\n"),
                .action = ACTION_ALREADY, .target = "none",
                .current = "none", .n_available = 2,
        },
        {
                .name = "would change mq-deadline to none",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("none [mq-deadline] kyber bfq\n"),
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = "mq-deadline", .n_available = 4,
        },
        {
                .name = "no current scheduler bracketed",
                .mode = MODE_AUTO, .verdict = VERDICT_HYPERV_GUEST,
                .disk = GOOD_DISK("none mq-deadline"),
                .action = ACTION_WOULD_CHANGE, .target = "none",
                .current = NULL, .n_available = 2,
        },
};

static void set_globs(struct glob_list *l, const char *globs) {
        char copy[CONFIG_GLOBS_MAX * CONFIG_GLOB_LEN];

        memset(l, 0, sizeof(*l));
        if (!globs)
                return;
        ck_assert(copy_string(copy, globs, sizeof(copy)));
        for (char *save = NULL, *g = strtok_r(copy, " ", &save); g; g = strtok_r(NULL, " ", &save))
                ck_assert(copy_string(l->glob[l->n++], g, CONFIG_GLOB_LEN));
}

START_TEST(disk_gets_the_expected_decision) {
        const struct policy_case *t = &cases[_i];
        struct config c;
        struct disk_decision d;

        config_defaults(&c);
        c.mode = t->mode;
        if (t->prefer)
                ck_assert_int_eq(sched_list_parse(t->prefer, &c.schedulers), 0);
        set_globs(&c.exclude, t->exclude);
        set_globs(&c.devices, t->devices);
        memset(&d, 0xa5, sizeof(d));

        policy_decide(&c, t->verdict, &t->disk, &d);

        ck_assert_msg(d.reason == t->reason, "%s: reason %s, expected %s", t->name,
                      reason_name(d.reason) ? reason_name(d.reason) : "(none)",
                      reason_name(t->reason) ? reason_name(t->reason) : "(none)");
        ck_assert_msg(d.action == t->action, "%s: action %s, expected %s", t->name,
                      action_name(d.action), action_name(t->action));
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

START_TEST(target_points_into_the_config) {
        struct config c;
        struct disk_facts disk = GOOD_DISK("[mq-deadline] none");
        struct disk_decision d;

        config_defaults(&c);
        policy_decide(&c, VERDICT_HYPERV_GUEST, &disk, &d);
        ck_assert_ptr_eq(d.target, c.schedulers.name[0]);
}
END_TEST

static const struct {
        enum mode mode;
        enum verdict verdict;
        bool allows;
} machine_allows[] = {
        { MODE_AUTO, VERDICT_HYPERV_GUEST, true },
        { MODE_AUTO, VERDICT_HYPERV_ROOT, false },
        { MODE_AUTO, VERDICT_OTHER_HYPERVISOR, false },
        { MODE_AUTO, VERDICT_BARE_METAL, false },
        { MODE_AUTO, VERDICT_UNKNOWN, false },
        { MODE_ALWAYS, VERDICT_HYPERV_GUEST, true },
        { MODE_ALWAYS, VERDICT_HYPERV_ROOT, true },
        { MODE_ALWAYS, VERDICT_BARE_METAL, true },
        { MODE_ALWAYS, VERDICT_UNKNOWN, true },
        { MODE_OFF, VERDICT_HYPERV_GUEST, false },
        { MODE_OFF, VERDICT_BARE_METAL, false },
};

START_TEST(machine_allows_only_guests_in_auto) {
        ck_assert_msg(policy_machine_allows(machine_allows[_i].mode, machine_allows[_i].verdict) ==
                              machine_allows[_i].allows,
                      "mode %s, verdict %s: expected %d", mode_name(machine_allows[_i].mode),
                      verdict_name(machine_allows[_i].verdict), machine_allows[_i].allows);
}
END_TEST

START_TEST(action_names_match_json_contract) {
        ck_assert_str_eq(action_name(ACTION_CHANGED), "changed");
        ck_assert_str_eq(action_name(ACTION_WOULD_CHANGE), "would-change");
        ck_assert_str_eq(action_name(ACTION_ALREADY), "already");
        ck_assert_str_eq(action_name(ACTION_SKIPPED), "skipped");
        ck_assert_str_eq(action_name(ACTION_FAILED), "failed");
}
END_TEST

START_TEST(reason_names_match_json_contract) {
        ck_assert_ptr_null(reason_name(REASON_NONE));
        ck_assert_str_eq(reason_name(REASON_DISABLED), "disabled");
        ck_assert_str_eq(reason_name(REASON_NOT_HYPERV), "not-hyperv");
        ck_assert_str_eq(reason_name(REASON_PARTITION), "partition");
        ck_assert_str_eq(reason_name(REASON_NO_SCHEDULER), "no-scheduler");
        ck_assert_str_eq(reason_name(REASON_NOT_CONFIGURABLE), "not-configurable");
        ck_assert_str_eq(reason_name(REASON_ZONED), "zoned");
        ck_assert_str_eq(reason_name(REASON_NOT_VMBUS), "not-vmbus");
        ck_assert_str_eq(reason_name(REASON_EXCLUDED), "excluded");
        ck_assert_str_eq(reason_name(REASON_OPTED_OUT), "opted-out");
        ck_assert_str_eq(reason_name(REASON_NO_SUITABLE), "no-suitable-scheduler");
        ck_assert_str_eq(reason_name(REASON_VANISHED), "vanished");
}
END_TEST

Suite *policy_suite(void) {
        Suite *s = suite_create("policy");
        TCase *tc;

        tc = tcase_create("decide");
        tcase_add_loop_test(tc, disk_gets_the_expected_decision, 0, ELEMENTSOF(cases));
        tcase_add_test(tc, target_points_into_the_config);
        tcase_add_loop_test(tc, machine_allows_only_guests_in_auto, 0, ELEMENTSOF(machine_allows));
        suite_add_tcase(s, tc);

        tc = tcase_create("names");
        tcase_add_test(tc, action_names_match_json_contract);
        tcase_add_test(tc, reason_names_match_json_contract);
        suite_add_tcase(s, tc);

        return s;
}
