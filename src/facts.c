#include "facts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpuregs.h"
#include "hyperv.h"
#include "files.h"
#include "util.h"

#define DMI_PATH "/sys/class/dmi/id"

/* Raw registers only: verdict.c says which leaves are worth a CPUID instruction (each one a VM
 * exit on Hyper-V), in which order, and what they mean. */
static void gather_cpuid(struct machine_facts *f, bool full) {
        struct cpuid_regs r;
        uint32_t leaf;

        f->has_cpuid = cpuid_supported();
        while ((leaf = verdict_next_leaf(f, full))) {
                cpuid_query(leaf, &r);
                verdict_record_leaf(f, leaf, &r);
        }
}

/* Without CPUID, arm64's own signal; on the other architectures without CPUID (s390x, ppc64el,
 * riscv64), where no Hyper-V guest runs, there is no table to read. The table is binary and
 * readable by root only: a report without root says it could not read it and falls back on
 * VMBus and DMI. */
static void gather_fadt(struct machine_facts *f) {
        char buf[4096 + 1];
        long len = read_file_typed(FADT_PATH, buf, sizeof(buf), &f->fadt.type);

        if (len < 0) {
                f->fadt.result = FADT_UNREAD;
                f->fadt.error = (int) len;
                return;
        }
        fadt_parse((const unsigned char *) buf, (size_t) len, &f->fadt);
}

/* As libudev reads a sysfs attribute (udev_device_get_sysattr_value(), which the helper used
 * before): the text up to a NUL, the trailing newline dropped, and here cut to DMI_VALUE_MAX;
 * but never blocking, a FIFO refused. No field of a real DMI is that long. */
static void gather_dmi(struct machine_facts *f) {
        char path[sizeof(DMI_PATH) + 32];
        struct stat st;

        if (stat(DMI_PATH, &st) < 0 || !S_ISDIR(st.st_mode))
                return;
        f->has_dmi = true;
        for (int i = 0; i < DMI_FIELDS; i++) {
                long len;

                snprintf(path, sizeof(path), DMI_PATH "/%s", dmi_field_name[i]);
                /* What is longer is cut: read_file_typed() fills buf before it says so. */
                len = read_file_typed(path, f->dmi[i], sizeof(f->dmi[i]), NULL);
                if (len < 0 && len != -EFBIG)
                        f->dmi[i][0] = '\0';
                strip(f->dmi[i]);
        }
}

void facts_gather_early(struct machine_facts *f, bool full) {
        struct stat st;

        memset(f, 0, sizeof(*f));
        /* First: VMBus up settles what DMI could only veto (verdict_needs_dmi()). */
        f->has_vmbus = stat("/sys/bus/vmbus", &st) == 0;
        gather_cpuid(f, full);
        if (!f->has_cpuid)
                gather_fadt(f);
}

void facts_gather_late(struct machine_facts *f, bool full) {
        if (full || verdict_needs_dmi(f))
                gather_dmi(f);
        if (full && read_file_bounded("/proc/sys/kernel/osrelease", f->osrelease,
                                      sizeof(f->osrelease)) >= 0)
                strip(f->osrelease);
}
