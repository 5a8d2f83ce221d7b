/* hyperv-scheduler: command line only; the work is in run.c. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "run.h"
#include "undo.h"
#include "util.h"

static const char *arg_config = DEFAULT_CONFIG;
static bool arg_config_named;
static bool arg_dry_run;
static bool arg_json;
static bool arg_all;
static bool arg_udev;
static bool arg_check;
static bool arg_undo;
static enum verbosity arg_verbosity = VERBOSITY_NORMAL;

static void help(void) {
        static const char text[] =
               "Usage: hyperv-scheduler [OPTIONS] DEVICE...  set the scheduler of these disks\n"
               "       hyperv-scheduler [OPTIONS] --all      every whole disk\n"
               "       hyperv-scheduler [OPTIONS]            report on every disk, change nothing\n"
               "       hyperv-scheduler --check [DEVICE...]  exit 1 if a disk is not as wanted\n"
               "       hyperv-scheduler --undo [DEVICE...]   put back what it changed this boot\n"
               "\n"
               "On a Hyper-V guest, set the \"none\" I/O scheduler on the disks Hyper-V provides.\n"
               "DEVICE is a kernel name (sda), a /dev path or a /sys path.\n"
               "\n"
               "  -a, --all          every whole disk\n"
               "  -n, --dry-run      decide and report, change nothing (works without root)\n"
               "  -j, --json         the report as JSON\n"
               "      --check        change nothing; one line per disk the rule acts on that\n"
               "                     is not on its target (\"sda: on mq-deadline, wants none\"),\n"
               "                     exit 1 if any (works without root); with --json the\n"
               "                     report, with \"check\": {\"ok\", \"failing\"}\n"
               "  -c, --config FILE  configuration file (default " DEFAULT_CONFIG ";\n"
               "                     an absent file means defaults)\n"
               "  -v, --verbose      also print debug messages: each disk left alone and why;\n"
               "                     the report lists every device\n"
               "  -q, --quiet        print warnings and errors only, no line for a disk changed\n"
               "                     (a report asked for is still printed)\n"
               "      --udev         as the udev rule runs it: log to syslog, take the event's\n"
               "                     properties from the environment for its disk\n"
               "      --undo         put back the scheduler each disk had before this program\n"
               "                     changed it this boot (all, or the DEVICEs named), where it\n"
               "                     is still the same disk on the scheduler written; with\n"
               "                     --dry-run say what would be put back\n"
               "  -h, --help         show this help\n"
               "  -V, --version      show the version\n"
               "\n"
               "Exit status: 0 nothing failed; 1 a write or its read-back failed, a disk's\n"
               "queue/scheduler or queue/zoned cannot be read, the config file cannot be\n"
               "read (nothing is changed), the output cannot be written, or udev, the list\n"
               "of disks or memory failed, or --undo could not put one back;\n"
               "2 usage error, invalid device name or device not found (with --udev a disk\n"
               "that vanished is not an error).\n"
               "With --check: 0 every disk the rule acts on is on its target or left alone\n"
               "for a reason; 1 one is not, or cannot be read; 2 usage error.\n"
               "See hyperv-scheduler(8) and hyperv-scheduler.conf(5).\n";

        log_write_stdout(text, sizeof(text) - 1);
}

/* Returns -EINVAL on a usage error, 0 to exit successfully now, 1 to go on. */
static int parse_argv(int argc, char *argv[]) {
        static const struct option options[] = {
                { "all", no_argument, NULL, 'a' },
                { "dry-run", no_argument, NULL, 'n' },
                { "json", no_argument, NULL, 'j' },
                { "config", required_argument, NULL, 'c' },
                { "verbose", no_argument, NULL, 'v' },
                { "quiet", no_argument, NULL, 'q' },
                { "udev", no_argument, NULL, 'U' },
                { "check", no_argument, NULL, 'C' },
                { "undo", no_argument, NULL, 'u' },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                {}
        };
        int c;

        while ((c = getopt_long(argc, argv, "anjc:vqhV", options, NULL)) >= 0)
                switch (c) {
                case 'a':
                        arg_all = true;
                        break;
                case 'n':
                        arg_dry_run = true;
                        break;
                case 'j':
                        arg_json = true;
                        break;
                case 'c':
                        arg_config = optarg;
                        arg_config_named = true;
                        break;
                case 'v':
                        arg_verbosity = VERBOSITY_DEBUG;
                        break;
                case 'q':
                        arg_verbosity = VERBOSITY_QUIET;
                        break;
                case 'U':
                        arg_udev = true;
                        break;
                case 'C':
                        arg_check = true;
                        break;
                case 'u':
                        arg_undo = true;
                        break;
                case 'h':
                        help();
                        return 0;
                case 'V':
                        log_write_stdout("hyperv-scheduler " VERSION "\n",
                                         sizeof("hyperv-scheduler " VERSION "\n") - 1);
                        return 0;
                default:
                        return -EINVAL;
                }

        if (arg_all && optind < argc) {
                log_msg(LOG_ERR, "--all and device names exclude each other");
                return -EINVAL;
        }
        if (arg_check && (arg_all || arg_udev)) {
                log_msg(LOG_ERR, "--check and %s exclude each other", arg_all ? "--all" : "--udev");
                return -EINVAL;
        }
        if (arg_undo && (arg_all || arg_json || arg_udev || arg_check)) {
                log_msg(LOG_ERR, "--undo and %s exclude each other",
                        arg_all ? "--all" : arg_json ? "--json" : arg_udev ? "--udev" : "--check");
                return -EINVAL;
        }
        if (arg_undo)
                return 1;
        /* Without a device or --all there is nothing to apply to: report instead. */
        if ((!arg_all && optind == argc) || arg_check)
                arg_dry_run = true;
        return 1;
}

/* udev puts the event's properties in the environment of the programs it runs; DEVPATH names
 * the one device they describe. */
static const char *event_syspath(char *buf, size_t size) {
        const char *devpath = getenv("DEVPATH");

        if (!devpath || devpath[0] != '/')
                return NULL;
        return str_append(buf, size, str_append(buf, size, 0, "/sys"), devpath) < size ? buf
                                                                                      : NULL;
}

/* What kind of run a record names: the rule's, the package's (its scripts set
 * HYPERV_SCHEDULER_BY=install), or one by hand. */
static const char *run_by(void) {
        const char *by = getenv("HYPERV_SCHEDULER_BY");

        if (arg_udev)
                return "udev";
        return by && strcmp(by, "install") == 0 ? "install" : "hand";
}

/* A closed standard descriptor would go to the next file opened: the syslog socket as fd 1
 * would carry the report. Read-only /dev/null fills it, so that writing there still fails, and
 * is reported, as on a closed descriptor. open() takes the lowest free descriptor: opened until
 * it returns one above 2, it has filled every closed one. */
static void fill_standard_fds(void) {
        for (;;) {
                int fd = open("/dev/null", O_RDONLY | O_NOCTTY);

                if (fd < 0)
                        return;
                if (fd > 2) {
                        close(fd);
                        return;
                }
        }
}

/* Whatever else failed, output that did not reach stdout or stderr fails the run. */
static int finish(int status) {
        if (log_output_failed() < 0 && status == EXIT_OK)
                return EXIT_FAILED;
        return status;
}

int main(int argc, char *argv[]) {
        static char syspath[PATH_MAX];
        struct run_options o;
        int r;

        fill_standard_fds();
        r = parse_argv(argc, argv);
        if (r <= 0)
                return finish(r < 0 ? EXIT_USAGE : EXIT_OK);

        o = (struct run_options) {
                .config_path = arg_config,
                .config_named = arg_config_named,
                .dry_run = arg_dry_run,
                .json = arg_json,
                .check = arg_check,
                .under_udev = arg_udev,
                .event_syspath = arg_udev ? event_syspath(syspath, sizeof(syspath)) : NULL,
                .by = run_by(),
                .verbosity = arg_verbosity,
                .devices = argv + optind,
                .n_devices = (size_t) (argc - optind),
        };
        if (arg_undo) {
                log_setup(false, false, o.verbosity);
                return finish(undo(&o));
        }
        /* A report owns stdout: the line naming a change then goes to stderr. */
        log_setup(o.under_udev, o.dry_run || o.json, o.verbosity);
        return finish(run(&o));
}
