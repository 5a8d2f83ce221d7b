/* Plain data that the I/O modules gather and the pure ones decide on and report: no functions,
 * so a pure module never includes an I/O header for a type. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "schedlist.h"

/* The registers of one CPUID leaf (cpuregs.c executes it). */
struct cpuid_regs {
        uint32_t eax, ebx, ecx, edx;
};

/* What became of a write (disk.c): only the read-back tells, the kernel can accept a write and
 * keep nothing. */
enum write_result {
        WRITE_CHANGED,  /* target reads back as the current scheduler */
        WRITE_FAILED,   /* the write failed: error */
        WRITE_NOT_KEPT, /* written, but the read-back shows another (or error: unreadable) */
        WRITE_VANISHED, /* the device went away before the write, or before its read-back */
};

struct write_outcome {
        enum write_result result;
        int error;             /* negative errno of the write, or of the read-back; else 0 */
        unsigned type;         /* not 0: the st_mode of a read-back that is no regular file */
        bool read_back;        /* the write went through and its read-back was tried */
        struct sched_list now; /* the read-back; n == 0 when it is not a list */
        char readback[64];     /* the read-back as text, escaped for a message */
};

/* What can explain one hardware queue on a storvsc disk (disk.c). Only the report asks. */
struct queue_facts {
        bool storvsc;      /* the disk's VMBus device is bound to hv_storvsc */
        bool ide;          /* and offered as the IDE fast path (Generation 1) */
        int present_cpus;  /* /sys/devices/system/cpu/present, -1 when unreadable */
        int max_hw_queues; /* hv_storvsc.storvsc_max_hw_queues, -1 when unreadable */
};
