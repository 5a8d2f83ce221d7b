/* The report, text and JSON, byte for byte; the change line and the messages of a write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"
#include "unit.h"
#include "util.h"

#define SYSPATH "/sys/devices/LNXSYSTM:00/VMBUS:00/disk/block/sda"

static void set_list(struct sched_list *l, const char *text) {
        ck_assert_int_eq(sched_list_parse(text, l), 0);
}

/* A disk written with target none: the list before, the list read back. */
static void changed_disk(struct disk_result *d, const char *name, const char *before,
                         const char *after) {
        memset(d, 0, sizeof(*d));
        copy_string(d->name, name, sizeof(d->name));
        d->decision.decision = DECISION_CHANGE;
        d->decision.target = "none";
        set_list(&d->decision.available, before);
        d->written = true;
        d->outcome.result = WRITE_CHANGED;
        set_list(&d->outcome.now, after);
        d->hw_queues = 1;
}

/* Debian 12's kernel lists the current scheduler in another place after a switch: the old
 * name must come from the list before the write, whatever the order after it. */
static const struct {
        const char *before, *after, *line;
} changes[] = {
        { "[mq-deadline] none", "[none] mq-deadline", "sda: mq-deadline -> none" },
        { "none [mq-deadline]", "[none] mq-deadline", "sda: mq-deadline -> none" },
        { "[mq-deadline] kyber none", "mq-deadline kyber [none]\n", "sda: mq-deadline -> none" },
        { "none mq-deadline", "[none] mq-deadline", "sda: ? -> none" },
};

START_TEST(change_line_names_the_old_scheduler) {
        struct disk_result d;
        char line[128];

        changed_disk(&d, "sda", changes[_i].before, changes[_i].after);
        report_change_line(line, sizeof(line), &d);
        ck_assert_str_eq(line, changes[_i].line);
}
END_TEST

static const struct {
        struct write_outcome outcome;
        const char *message;
} errors[] = {
        { { .result = WRITE_FAILED, .error = -EACCES },
          "cannot write '" SYSPATH "/queue/scheduler': Permission denied" },
        { { .result = WRITE_FAILED, .error = -EROFS },
          "cannot write '" SYSPATH "/queue/scheduler': Read-only file system" },
        { { .result = WRITE_VANISHED, .error = -ENODEV },
          "cannot write '" SYSPATH "/queue/scheduler': No such device" },
        { { .result = WRITE_NOT_KEPT, .readback = "[mq-deadline] none\\n" },
          "cannot set '" SYSPATH "/queue/scheduler': wrote 'none', it reads back "
          "'[mq-deadline] none\\n'" },
        { { .result = WRITE_NOT_KEPT, .error = -EIO },
          "cannot read back '" SYSPATH "/queue/scheduler': Input/output error" },
        { { .result = WRITE_NOT_KEPT, .error = -EBADFD, .type = S_IFIFO },
          "cannot read back '" SYSPATH "/queue/scheduler': a FIFO, not a regular file" },
        { { .result = WRITE_CHANGED }, "" },
};

/* A syspath of 4,000 bytes loses its middle, never the part that explains. */
START_TEST(long_syspath_keeps_the_explanation) {
        static const struct write_outcome kept = { .result = WRITE_NOT_KEPT,
                                                   .readback = "[mq-deadline] none\\n" };
        char syspath[4001], msg[320];
        const char *tail = "/queue/scheduler': wrote 'none', it reads back '[mq-deadline] none\\n'";

        memset(syspath, 'a', sizeof(syspath) - 1);
        syspath[sizeof(syspath) - 1] = '\0';
        memcpy(syspath, "/sys/devices/", 13);
        memcpy(syspath + sizeof(syspath) - 1 - 3, "sdq", 3);
        report_write_error(msg, sizeof(msg), syspath, "none", &kept);
        ck_assert_uint_eq(strlen(msg), sizeof(msg) - 1);
        ck_assert_msg(strncmp(msg, "cannot set '/sys/devices/", 25) == 0, "%s", msg);
        ck_assert_msg(strstr(msg, "...") != NULL, "%s", msg);
        ck_assert_str_eq(msg + strlen(msg) - strlen(tail) - 3, "sdq" "/queue/scheduler': wrote "
                         "'none', it reads back '[mq-deadline] none\\n'");
}
END_TEST

/* A directory name may hold a newline or any other byte: a log line must stay one line. */
START_TEST(syspath_is_escaped_in_write_errors) {
        static const struct write_outcome failed = { .result = WRITE_FAILED, .error = -EROFS },
                                          kept = { .result = WRITE_NOT_KEPT, .error = -EIO };
        char msg[320];

        report_write_error(msg, sizeof(msg), "/sys/devices/a\nb\x01/block/sdq", "none", &failed);
        ck_assert_str_eq(msg, "cannot write '/sys/devices/a\\nb\\x01/block/sdq/queue/scheduler': "
                              "Read-only file system");
        report_write_error(msg, sizeof(msg), "/sys/devices/a\tb\\/block/sdq", "none", &kept);
        ck_assert_str_eq(msg, "cannot read back '/sys/devices/a\\tb\\\\/block/sdq/queue/"
                              "scheduler': Input/output error");
}
END_TEST

START_TEST(write_error_message_is_exact) {
        char msg[320];

        memset(msg, 'x', sizeof(msg));
        report_write_error(msg, sizeof(msg), SYSPATH, "none", &errors[_i].outcome);
        ck_assert_str_eq(msg, errors[_i].message);
}
END_TEST

/* A queue/scheduler that is there but cannot be read: what it is, as the config's messages say. */
static const struct {
        int error;
        unsigned type;
        const char *message;
} read_errors[] = {
        { -EACCES, 0, "cannot read '" SYSPATH "/queue/scheduler': Permission denied" },
        { -EISDIR, 0, "cannot read '" SYSPATH "/queue/scheduler': Is a directory" },
        { -EBADFD, S_IFIFO, "cannot read '" SYSPATH "/queue/scheduler': a FIFO, not a regular file" },
        { -EIO, 0, "cannot read '" SYSPATH "/queue/scheduler': Input/output error" },
};

START_TEST(read_error_message_is_exact) {
        char msg[320];

        memset(msg, 'x', sizeof(msg));
        report_read_error(msg, sizeof(msg), SYSPATH, "queue/scheduler", read_errors[_i].error,
                          read_errors[_i].type);
        ck_assert_str_eq(msg, read_errors[_i].message);
}
END_TEST

static const struct {
        const char *arg, *why, *message;
} names[] = {
        { "sd a", "contains a space", "cannot use 'sd a': contains a space" },
        { "sd\x01" "a\n", "contains a control character",
          "cannot use 'sd\\x01a\\n': contains a control character" },
        { "", "empty name", "cannot use '': empty name" },
};

START_TEST(name_error_message_is_exact) {
        char msg[256];

        report_name_error(msg, sizeof(msg), names[_i].arg, names[_i].why);
        ck_assert_str_eq(msg, names[_i].message);
}
END_TEST

static const struct {
        const char *arg;
        int error;
        const char *message;
} lookups[] = {
        { "nosuchdisk0", -ENODEV, "cannot find 'nosuchdisk0': No such device" },
        { "/dev/null", -ENOTBLK, "cannot find '/dev/null': not a block device" },
        { "/sys/block/sda", -EACCES, "cannot find '/sys/block/sda': Permission denied" },
};

START_TEST(lookup_error_message_is_exact) {
        char msg[160];

        report_lookup_error(msg, sizeof(msg), lookups[_i].arg, lookups[_i].error);
        ck_assert_str_eq(msg, lookups[_i].message);
}
END_TEST

/* udev_enumerate_*() return the errno; reading errno instead said "Success". */
START_TEST(enumerate_error_names_the_returned_errno) {
        char msg[160];

        report_enumerate_error(msg, sizeof(msg), -EACCES);
        ck_assert_str_eq(msg, "cannot enumerate '/sys/class/block': Permission denied");
        report_enumerate_error(msg, sizeof(msg), -ENOMEM);
        ck_assert_str_eq(msg, "cannot enumerate '/sys/class/block': Cannot allocate memory");
}
END_TEST

/* What the report says of each kind of disk result. */
static struct disk_result disks[6];
static struct machine_verdict verdict;
static struct config config;
static struct report report;

static void setup_report(void) {
        struct disk_result *d = disks;

        memset(disks, 0, sizeof(disks));
        config_defaults(&config);
        verdict = (struct machine_verdict) {
                .verdict = VERDICT_HYPERV_GUEST,
                .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .n_evidence = 2,
                .evidence = { "CPUID 0x40000000 \"Microsoft Hv\"", "DMI bios_vendor \"x\\y\"" },
        };

        changed_disk(d++, "sda", "[mq-deadline] none", "[none] mq-deadline");

        copy_string(d->name, "sdb", sizeof(d->name));
        d->decision.decision = DECISION_ALREADY;
        d->decision.target = "none";
        set_list(&d->decision.available, "[none]");
        d->hw_queues = 4;
        /* On none because the rule changed it: its record says so. */
        d->changed = true;
        d->record = (struct record) { .name = "sdb", .from = "mq-deadline", .to = "none",
                                      .at = 1796409791, .by = "udev" };
        d++;

        copy_string(d->name, "loop0", sizeof(d->name));
        d->decision.decision = DECISION_SKIP;
        d->decision.reason = REASON_NOT_VMBUS;
        set_list(&d->decision.available, "[none] mq-deadline");
        d->hw_queues = 1;
        d++;

        copy_string(d->name, "sdc", sizeof(d->name));
        d->decision.decision = DECISION_CHANGE;
        d->decision.target = "none";
        set_list(&d->decision.available, "[mq-deadline] none");
        d->written = true;
        d->outcome.result = WRITE_NOT_KEPT;
        set_list(&d->outcome.now, "[mq-deadline] none");
        copy_string(d->outcome.readback, "[mq-deadline] none\\n", sizeof(d->outcome.readback));
        report_write_error(d->error, sizeof(d->error), "/sys/block/sdc", "none", &d->outcome);
        d->hw_queues = -1;
        d++;

        copy_string(d->name, "sdd", sizeof(d->name));
        d->decision.decision = DECISION_CHANGE;
        d->decision.target = "none";
        set_list(&d->decision.available, "[mq-deadline] none");
        d->written = true;
        d->outcome.result = WRITE_VANISHED;
        d->outcome.error = -ENODEV;
        d->hw_queues = -1;
        d++;

        copy_string(d->name, "dm-0", sizeof(d->name));
        d->decision.decision = DECISION_SKIP;
        d->decision.reason = REASON_NO_SUITABLE;
        d->decision.problem = "queue/scheduler is not a list of scheduler names";
        d->decision.available.current = -1;
        d->hw_queues = -1;

        report = (struct report) {
                .verdict = &verdict,
                .config = &config,
                .config_path = "/etc/hyperv-scheduler.conf",
                .disks = disks,
                .n_disks = ELEMENTSOF(disks),
                .linux_version = -1,
        };
}

static char *output(void (*fn)(FILE *, const struct report *)) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        ck_assert_ptr_nonnull(f);
        fn(f, &report);
        ck_assert_int_eq(fclose(f), 0);
        if (fn == report_json)
                unit_keep_json(buf);
        return buf;
}

START_TEST(text_report_is_exact) {
        char *out = output(report_text);

        ck_assert_str_eq(out,
                "Hyper-V guest (Azure, Gen 2):\n"
                "  CPUID 0x40000000 \"Microsoft Hv\"\n"
                "  DMI bios_vendor \"x\\y\"\n"
                "Policy: mode auto, schedulers none noop, config /etc/hyperv-scheduler.conf "
                "(not found, defaults)\n"
                "\n"
                "DEVICE  QUEUES  CURRENT       TARGET        ACTION        REASON\n"
                "sda     1       none          none          changed       -\n"
                "sdb     4       none          none          already       changed\n"
                "loop0   1       none          -             skipped       not-vmbus\n"
                "sdc     -       mq-deadline   none          failed        -\n"
                "sdd     -       mq-deadline   none          skipped       vanished\n"
                "dm-0    -       -             -             skipped       no-suitable-scheduler\n"
                "sdc: cannot set '/sys/block/sdc/queue/scheduler': wrote 'none', it reads back "
                "'[mq-deadline] none\\n'\n"
                "dm-0: queue/scheduler is not a list of scheduler names\n"
                "\n"
                "sda: 1 hardware queue: the kernel starts it on mq-deadline\n"
                "sdb: 4 hardware queues: the kernel starts it on none\n"
                "sdb: changed mq-deadline -> none at 2026-12-04T18:43:11Z by the udev rule\n"
                "loop0: 1 hardware queue: the kernel starts it on mq-deadline\n");
        free(out);
}
END_TEST

START_TEST(json_report_is_exact) {
        char *out = output(report_json);

        ck_assert_str_eq(out,
                "{\"version\": \"" VERSION "\", \"schema_version\": 1, \"machine\": {\"verdict\": \"hyperv-guest\", "
                "\"hypervisor\": \"microsoft\", \"flavour\": [\"azure\", \"gen2\"], \"isolation\": null, "
                "\"paravisor\": null, "
                "\"evidence\": [\"CPUID 0x40000000 \\\"Microsoft Hv\\\"\", "
                "\"DMI bios_vendor \\\"x\\\\y\\\"\"]}, "
                "\"policy\": {\"mode\": \"auto\", \"mode_from_cmdline\": false, "
                "\"schedulers\": [\"none\", \"noop\"], \"config\": \"/etc/hyperv-scheduler.conf\", "
                "\"config_found\": false, \"config_unreadable\": false}, \"devices\": [\n"
                "  {\"name\": \"sda\", \"current\": \"none\", \"available\": [\"none\", "
                "\"mq-deadline\"], \"queues\": 1, \"queues_why\": null, \"kernel_default\": \"mq-deadline\", \"rule_skips\": null, \"target\": \"none\", \"action\": \"changed\", "
                "\"reason\": null, \"error\": null, \"changed\": null},\n"
                "  {\"name\": \"sdb\", \"current\": \"none\", \"available\": [\"none\"], "
                "\"queues\": 4, \"queues_why\": null, \"kernel_default\": \"none\", \"rule_skips\": null, \"target\": \"none\", \"action\": \"already\", \"reason\": null, "
                "\"error\": null, \"changed\": {\"from\": \"mq-deadline\", \"to\": \"none\", "
                "\"at\": \"2026-12-04T18:43:11Z\", \"by\": \"udev\"}},\n"
                "  {\"name\": \"loop0\", \"current\": \"none\", \"available\": [\"none\", "
                "\"mq-deadline\"], \"queues\": 1, \"queues_why\": null, \"kernel_default\": \"mq-deadline\", \"rule_skips\": null, \"target\": null, \"action\": \"skipped\", "
                "\"reason\": \"not-vmbus\", \"error\": null, \"changed\": null},\n"
                "  {\"name\": \"sdc\", \"current\": \"mq-deadline\", \"available\": "
                "[\"mq-deadline\", \"none\"], \"queues\": null, \"queues_why\": null, \"kernel_default\": null, \"rule_skips\": null, \"target\": \"none\", "
                "\"action\": \"failed\", \"reason\": null, \"error\": \"cannot set "
                "'/sys/block/sdc/queue/scheduler': wrote 'none', it reads back "
                "'[mq-deadline] none\\\\n'\", \"changed\": null},\n"
                "  {\"name\": \"sdd\", \"current\": \"mq-deadline\", \"available\": "
                "[\"mq-deadline\", \"none\"], \"queues\": null, \"queues_why\": null, \"kernel_default\": null, \"rule_skips\": null, \"target\": \"none\", "
                "\"action\": \"skipped\", \"reason\": \"vanished\", \"error\": null, \"changed\": null},\n"
                "  {\"name\": \"dm-0\", \"current\": null, \"available\": [], \"queues\": null, \"queues_why\": null, \"kernel_default\": null, \"rule_skips\": null, "
                "\"target\": null, \"action\": \"skipped\", \"reason\": "
                "\"no-suitable-scheduler\", \"error\": \"queue/scheduler is not a list of "
                "scheduler names\", \"changed\": null}\n"
                "], \"udev_running\": null, \"notes\": []}\n");
        free(out);
}
END_TEST

START_TEST(json_report_without_disks) {
        char *out;

        report.n_disks = 0;
        verdict = (struct machine_verdict) { .verdict = VERDICT_BARE_METAL };
        config.mode = MODE_OFF;
        config.mode_from_cmdline = true;
        config.found = true;
        out = output(report_json);
        ck_assert_str_eq(out,
                "{\"version\": \"" VERSION "\", \"schema_version\": 1, \"machine\": {\"verdict\": \"bare-metal\", "
                "\"hypervisor\": null, \"flavour\": [], \"isolation\": null, \"paravisor\": null, "
                "\"evidence\": []}, "
                "\"policy\": {\"mode\": \"off\", \"mode_from_cmdline\": true, "
                "\"schedulers\": [\"none\", \"noop\"], \"config\": \"/etc/hyperv-scheduler.conf\", "
                "\"config_found\": true, \"config_unreadable\": false}, \"devices\": [], "
                "\"udev_running\": null, \"notes\": []}\n");
        free(out);
}
END_TEST

START_TEST(text_report_headlines) {
        static const struct {
                struct machine_verdict v;
                const char *first;
        } heads[] = {
                { { .verdict = VERDICT_HYPERV_ROOT },
                  "Hyper-V root partition (the host): its disks are left alone:\n" },
                { { .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm" },
                  "Not Hyper-V: another hypervisor (kvm):\n" },
                { { .verdict = VERDICT_OTHER_HYPERVISOR }, "Not Hyper-V: another hypervisor (unknown):\n" },
                { { .verdict = VERDICT_BARE_METAL }, "Not Hyper-V: bare metal:\n" },
                { { .verdict = VERDICT_UNKNOWN }, "Not Hyper-V: no sign of it:\n" },
                { { .verdict = VERDICT_HYPERV_GUEST }, "Hyper-V guest:\n" },
                { { .verdict = VERDICT_HYPERV_GUEST, .flavour = FLAVOUR_WSL2 }, "Hyper-V guest (WSL2):\n" },
                { { .verdict = VERDICT_HYPERV_ROOT, .flavour = FLAVOUR_NESTED },
                  "Hyper-V root partition (nested): its VMBus disks are the outer Hyper-V's:\n" },
                { { .verdict = VERDICT_HYPERV_GUEST, .flavour = FLAVOUR_CONFIDENTIAL | FLAVOUR_AZURE,
                    .isolation = ISOLATION_TDX, .paravisor = 1 },
                  "Hyper-V guest (confidential TDX with a paravisor, Azure):\n" },
                { { .verdict = VERDICT_HYPERV_GUEST, .flavour = FLAVOUR_CONFIDENTIAL,
                    .isolation = ISOLATION_SNP, .paravisor = 0 },
                  "Hyper-V guest (confidential SEV-SNP):\n" },
                { { .verdict = VERDICT_HYPERV_GUEST, .flavour = FLAVOUR_CONFIDENTIAL,
                    .isolation = -1, .paravisor = -1 },
                  "Hyper-V guest (confidential):\n" },
        };

        for (size_t i = 0; i < ELEMENTSOF(heads); i++) {
                char *out;

                verdict = heads[i].v;
                report.n_disks = 0;
                out = output(report_text);
                ck_assert_msg(strncmp(out, heads[i].first, strlen(heads[i].first)) == 0,
                              "headline %zu: got '%s'", i, out);
                free(out);
        }
}
END_TEST

START_TEST(json_names_isolation_and_paravisor) {
        char *out;

        verdict = (struct machine_verdict) { .verdict = VERDICT_HYPERV_GUEST,
                                             .flavour = FLAVOUR_CONFIDENTIAL,
                                             .isolation = ISOLATION_TDX, .paravisor = 1 };
        report.n_disks = 0;
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"flavour\": [\"confidential\"], \"isolation\": \"TDX\", "
                                  "\"paravisor\": true,"), "%s", out);
        free(out);
}
END_TEST

/* The devices the rule never starts the helper for leave the text report, counted in one
 * line; shown again when asked; JSON keeps them. */
START_TEST(text_report_counts_what_the_rule_never_runs_for) {
        char *out;

        disks[2].rule_skips = "loop";
        disks[5].rule_skips = "dm";
        report.hide_rule_skipped = true;
        out = output(report_text);
        ck_assert_msg(!strstr(out, "loop0 ") && !strstr(out, "dm-0"), "%s", out);
        ck_assert_msg(strstr(out, "\n2 loop, dm devices not shown (-v shows them)\n"), "%s", out);
        ck_assert_msg(strstr(out, "\nDEVICE  QUEUES"), "the column is as wide as sda: %s", out);
        free(out);

        report.hide_rule_skipped = false;
        out = output(report_text);
        ck_assert_msg(strstr(out, "loop0 ") && strstr(out, "dm-0 ") && !strstr(out, "not shown"),
                      "%s", out);
        free(out);

        report.hide_rule_skipped = true;
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"name\": \"loop0\"") && strstr(out, "\"rule_skips\": \"loop\""),
                      "%s", out);
        free(out);

        report.n_disks = 3;
        out = output(report_text);
        ck_assert_msg(strstr(out, "\n1 loop device not shown (-v shows them)\n"), "%s", out);
        free(out);
}
END_TEST

START_TEST(report_notes_elevator_and_no_udev) {
        char *out;

        config.cmdline_elevator = true;
        report.udev_checked = true;
        report.udev_running = false;
        report.n_disks = 0;
        out = output(report_text);
        ck_assert_msg(strstr(out, "\nNote: elevator= on the kernel command line does nothing since "
                                  "Linux 5.0 (the kernel only warns): this package sets the "
                                  "scheduler, and hyperv_scheduler= on the command line sets its "
                                  "mode.\nNote: no udev daemon is running (no /run/udev/control): "
                                  "the rule never runs here; run hyperv-scheduler --all at boot "
                                  "instead (hyperv-scheduler(8)).\n"), "%s", out);
        free(out);
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"udev_running\": false, \"notes\": [\"elevator= on the kernel "
                                  "command line does nothing since Linux 5.0"), "%s", out);
        free(out);

        config.cmdline_elevator = false;
        report.udev_running = true;
        out = output(report_text);
        ck_assert_msg(!strstr(out, "Note:"), "%s", out);
        free(out);
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"udev_running\": true, \"notes\": []"), "%s", out);
        free(out);
}
END_TEST

static const struct {
        struct queue_facts q;
        const char *why;
} queue_whys[] = {
        { { .storvsc = true, .ide = true, .present_cpus = 4, .max_hw_queues = 0 },
          "an IDE controller (Generation 1)" },
        { { .storvsc = true, .present_cpus = 1, .max_hw_queues = -1 }, "one present CPU" },
        { { .storvsc = true, .present_cpus = 8, .max_hw_queues = 1 },
          "hv_storvsc.storvsc_max_hw_queues=1" },
        { { .storvsc = true, .ide = true, .present_cpus = 1, .max_hw_queues = 1 },
          "an IDE controller (Generation 1), one present CPU, hv_storvsc.storvsc_max_hw_queues=1" },
        { { .storvsc = true, .present_cpus = -1, .max_hw_queues = -1 }, "" },
        { { .storvsc = false, .ide = true, .present_cpus = 1, .max_hw_queues = 1 }, "" },
};

START_TEST(single_queue_reason_is_worded) {
        char buf[160];

        report_queue_why(&queue_whys[_i].q, buf, sizeof(buf));
        ck_assert_str_eq(buf, queue_whys[_i].why);
}
END_TEST

/* What the kernel starts each disk on (elevator_get_default()), from the disk's own facts: its
 * queue count and the schedulers its file offers. */
static const struct {
        int queues;
        const char *list;
        const char *rule_skips;
        const char *want, *why;
} kernel_defaults[] = {
        { 1, "none [mq-deadline] kyber bfq", NULL, "mq-deadline",
          "1 hardware queue: the kernel starts it on mq-deadline" },
        /* Debian 13's cloud kernel: mq-deadline a module nothing loaded. */
        { 1, "[none]", NULL, "none",
          "1 hardware queue, but no mq-deadline offered (a module not loaded): the kernel "
          "starts it on none" },
        { 4, "[none] mq-deadline kyber bfq", NULL, "none",
          "4 hardware queues: the kernel starts it on none (mq-deadline if they share one tag "
          "set)" },
        { 2, "[none]", NULL, "none", "2 hardware queues: the kernel starts it on none" },
        { -1, "[none] mq-deadline", NULL, NULL, "" },
        /* The legacy block layer (before 5.0): no blk-mq, no "none". */
        { 0, "noop deadline [cfq]", NULL, NULL, "" },
        /* loop asks for no scheduler by default: the rule's devices are not told. */
        { 1, "[none] mq-deadline", "loop", NULL, "" },
};

static const int other_versions[] = { 6001, 4009, -1 };

START_TEST(kernel_default_comes_from_the_disk) {
        struct disk_result d;
        char why[160];
        const char *got;

        memset(&d, 0, sizeof(d));
        d.hw_queues = kernel_defaults[_i].queues;
        d.rule_skips = kernel_defaults[_i].rule_skips;
        set_list(&d.decision.available, kernel_defaults[_i].list);
        got = report_kernel_default(&d, 6012, why, sizeof(why));
        ck_assert_pstr_eq(got, kernel_defaults[_i].want);
        ck_assert_str_eq(why, kernel_defaults[_i].why);
        /* A disk that is not zoned starts the same on every kernel, known or not. */
        for (size_t v = 0; v < ELEMENTSOF(other_versions); v++) {
                ck_assert_pstr_eq(report_kernel_default(&d, other_versions[v], why, sizeof(why)),
                                  kernel_defaults[_i].want);
                ck_assert_str_eq(why, kernel_defaults[_i].why);
        }
}
END_TEST

/* A zoned disk: from Linux 5.4 to 6.9 the kernel requires a zone-locking scheduler of SCSI's
 * (mq-deadline, none without it) whatever the queues, never of NVMe's; before 5.4 and from 6.10
 * the queues decide, as for any disk; with the release unknown nothing is said. */
static const struct {
        const char *name;
        int version, queues;
        const char *list;
        const char *want, *why;
} zoned_defaults[] = {
        { "sda", 6001, 2, "[mq-deadline] none", "mq-deadline",
          "zoned, on Linux 5.4 to 6.9: the kernel starts it on mq-deadline, whatever its queues" },
        { "sda", 5004, 4, "[mq-deadline] none", "mq-deadline",
          "zoned, on Linux 5.4 to 6.9: the kernel starts it on mq-deadline, whatever its queues" },
        { "sda", 6009, -1, "none [mq-deadline]", "mq-deadline",
          "zoned, on Linux 5.4 to 6.9: the kernel starts it on mq-deadline, whatever its queues" },
        { "sda", 6001, 2, "[none]", "none",
          "zoned, on Linux 5.4 to 6.9, but no mq-deadline offered (a module not loaded): the "
          "kernel starts it on none" },
        { "sda", 6010, 2, "[none] mq-deadline", "none",
          "2 hardware queues: the kernel starts it on none (mq-deadline if they share one tag "
          "set)" },
        { "sda", 6012, 1, "[mq-deadline] none", "mq-deadline",
          "1 hardware queue: the kernel starts it on mq-deadline" },
        { "sda", 5003, 2, "[none] mq-deadline", "none",
          "2 hardware queues: the kernel starts it on none (mq-deadline if they share one tag "
          "set)" },
        { "nvme0n1", 6001, 4, "[none] mq-deadline", "none",
          "4 hardware queues: the kernel starts it on none (mq-deadline if they share one tag "
          "set)" },
        { "sda", -1, 2, "[mq-deadline] none", NULL, "" },
};

START_TEST(kernel_default_of_a_zoned_disk_follows_the_kernel) {
        struct disk_result d;
        char why[160];

        memset(&d, 0, sizeof(d));
        copy_string(d.name, zoned_defaults[_i].name, sizeof(d.name));
        d.zoned = true;
        d.hw_queues = zoned_defaults[_i].queues;
        set_list(&d.decision.available, zoned_defaults[_i].list);
        ck_assert_pstr_eq(report_kernel_default(&d, zoned_defaults[_i].version, why, sizeof(why)),
                          zoned_defaults[_i].want);
        ck_assert_str_eq(why, zoned_defaults[_i].why);
}
END_TEST

static const struct {
        const char *release;
        int version;
} releases[] = {
        { "6.1.0-28-cloud-amd64", 6001 },
        { "6.10.0", 6010 },
        { "6.12.118+deb13-amd64", 6012 },
        { "5.15.167.4-microsoft-standard-WSL2", 5015 },
        { "4.9.0-19-amd64", 4009 },
        { "", -1 },
        { "6", -1 },
        { "6.", -1 },
        { "6-1", -1 },
        { ".1", -1 },
        { "linux-6.1", -1 },
        { "1000.1", -1 },
        { "6.99999999999", -1 },
};

START_TEST(linux_version_is_read_from_the_release) {
        ck_assert_int_eq(report_linux_version(releases[_i].release), releases[_i].version);
}
END_TEST

/* Zoned disks: what is true for which kernels, in the report's footer. */
START_TEST(text_report_says_what_is_true_of_a_zoned_disk) {
        char *out;

        disks[1].decision.decision = DECISION_SKIP;
        disks[1].decision.reason = REASON_ZONED;
        disks[1].decision.target = NULL;
        set_list(&disks[1].decision.available, "none [mq-deadline]");
        disks[1].hw_queues = 2;
        disks[1].zoned = true;
        report.linux_version = 6008;
        out = output(report_text);
        ck_assert_msg(strstr(out, "\nsdb: zoned, on Linux 5.4 to 6.9: the kernel starts it on "
                                  "mq-deadline, whatever its queues\n"
                                  "sdb: zoned: left alone; before Linux 6.10 only mq-deadline "
                                  "kept its writes in order, from 6.10 the block layer's zone "
                                  "write plugging does, whatever the scheduler\n"), "%s", out);
        free(out);
        /* The release unknown: only what is true of every kernel. */
        report.linux_version = -1;
        out = output(report_text);
        ck_assert_msg(strstr(out, "\nsdb: zoned: left alone;"), "%s", out);
        ck_assert_msg(!strstr(out, "sdb: 2 hardware") && !strstr(out, "sdb: zoned, on"), "%s", out);
        free(out);
}
END_TEST

START_TEST(text_report_says_why_a_disk_has_one_queue) {
        char *out;

        copy_string(disks[0].queue_why, "one present CPU", sizeof(disks[0].queue_why));
        out = output(report_text);
        ck_assert_msg(strstr(out, "\nsda: 1 hardware queue: the kernel starts it on mq-deadline\n"
                                  "sda: 1 hardware queue: one present CPU\n"), "%s", out);
        free(out);
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"queues\": 1, \"queues_why\": \"one present CPU\", \"kernel_default\": \"mq-deadline\""), "%s", out);
        free(out);
}
END_TEST

/* --check: only a disk the rule acts on that is not on its target, or cannot be read, fails. */
static const struct {
        const char *name, *list, *target, *rule_skips, *problem;
        enum decision decision;
        const char *line;
} checks[] = {
        { "sda", "[mq-deadline] none", "none", NULL, NULL, DECISION_CHANGE,
          "sda: on mq-deadline, wants none" },
        { "sdaa", "mq-deadline kyber [bfq] none", "none", NULL, NULL, DECISION_CHANGE,
          "sdaa: on bfq, wants none" },
        { "sdb", "none mq-deadline", "none", NULL, NULL, DECISION_CHANGE,
          "sdb: on ?, wants none" },
        { "sdc", "[noop] deadline", "noop", NULL, NULL, DECISION_ALREADY, NULL },
        { "sdd", "[mq-deadline] none", NULL, NULL, NULL, DECISION_SKIP, NULL },
        { "loop0", "[mq-deadline] none", "none", "loop", NULL, DECISION_CHANGE, NULL },
        { "dm-0", "[mq-deadline] none", "none", "dm", NULL, DECISION_CHANGE, NULL },
        { "sde", "", NULL, NULL, "queue/scheduler is not a list of scheduler names", DECISION_SKIP,
          "sde: queue/scheduler is not a list of scheduler names" },
        { "zram0", "", NULL, "zram", "queue/scheduler is not a list of scheduler names",
          DECISION_SKIP, NULL },
};

START_TEST(check_fails_only_for_a_disk_the_rule_acts_on) {
        struct disk_result d = { .hw_queues = -1 };
        char line[256];
        bool fails;

        copy_string(d.name, checks[_i].name, sizeof(d.name));
        if (*checks[_i].list)
                set_list(&d.decision.available, checks[_i].list);
        d.decision.target = checks[_i].target;
        d.decision.decision = checks[_i].decision;
        d.decision.problem = checks[_i].problem;
        d.rule_skips = checks[_i].rule_skips;
        fails = report_check_fails(line, sizeof(line), &d);
        ck_assert_msg(fails == !!checks[_i].line, "%s: fails %d", checks[_i].name, fails);
        ck_assert_str_eq(line, checks[_i].line ? checks[_i].line : "");
}
END_TEST

/* A disk whose queue/scheduler cannot be read: no bio-based disk the rule skips, but one it runs
 * for, which --check fails with its error, and the report names. */
static void unreadable_disk(struct disk_result *d, const char *name) {
        memset(d, 0, sizeof(*d));
        copy_string(d->name, name, sizeof(d->name));
        d->decision.decision = DECISION_SKIP;
        d->decision.reason = REASON_UNREADABLE;
        d->decision.available.current = -1;
        d->hw_queues = 1;
        report_read_error(d->error, sizeof(d->error), SYSPATH, "queue/scheduler", -EACCES, 0);
}

START_TEST(check_fails_for_a_disk_that_cannot_be_read) {
        struct disk_result d;
        char line[sizeof(d.name) + sizeof(d.error) + 2];

        unreadable_disk(&d, "sda");
        ck_assert(report_check_fails(line, sizeof(line), &d));
        ck_assert_str_eq(line, "sda: cannot read '" SYSPATH "/queue/scheduler': Permission denied");
        /* The rule never runs for a loop device, whatever its file. */
        d.rule_skips = "loop";
        ck_assert(!report_check_fails(line, sizeof(line), &d));
}
END_TEST

START_TEST(report_names_a_disk_that_cannot_be_read) {
        char *out;

        unreadable_disk(&disks[0], "sda");
        report.n_disks = 1;
        out = output(report_text);
        ck_assert_msg(strstr(out, "\nsda     1       -             -             skipped       "
                                  "unreadable\nsda: cannot read '" SYSPATH "/queue/scheduler': "
                                  "Permission denied\n"), "%s", out);
        free(out);
        out = output(report_json);
        ck_assert_msg(strstr(out, "\"kernel_default\": null, \"rule_skips\": null, \"target\": "
                                  "null, \"action\": \"skipped\", \"reason\": \"unreadable\", "
                                  "\"error\": \"cannot read '" SYSPATH "/queue/scheduler': "
                                  "Permission denied\", \"changed\": null}"), "%s", out);
        free(out);
}
END_TEST

START_TEST(json_report_ends_with_the_check) {
        char *out;
        const char *tail;

        report.check = true;
        out = output(report_json);
        tail = strstr(out, "], \"udev_running\"");
        ck_assert_ptr_nonnull(tail);
        /* sda changed, sdc failed and sdd vanished: only dm-0, which cannot be read, fails it. */
        ck_assert_str_eq(tail, "], \"udev_running\": null, \"notes\": [], "
                               "\"check\": {\"ok\": false, \"failing\": [\"dm-0\"]}}\n");
        free(out);
        report.check_ok = true;
        disks[5].decision.problem = NULL;
        out = output(report_json);
        ck_assert_ptr_nonnull(strstr(out, "\"check\": {\"ok\": true, \"failing\": []}}\n"));
        free(out);
}
END_TEST

Suite *report_suite(void) {
        Suite *s = suite_create("report");
        TCase *tc;

        tc = tcase_create("messages");
        tcase_add_loop_test(tc, change_line_names_the_old_scheduler, 0, ELEMENTSOF(changes));
        tcase_add_loop_test(tc, write_error_message_is_exact, 0, ELEMENTSOF(errors));
        tcase_add_loop_test(tc, read_error_message_is_exact, 0, ELEMENTSOF(read_errors));
        tcase_add_test(tc, syspath_is_escaped_in_write_errors);
        tcase_add_test(tc, long_syspath_keeps_the_explanation);
        tcase_add_loop_test(tc, name_error_message_is_exact, 0, ELEMENTSOF(names));
        tcase_add_loop_test(tc, lookup_error_message_is_exact, 0, ELEMENTSOF(lookups));
        tcase_add_test(tc, enumerate_error_names_the_returned_errno);
        suite_add_tcase(s, tc);

        tc = tcase_create("output");
        tcase_add_checked_fixture(tc, setup_report, NULL);
        tcase_add_test(tc, text_report_is_exact);
        tcase_add_test(tc, json_report_is_exact);
        tcase_add_test(tc, json_report_without_disks);
        tcase_add_test(tc, text_report_headlines);
        tcase_add_test(tc, json_names_isolation_and_paravisor);
        tcase_add_test(tc, text_report_counts_what_the_rule_never_runs_for);
        tcase_add_test(tc, report_notes_elevator_and_no_udev);
        tcase_add_test(tc, text_report_says_why_a_disk_has_one_queue);
        tcase_add_test(tc, text_report_says_what_is_true_of_a_zoned_disk);
        tcase_add_loop_test(tc, kernel_default_comes_from_the_disk, 0, ELEMENTSOF(kernel_defaults));
        tcase_add_loop_test(tc, kernel_default_of_a_zoned_disk_follows_the_kernel, 0,
                            ELEMENTSOF(zoned_defaults));
        tcase_add_loop_test(tc, linux_version_is_read_from_the_release, 0, ELEMENTSOF(releases));
        tcase_add_test(tc, json_report_ends_with_the_check);
        tcase_add_loop_test(tc, check_fails_only_for_a_disk_the_rule_acts_on, 0, ELEMENTSOF(checks));
        tcase_add_test(tc, check_fails_for_a_disk_that_cannot_be_read);
        tcase_add_test(tc, report_names_a_disk_that_cannot_be_read);
        suite_add_tcase(s, tc);

        tc = tcase_create("queues");
        tcase_add_loop_test(tc, single_queue_reason_is_worded, 0, ELEMENTSOF(queue_whys));
        suite_add_tcase(s, tc);

        return s;
}
