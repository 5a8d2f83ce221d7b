#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hyperv.h"
#include "util.h"

const char *const dmi_field_name[DMI_FIELDS] = {
        [DMI_SYS_VENDOR] = "sys_vendor",
        [DMI_PRODUCT_NAME] = "product_name",
        [DMI_PRODUCT_VERSION] = "product_version",
        [DMI_BIOS_VENDOR] = "bios_vendor",
        [DMI_BOARD_VENDOR] = "board_vendor",
        [DMI_CHASSIS_ASSET_TAG] = "chassis_asset_tag",
};

static const struct {
        char sig[13];
        const char *name;
} signatures[] = {
        { HV_SIGNATURE, "microsoft" },
        { "KVMKVMKVM\0\0\0", "kvm" },
        { "Linux KVM Hv", "kvm" },
        { "XenVMMXenVMM", "xen" },
        { "VMwareVMware", "vmware" },
        { "TCGTCGTCGTCG", "qemu" },
        { "bhyve bhyve ", "bhyve" },
        { "VBoxVBoxVBox", "virtualbox" },
        { " lrpepyh  vr", "parallels" },
        { "ACRNACRNACRN", "acrn" },
        { " QNXQVMBSQG ", "qnx" },
        { "Jailhouse\0\0\0", "jailhouse" },
        { "SRESRESRESRE", "sre" },
        { "UnisysSpar64", "unisys" },
};

/* Substrings of DMI vendor and product strings that name a VMM other than Hyper-V. */
static const struct {
        const char *needle;
        const char *name;
} dmi_vmms[] = {
        { "QEMU", "qemu" },
        { "KVM", "kvm" },
        { "Xen", "xen" },
        { "Nutanix", "nutanix" },
        { "VMware", "vmware" },
        { "innotek", "virtualbox" },
        { "VirtualBox", "virtualbox" },
        { "Bochs", "bochs" },
        { "BHYVE", "bhyve" },
        { "Parallels", "parallels" },
        { "OpenStack", "openstack" },
        { "Red Hat", "redhat" },
        { "Amazon EC2", "amazon" },
        { "Google", "google" },
};

static const enum dmi_field veto_fields[] = {
        DMI_SYS_VENDOR, DMI_PRODUCT_NAME, DMI_BIOS_VENDOR, DMI_BOARD_VENDOR,
};

void cpuid_signature(const struct cpuid_regs *r, char sig[13]) {
        memcpy(sig, &r->ebx, 4);
        memcpy(sig + 4, &r->ecx, 4);
        memcpy(sig + 8, &r->edx, 4);
        sig[12] = '\0';
}

const char *hypervisor_from_signature(const char *sig) {
        for (size_t i = 0; i < ELEMENTSOF(signatures); i++)
                if (memcmp(sig, signatures[i].sig, 12) == 0)
                        return signatures[i].name;
        return NULL;
}

const char *verdict_name(enum verdict v) {
        switch (v) {
        case VERDICT_BARE_METAL:
                return "bare-metal";
        case VERDICT_OTHER_HYPERVISOR:
                return "other-hypervisor";
        case VERDICT_HYPERV_GUEST:
                return "hyperv-guest";
        case VERDICT_HYPERV_ROOT:
                return "hyperv-root";
        case VERDICT_UNKNOWN:
                break;
        }
        return "unknown";
}

__attribute__((format(printf, 2, 3)))
static void evidence(struct machine_verdict *v, const char *fmt, ...) {
        va_list ap;

        if (v->n_evidence >= EVIDENCE_MAX)
                return;
        va_start(ap, fmt);
        vsnprintf(v->evidence[v->n_evidence++], EVIDENCE_LEN, fmt, ap);
        va_end(ap);
}

static bool is_microsoft_vm(const struct machine_facts *f) {
        return streq(f->dmi[DMI_SYS_VENDOR], "Microsoft Corporation") &&
               streq(f->dmi[DMI_PRODUCT_NAME], "Virtual Machine");
}

/* The first DMI field that names another VMM, and that VMM. */
static const char *dmi_veto(const struct machine_facts *f, enum dmi_field *field) {
        for (size_t i = 0; i < ELEMENTSOF(veto_fields); i++)
                for (size_t j = 0; j < ELEMENTSOF(dmi_vmms); j++)
                        if (strcasestr(f->dmi[veto_fields[i]], dmi_vmms[j].needle)) {
                                *field = veto_fields[i];
                                return dmi_vmms[j].name;
                        }
        return NULL;
}

static void add_dmi_evidence(const struct machine_facts *f, struct machine_verdict *v,
                             enum dmi_field field, const char *what) {
        char value[64];

        escape_text(f->dmi[field], strlen(f->dmi[field]), value, sizeof(value));
        evidence(v, "DMI %s \"%s\"%s", dmi_field_name[field], value, what);
}

static void decide_flavour(const struct machine_facts *f, struct machine_verdict *v) {
        if (streq(f->dmi[DMI_CHASSIS_ASSET_TAG], AZURE_ASSET_TAG)) {
                v->flavour |= FLAVOUR_AZURE;
                add_dmi_evidence(f, v, DMI_CHASSIS_ASSET_TAG, ": Azure");
        }
        if (strcasestr(f->osrelease, "microsoft") || strcasestr(f->osrelease, "wsl")) {
                char rel[64];

                v->flavour |= FLAVOUR_WSL2;
                escape_text(f->osrelease, strlen(f->osrelease), rel, sizeof(rel));
                evidence(v, "kernel release \"%s\": WSL2", rel);
        }
        if (streq(f->dmi[DMI_BIOS_VENDOR], "Microsoft Corporation")) {
                v->flavour |= FLAVOUR_GEN2;
                add_dmi_evidence(f, v, DMI_BIOS_VENDOR, ": Generation 2 (UEFI)");
        } else if (strncmp(f->dmi[DMI_BIOS_VENDOR], "American Megatrends", 19) == 0) {
                v->flavour |= FLAVOUR_GEN1;
                add_dmi_evidence(f, v, DMI_BIOS_VENDOR, ": Generation 1 (BIOS)");
        }
}

static void decide_without_cpuid(const struct machine_facts *f, struct machine_verdict *v) {
        enum dmi_field field;
        const char *vmm;

        if (f->has_vmbus) {
                evidence(v, "/sys/bus/vmbus exists: Hyper-V's VMBus is present");
        } else if (is_microsoft_vm(f)) {
                evidence(v, "DMI \"Microsoft Corporation\" \"Virtual Machine\"");
        } else if (strncmp(f->dmi[DMI_PRODUCT_VERSION], "Hyper-V", 7) == 0) {
                add_dmi_evidence(f, v, DMI_PRODUCT_VERSION, "");
        } else if ((vmm = dmi_veto(f, &field))) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                v->hypervisor = vmm;
                add_dmi_evidence(f, v, field, ": another hypervisor");
                return;
        } else {
                v->verdict = VERDICT_UNKNOWN;
                evidence(v, "no CPUID, no /sys/bus/vmbus, %s: not Hyper-V",
                         f->has_dmi ? "DMI names no Hyper-V" : "no DMI");
                return;
        }
        v->verdict = VERDICT_HYPERV_GUEST;
        v->hypervisor = "microsoft";
        decide_flavour(f, v);
}

static bool signature_is(const struct cpuid_regs *r, const char *sig) {
        char have[13];

        cpuid_signature(r, have);
        return memcmp(have, sig, 12) == 0;
}

bool verdict_needs_features(const struct machine_facts *f) {
        return f->has_cpuid && (f->leaf1.ecx & CPUID1_ECX_HYPERVISOR) &&
               signature_is(&f->base, HV_SIGNATURE) && f->base.eax >= HV_MAX_LEAF_MIN &&
               f->base.eax <= HV_MAX_LEAF_MAX;
}

/* "Microsoft Hv" as Linux accepts it (ms_hyperv_platform()): maximum leaf in range, hypercall
 * MSR and VP index available. */
static bool hyperv_accepted(const struct machine_facts *f) {
        uint32_t eax = f->features.eax;

        return verdict_needs_features(f) && (eax & HV_EAX_HYPERCALL_MSR) && (eax & HV_EAX_VP_INDEX);
}

/* The root partition: CpuManagement, as every Linux tests it, and Isolation clear, since a
 * confidential guest is a guest whatever else it claims (hv_identify_partition_type()). */
static bool is_root(uint32_t ebx) {
        return (ebx & HV_EBX_CPU_MANAGEMENT) && !(ebx & HV_EBX_ISOLATION);
}

bool verdict_names_other_hypervisor(const struct cpuid_regs *r) {
        char sig[13];
        const char *hv;

        cpuid_signature(r, sig);
        hv = hypervisor_from_signature(sig);
        return hv && !streq(hv, "microsoft");
}

static bool emulated(const struct machine_facts *f) {
        return f->alt_leaf && verdict_names_other_hypervisor(&f->alt);
}

bool verdict_needs_scan(const struct machine_facts *f) {
        return hyperv_accepted(f) && !is_root(f->features.ebx);
}

bool verdict_needs_dmi(const struct machine_facts *f) {
        return !f->has_cpuid || (verdict_needs_scan(f) && !emulated(f));
}

void verdict_decide(const struct machine_facts *f, struct machine_verdict *v) {
        enum dmi_field field;
        const char *vmm;
        char sig[13], text[64];
        uint32_t max = f->base.eax, eax = f->features.eax, ebx = f->features.ebx;

        memset(v, 0, sizeof(*v));
        if (!f->has_cpuid) {
                decide_without_cpuid(f, v);
                return;
        }
        if (!(f->leaf1.ecx & CPUID1_ECX_HYPERVISOR)) {
                v->verdict = VERDICT_BARE_METAL;
                evidence(v, "CPUID 1 ECX bit 31 clear: no hypervisor");
                if (is_microsoft_vm(f))
                        evidence(v, "DMI \"Microsoft Corporation\" \"Virtual Machine\" ignored: "
                                    "on bare metal that is a Surface or Virtual PC");
                return;
        }

        cpuid_signature(&f->base, sig);
        escape_text(sig, strlen(sig), text, sizeof(text));
        if (!signature_is(&f->base, HV_SIGNATURE)) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                v->hypervisor = hypervisor_from_signature(sig);
                evidence(v, "CPUID 0x%08x \"%s\": %s", HV_LEAF_BASE, text,
                         v->hypervisor ? v->hypervisor : "an unknown hypervisor");
                return;
        }
        if (max < HV_MAX_LEAF_MIN || max > HV_MAX_LEAF_MAX) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                evidence(v, "CPUID 0x%08x \"%s\" with max leaf 0x%08x, outside 0x%08x-0x%08x: "
                            "not a Hyper-V Linux accepts", HV_LEAF_BASE, HV_SIGNATURE, max,
                         HV_MAX_LEAF_MIN, HV_MAX_LEAF_MAX);
                return;
        }
        if (!(eax & HV_EAX_HYPERCALL_MSR) || !(eax & HV_EAX_VP_INDEX)) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                evidence(v, "CPUID 0x%08x EAX 0x%08x lacks the hypercall MSR (bit 5) or "
                            "VP index (bit 6): not a Hyper-V Linux accepts", HV_LEAF_FEATURES, eax);
                return;
        }
        evidence(v, "CPUID 0x%08x \"%s\", max leaf 0x%08x; 0x%08x EAX 0x%08x: hypercall MSR "
                    "and VP index available", HV_LEAF_BASE, HV_SIGNATURE, max, HV_LEAF_FEATURES,
                 eax);

        /* Before the scan and the DMI veto: on the root DMI names the physical machine's maker
         * (Nutanix, Amazon EC2), and another hypervisor emulating Hyper-V claiming the root's
         * privileges would have its disks left alone just the same. */
        if (is_root(ebx)) {
                v->verdict = VERDICT_HYPERV_ROOT;
                v->hypervisor = "microsoft";
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CpuManagement set, Isolation clear: the "
                            "root partition (the host), its disks are physical",
                         HV_LEAF_FEATURES, ebx);
                return;
        }
        if (emulated(f)) {
                char alt[13];
                const char *hv;

                cpuid_signature(&f->alt, alt);
                hv = hypervisor_from_signature(alt);
                escape_text(alt, strlen(alt), text, sizeof(text));
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                v->hypervisor = hv;
                evidence(v, "CPUID 0x%08x \"%s\": %s emulating Hyper-V", f->alt_leaf, text, hv);
                return;
        }
        if ((vmm = dmi_veto(f, &field))) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                v->hypervisor = vmm;
                add_dmi_evidence(f, v, field, ": another hypervisor emulating Hyper-V");
                return;
        }
        if (!f->has_dmi)
                evidence(v, "no DMI (as in WSL2): nothing vetoes");

        v->verdict = VERDICT_HYPERV_GUEST;
        v->hypervisor = "microsoft";
        if (ebx & HV_EBX_ISOLATION) {
                evidence(v, "CPUID 0x%08x EBX 0x%08x: Isolation set: a confidential guest",
                         HV_LEAF_FEATURES, ebx);
        } else if (ebx & HV_EBX_CREATE_PARTITIONS) {
                v->flavour |= FLAVOUR_L1VH;
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions set, CpuManagement clear: "
                            "an L1VH partition, a guest that hosts VMs of its own", HV_LEAF_FEATURES,
                         ebx);
        } else {
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions and CpuManagement clear: "
                            "a guest", HV_LEAF_FEATURES, ebx);
        }
        decide_flavour(f, v);
}
