/* One invocation: load the config, decide the machine, then each disk; apply and report. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "log.h"

enum exit_status {
        EXIT_OK = 0,
        EXIT_FAILED = 1, /* something failed at run time: a write or its read-back, the config
                          * that cannot be read whole, the output, udev, the list of disks,
                          * memory (hyperv-scheduler(8), EXIT STATUS) */
        EXIT_USAGE = 2,  /* bad arguments, invalid device name, device not found */
};

struct run_options {
        const char *config_path;
        bool config_named; /* given with --config */
        bool dry_run;
        bool json;
        bool check;                 /* --check (with dry_run): the disks not as the policy wants */
        bool under_udev;            /* --udev: run by the rule for one event */
        const char *event_syspath;  /* under udev, /sys + $DEVPATH: the event's device, or NULL */
        const char *by;             /* what kind of run this is, for a record: udev, hand, install */
        enum verbosity verbosity;
        char *const *devices; /* none: every whole disk */
        size_t n_devices;
};

enum exit_status run(const struct run_options *o);
