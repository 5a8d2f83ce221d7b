/* The report: what was decided for the machine and each disk, as text or JSON. */
#pragma once
#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "devname.h"
#include "policy.h"
#include "verdict.h"

struct disk_result {
        char name[KERNEL_NAME_MAX]; /* kernel name, or "" when the device was not found */
        struct disk_decision decision;
        int hw_queues; /* -1 when unknown */
        char error[320];
};

struct report {
        const struct machine_verdict *verdict;
        const struct config *config;
        const char *config_path;
        const struct disk_result *disks;
        size_t n_disks;
};

void report_text(FILE *f, const struct report *r);
void report_json(FILE *f, const struct report *r);
