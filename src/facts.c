#include "facts.h"

#include <libudev.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpuregs.h"
#include "hyperv.h"
#include "files.h"
#include "util.h"

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

static void gather_dmi(struct machine_facts *f, struct udev *udev) {
        struct udev_device *dmi = udev_device_new_from_syspath(udev, "/sys/class/dmi/id");

        if (!dmi)
                return;
        f->has_dmi = true;
        for (int i = 0; i < DMI_FIELDS; i++) {
                const char *v = udev_device_get_sysattr_value(dmi, dmi_field_name[i]);

                if (v) {
                        copy_string(f->dmi[i], v, sizeof(f->dmi[i]));
                        strip(f->dmi[i]);
                }
        }
        udev_device_unref(dmi);
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

void facts_gather_late(struct machine_facts *f, struct udev *udev, bool full) {
        if (full || verdict_needs_dmi(f))
                gather_dmi(f, udev);
        if (full && read_file_bounded("/proc/sys/kernel/osrelease", f->osrelease,
                                      sizeof(f->osrelease)) >= 0)
                strip(f->osrelease);
}
