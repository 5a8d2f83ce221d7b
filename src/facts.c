#include "facts.h"

#include <libudev.h>
#include <string.h>
#include <unistd.h>

#include "hyperv.h"
#include "util.h"

/* Raw registers only: verdict.c says which are worth a CPUID instruction (each one a VM exit
 * on Hyper-V) and what they mean. */
static void gather_cpuid(struct machine_facts *f) {
        f->has_cpuid = cpuid_supported();
        if (!f->has_cpuid)
                return;
        cpuid_query(1, &f->leaf1);
        if (!(f->leaf1.ecx & CPUID1_ECX_HYPERVISOR))
                return;
        cpuid_query(HV_LEAF_BASE, &f->base);
        if (!verdict_needs_features(f))
                return;
        cpuid_query(HV_LEAF_FEATURES, &f->features);
        if (!verdict_needs_scan(f))
                return;
        /* The bases Linux's hypervisor_cpuid_base() scans; HV_SCAN_FIRST is f->base. */
        for (uint32_t leaf = HV_SCAN_FIRST + HV_SCAN_STEP; leaf <= HV_SCAN_LAST; leaf += HV_SCAN_STEP) {
                struct cpuid_regs r;

                cpuid_query(leaf, &r);
                if (verdict_names_other_hypervisor(&r)) {
                        f->alt_leaf = leaf;
                        f->alt = r;
                        return;
                }
        }
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
        gather_cpuid(f);
        if (full || verdict_needs_dmi(f))
                gather_dmi(f, udev);
        f->has_vmbus = access("/sys/bus/vmbus", F_OK) == 0;
        if (full && read_file_bounded("/proc/sys/kernel/osrelease", f->osrelease,
                                      sizeof(f->osrelease)) >= 0)
                strip(f->osrelease);
}
