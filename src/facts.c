#include "facts.h"

#include <libudev.h>
#include <string.h>
#include <unistd.h>

#include "hyperv.h"
#include "util.h"

/* Raw registers only: verdict.c says which are worth a CPUID instruction (each one a VM exit
 * on Hyper-V) and what they mean. */
static void gather_cpuid(struct machine_facts *f, bool full) {
        f->has_cpuid = cpuid_supported();
        if (!f->has_cpuid)
                return;
        cpuid_query(1, &f->leaf1);
        if (!(f->leaf1.ecx & CPUID1_ECX_HYPERVISOR))
                return;
        cpuid_query(HV_LEAF_BASE, &f->base);
        if (verdict_needs_features(f))
                cpuid_query(HV_LEAF_FEATURES, &f->features);
        if (verdict_needs_scan(f, full)) {
                /* Every base Linux's cpuid_base_hypervisor() scans; HV_SCAN_FIRST is f->base. */
                for (unsigned i = 1; i < HV_SCAN_BASES; i++)
                        cpuid_query(HV_SCAN_FIRST + i * HV_SCAN_STEP, &f->higher[i - 1]);
                f->scanned = true;
        }
        if (verdict_needs_hints(f))
                cpuid_query(HV_LEAF_HINTS, &f->hints);
        if (verdict_needs_isolation(f, full)) {
                cpuid_query(HV_LEAF_ISOLATION, &f->isolation);
                f->has_isolation = true;
        }
}

/* arm64's own signal. The table is binary and readable by root only: a report without root
 * says it could not read it and falls back on VMBus and DMI. */
static void gather_fadt(struct machine_facts *f) {
        char buf[4096 + 1];
        long len = read_file_bounded(FADT_PATH, buf, sizeof(buf));

        if (len < 0) {
                f->fadt.result = FADT_UNREAD;
                f->fadt.error = (int) -len;
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

void facts_gather(struct machine_facts *f, struct udev *udev, bool full) {
        memset(f, 0, sizeof(*f));
        /* First: VMBus up settles what DMI could only veto (verdict_needs_dmi()). */
        f->has_vmbus = access("/sys/bus/vmbus", F_OK) == 0;
        gather_cpuid(f, full);
        if (!f->has_cpuid)
                gather_fadt(f);
        if (full || verdict_needs_dmi(f))
                gather_dmi(f, udev);
        if (full && read_file_bounded("/proc/sys/kernel/osrelease", f->osrelease,
                                      sizeof(f->osrelease)) >= 0)
                strip(f->osrelease);
}
