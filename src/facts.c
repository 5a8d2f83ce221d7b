#include "facts.h"

#include <libudev.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static void gather_cpuid(struct machine_facts *f) {
        char sig[13];
        const char *hv;

        f->has_cpuid = cpuid_supported();
        if (!f->has_cpuid)
                return;
        cpuid_query(1, &f->leaf1);
        if (!(f->leaf1.ecx & (1u << 31)))
                return;
        cpuid_query(HV_LEAF_BASE, &f->base);
        cpuid_signature(&f->base, sig);
        if (memcmp(sig, "Microsoft Hv", 12) != 0)
                return;
        cpuid_query(HV_LEAF_FEATURES, &f->features);
        for (uint32_t leaf = HV_LEAF_ALT_FIRST; leaf <= HV_LEAF_ALT_LAST; leaf += HV_LEAF_ALT_STEP) {
                struct cpuid_regs r;

                cpuid_query(leaf, &r);
                cpuid_signature(&r, sig);
                hv = hypervisor_from_signature(sig);
                if (hv && !streq(hv, "microsoft")) {
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

void facts_gather_cpuid(struct machine_facts *f) {
        memset(f, 0, sizeof(*f));
        gather_cpuid(f);
}

void facts_gather_rest(struct machine_facts *f, struct udev *udev, bool full) {
        gather_dmi(f, udev);
        f->has_vmbus = access("/sys/bus/vmbus", F_OK) == 0;
        if (full && read_file_bounded("/proc/sys/kernel/osrelease", f->osrelease,
                                      sizeof(f->osrelease)) >= 0)
                strip(f->osrelease);
}
