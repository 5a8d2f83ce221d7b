#include "verdict.h"

#include <errno.h>
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

/* How the kernel's detect for a hypervisor answers, as a priority (detect_hypervisor_vendor()
 * of Linux 6.12.118, arch/x86/kernel/cpu/hypervisor.c). */
enum detect {
        DETECT_NONE,        /* the kernel knows no such hypervisor: only its name is read */
        DETECT_LOWEST_BASE, /* the lowest base with its signature and leaves more leaves */
        DETECT_AT_BASE,     /* its signature at 0x40000000 only: 0x40000000 (vmware_platform()) */
        DETECT_HYPERV,      /* ms_hyperv_platform(): 0x40000000 where Linux accepts Hyper-V */
        DETECT_MAX_LEAF,    /* its maximum leaf, at the lowest base with its signature */
};

/* Every vendor signature, those the kernel detects first and in its order (Xen PV, told so at
 * boot and not by CPUID, left out; bhyve, which 6.12.118 lacks, last as later kernels add it),
 * then the ones only named. */
static const struct {
        char sig[13];
        const char *name;
        enum detect detect;
        uint32_t leaves;
} signatures[] = {
        { "XenVMMXenVMM", "xen", DETECT_LOWEST_BASE, 2 }, /* xen_platform_hvm(), xen_cpuid_base() */
        { "VMwareVMware", "vmware", DETECT_AT_BASE, 0 },
        { HV_SIGNATURE, "microsoft", DETECT_HYPERV, 0 },
        { "KVMKVMKVM\0\0\0", "kvm", DETECT_LOWEST_BASE, 0 },      /* kvm_detect() */
        { "Jailhouse\0\0\0", "jailhouse", DETECT_LOWEST_BASE, 0 }, /* jailhouse_detect() */
        { "ACRNACRNACRN", "acrn", DETECT_LOWEST_BASE, 0 },        /* acrn_detect() */
        { "bhyve bhyve ", "bhyve", DETECT_MAX_LEAF, 0 },          /* bhyve_detect() */
        { "Linux KVM Hv", "kvm", DETECT_NONE, 0 },
        { "TCGTCGTCGTCG", "qemu", DETECT_NONE, 0 },
        { "VBoxVBoxVBox", "virtualbox", DETECT_NONE, 0 },
        { " lrpepyh  vr", "parallels", DETECT_NONE, 0 },
        { " QNXQVMBSQG ", "qnx", DETECT_NONE, 0 },
        { "SRESRESRESRE", "sre", DETECT_NONE, 0 },
        { "UnisysSpar64", "unisys", DETECT_NONE, 0 },
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

/* The arm64 test of the 2025 series, hyperv_detect_via_acpi() (read as posted; Linux 6.12.118's
 * hyperv_init() compared hypervisor_id alone): revision 6 or later (the first with the field)
 * and hypervisor_id "MsHyperV". A table shorter than the field has none: the kernel's
 * copy of the FADT is zero-filled beyond the table's length. */
void fadt_parse(const unsigned char *buf, size_t len, struct fadt_facts *out) {
        uint32_t length;

        memset(out, 0, sizeof(*out));
        out->result = FADT_NOT_HYPERV;
        if (len < FADT_HEADER_LEN || memcmp(buf, "FACP", 4) != 0) {
                out->foreign = true;
                out->why = "not an ACPI FADT";
                return;
        }
        length = (uint32_t) buf[4] | (uint32_t) buf[5] << 8 | (uint32_t) buf[6] << 16 |
                 (uint32_t) buf[7] << 24;
        out->revision = buf[8];
        if (length > len) {
                out->why = "shorter than its header says";
                return;
        }
        if (out->revision < FADT_MIN_REVISION) {
                out->why = "revision below 6, no hypervisor_id";
                return;
        }
        if (length < FADT_HYPERVISOR_ID_END) {
                out->why = "shorter than 276 bytes, no hypervisor_id";
                return;
        }
        if (memcmp(buf + FADT_HYPERVISOR_ID_OFF, FADT_HYPERV_ID, 8) != 0) {
                out->why = "hypervisor_id is not \"MsHyperV\"";
                return;
        }
        out->result = FADT_HYPERV;
}

static void guest_without_cpuid(const struct machine_facts *f, struct machine_verdict *v) {
        v->verdict = VERDICT_HYPERV_GUEST;
        v->hypervisor = "microsoft";
        decide_flavour(f, v);
}

/* Without CPUID (arm64, and s390x, ppc64el, riscv64, which have no Hyper-V): the FADT first,
 * as arm64's kernel; /sys/bus/vmbus and DMI only where it cannot be read (a report without
 * root, a boot without ACPI). */
static void decide_without_cpuid(const struct machine_facts *f, struct machine_verdict *v) {
        enum dmi_field field;
        const char *vmm;

        switch (f->fadt.result) {
        case FADT_HYPERV:
                evidence(v, "ACPI FADT revision %u, hypervisor_id \"%s\": Hyper-V, as Linux's "
                            "hyperv_detect_via_acpi() decides", f->fadt.revision, FADT_HYPERV_ID);
                guest_without_cpuid(f, v);
                return;
        case FADT_NOT_HYPERV:
                if (f->fadt.foreign)
                        evidence(v, "'%s' is not an ACPI FADT", FADT_PATH);
                else
                        evidence(v, "ACPI FADT revision %u: %s", f->fadt.revision, f->fadt.why);
                /* Linux also asks the firmware through SMCCC, which userspace cannot; VMBus
                 * registered means it found Hyper-V that way. */
                if (f->has_vmbus) {
                        evidence(v, "/sys/bus/vmbus exists: Linux found Hyper-V without the FADT");
                        guest_without_cpuid(f, v);
                } else if ((vmm = dmi_veto(f, &field))) {
                        v->verdict = VERDICT_OTHER_HYPERVISOR;
                        v->hypervisor = vmm;
                        add_dmi_evidence(f, v, field, ": another hypervisor");
                } else {
                        v->verdict = VERDICT_UNKNOWN;
                        evidence(v, "no /sys/bus/vmbus: not Hyper-V");
                }
                return;
        case FADT_UNREAD:
                break;
        }
        /* A boot from a DeviceTree has no ACPI: Linux then asks the firmware for Hyper-V's
         * SMCCC vendor UUID (arch/arm64/hyperv/mshyperv.c), which user space cannot. */
        if (f->fadt.error == ENOENT)
                evidence(v, "no ACPI FADT (a DeviceTree boot): Linux asks the firmware through "
                            "SMCCC, which user space cannot; deciding from /sys/bus/vmbus and DMI");
        else if (f->fadt.error)
                evidence(v, "cannot read '%s': %s: deciding from /sys/bus/vmbus and DMI", FADT_PATH,
                         read_error_text(f->fadt.error, f->fadt.type));
        if (f->has_vmbus) {
                evidence(v, "/sys/bus/vmbus exists: Linux found Hyper-V and set up VMBus");
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
        guest_without_cpuid(f, v);
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

/* A root's privileges as hv_identify_partition_type() tests them (hv_common.c at torvalds/linux
 * 04df7ac39943; 6.15 on): CreatePartitions and CpuManagement, Isolation clear, since a
 * confidential guest is a guest whatever else it claims. Linux 6.12.118's
 * ms_hyperv_init_platform() tested CpuManagement alone. Whether the kernel then ran as the root
 * (it needs CONFIG_MSHV_ROOT at that commit) only VMBus tells: verdict_decide(). */
static bool is_root(uint32_t ebx) {
        return (ebx & HV_EBX_CREATE_PARTITIONS) && (ebx & HV_EBX_CPU_MANAGEMENT) &&
               !(ebx & HV_EBX_ISOLATION);
}

/* The bases read: 0x40000000 always, the higher ones once scanned. */
static const struct cpuid_regs *base_at(const struct machine_facts *f, unsigned i) {
        if (i == 0)
                return &f->base;
        return f->scanned ? &f->higher[i - 1] : NULL;
}

/* The kernel's hypervisor CPUID base lookup (hypervisor_cpuid_base(sig, leaves), as kvm.c of
 * Linux 6.12.118 calls it; later renamed cpuid_base_hypervisor()): the
 * lowest base with the signature and, where leaves is not 0, a maximum leaf at least that far
 * above it (unsigned, as the kernel subtracts). Sets *index; returns 0 when none. */
static uint32_t lowest_base(const struct machine_facts *f, const char *sig, uint32_t leaves,
                            unsigned *index) {
        const struct cpuid_regs *r;

        for (unsigned i = 0; i < HV_SCAN_BASES && (r = base_at(f, i)); i++) {
                uint32_t base = HV_SCAN_FIRST + i * HV_SCAN_STEP;

                if (signature_is(r, sig) && (leaves == 0 || r->eax - base >= leaves)) {
                        *index = i;
                        return base;
                }
        }
        return 0;
}

struct pick {
        const char *name; /* NULL: Linux finds no hypervisor it knows */
        uint32_t leaf;    /* where it found it */
};

/* The priority the kernel's detect for signatures[i] answers; *leaf where it found it. */
static uint32_t detect_priority(const struct machine_facts *f, size_t i, uint32_t *leaf) {
        unsigned index = 0;

        *leaf = HV_LEAF_BASE;
        switch (signatures[i].detect) {
        case DETECT_AT_BASE:
                return signature_is(&f->base, signatures[i].sig) ? HV_LEAF_BASE : 0;
        case DETECT_HYPERV:
                return hyperv_accepted(f) ? HV_LEAF_BASE : 0;
        case DETECT_LOWEST_BASE:
                return *leaf = lowest_base(f, signatures[i].sig, signatures[i].leaves, &index);
        case DETECT_MAX_LEAF:
                *leaf = lowest_base(f, signatures[i].sig, 0, &index);
                return *leaf ? base_at(f, index)->eax : 0;
        case DETECT_NONE:
                break;
        }
        return 0;
}

/* detect_hypervisor_vendor(): every hypervisor's detect returns a priority, the highest wins
 * and, at equal priority, the earlier in the kernel's list. */
static void linux_pick(const struct machine_facts *f, struct pick *p) {
        uint32_t best = 0;

        p->name = NULL;
        p->leaf = 0;
        for (size_t i = 0; i < ELEMENTSOF(signatures); i++) {
                uint32_t leaf, pri = detect_priority(f, i, &leaf);

                if (pri > best) {
                        best = pri;
                        p->name = signatures[i].name;
                        p->leaf = leaf;
                }
        }
}

bool verdict_needs_scan(const struct machine_facts *f, bool full) {
        return hyperv_accepted(f) ||
               (full && f->has_cpuid && (f->leaf1.ecx & CPUID1_ECX_HYPERVISOR));
}

bool verdict_needs_hints(const struct machine_facts *f) {
        return hyperv_accepted(f) && is_root(f->features.ebx);
}

bool verdict_needs_isolation(const struct machine_facts *f, bool full) {
        return full && hyperv_accepted(f) && (f->features.ebx & HV_EBX_ISOLATION);
}

static bool linux_picks_hyperv(const struct machine_facts *f) {
        struct pick p;

        linux_pick(f, &p);
        return streq(p.name, "microsoft");
}

uint32_t verdict_next_leaf(const struct machine_facts *f, bool full) {
        uint32_t last = f->last_leaf;

        switch (last) {
        case 0:
                return f->has_cpuid ? 1 : 0;
        case 1:
                return f->leaf1.ecx & CPUID1_ECX_HYPERVISOR ? HV_LEAF_BASE : 0;
        case HV_LEAF_BASE:
                if (verdict_needs_features(f))
                        return HV_LEAF_FEATURES;
                /* fall through */
        case HV_LEAF_FEATURES:
                if (verdict_needs_scan(f, full))
                        return HV_SCAN_FIRST + HV_SCAN_STEP;
                break;
        case HV_LEAF_HINTS:
                return verdict_needs_isolation(f, full) ? HV_LEAF_ISOLATION : 0;
        case HV_LEAF_ISOLATION:
                return 0;
        default: /* a higher base of the scan */
                if (last < HV_SCAN_LAST)
                        return last + HV_SCAN_STEP;
                break;
        }
        /* after the scan, or where there is none */
        if (verdict_needs_hints(f))
                return HV_LEAF_HINTS;
        return verdict_needs_isolation(f, full) ? HV_LEAF_ISOLATION : 0;
}

void verdict_record_leaf(struct machine_facts *f, uint32_t leaf, const struct cpuid_regs *r) {
        f->last_leaf = leaf;
        switch (leaf) {
        case 1:
                f->leaf1 = *r;
                return;
        case HV_LEAF_BASE:
                f->base = *r;
                return;
        case HV_LEAF_FEATURES:
                f->features = *r;
                return;
        case HV_LEAF_HINTS:
                f->hints = *r;
                return;
        case HV_LEAF_ISOLATION:
                f->isolation = *r;
                f->has_isolation = true;
                return;
        default:
                break;
        }
        if (leaf > HV_SCAN_FIRST && leaf <= HV_SCAN_LAST && (leaf - HV_SCAN_FIRST) % HV_SCAN_STEP == 0) {
                f->higher[(leaf - HV_SCAN_FIRST) / HV_SCAN_STEP - 1] = *r;
                f->scanned = leaf == HV_SCAN_LAST;
        }
}

bool verdict_needs_dmi(const struct machine_facts *f) {
        return !f->has_vmbus &&
               (!f->has_cpuid || (linux_picks_hyperv(f) && !is_root(f->features.ebx)));
}

bool verdict_vmbus_disks_are_synthetic(const struct machine_verdict *v) {
        return v->verdict == VERDICT_HYPERV_GUEST ||
               (v->verdict == VERDICT_HYPERV_ROOT && (v->flavour & FLAVOUR_NESTED));
}

static const char *const isolation_names[] = {
        [ISOLATION_NONE] = "none",
        [ISOLATION_VBS] = "VBS",
        [ISOLATION_SNP] = "SEV-SNP",
        [ISOLATION_TDX] = "TDX",
};

const char *isolation_name(int type) {
        return type >= 0 && (size_t) type < ELEMENTSOF(isolation_names) ? isolation_names[type]
                                                                        : NULL;
}

static void decide_confidential(const struct machine_facts *f, struct machine_verdict *v) {
        uint32_t eax = f->isolation.eax, ebx = f->isolation.ebx;
        const char *name;

        v->flavour |= FLAVOUR_CONFIDENTIAL;
        evidence(v, "CPUID 0x%08x EBX 0x%08x: Isolation set: a confidential guest",
                 HV_LEAF_FEATURES, f->features.ebx);
        if (!f->has_isolation)
                return;
        v->isolation = (int) (ebx & HV_EBX_ISOLATION_TYPE);
        v->paravisor = (eax & HV_EAX_PARAVISOR_PRESENT) != 0;
        name = isolation_name(v->isolation);
        evidence(v, "CPUID 0x%08x EBX 0x%08x: isolation type %d (%s); EAX 0x%08x: paravisor %s",
                 HV_LEAF_ISOLATION, ebx, v->isolation, name ? name : "unknown", eax,
                 v->paravisor ? "present" : "absent");
}

/* The signature at the base where Linux found the hypervisor it picks, for the evidence. */
static void picked_evidence(const struct machine_facts *f, struct machine_verdict *v,
                            const struct pick *p, bool emulating) {
        char sig[13], text[64];

        cpuid_signature(base_at(f, (p->leaf - HV_SCAN_FIRST) / HV_SCAN_STEP), sig);
        escape_text(sig, strlen(sig), text, sizeof(text));
        if (emulating)
                evidence(v, "CPUID 0x%08x \"%s\": %s emulating Hyper-V; Linux picks the "
                            "hypervisor found at the highest base", p->leaf, text, p->name);
        else
                evidence(v, "CPUID 0x%08x \"%s\": Linux picks %s, found at the highest base",
                         p->leaf, text, p->name);
}

/* A hypervisor bit, and no Hyper-V that Linux accepts at 0x40000000. */
static void decide_not_accepted(const struct machine_facts *f, struct machine_verdict *v,
                                const struct pick *pick) {
        uint32_t max = f->base.eax;
        char sig[13], text[64];

        cpuid_signature(&f->base, sig);
        escape_text(sig, strlen(sig), text, sizeof(text));
        v->verdict = VERDICT_OTHER_HYPERVISOR;
        if (!signature_is(&f->base, HV_SIGNATURE)) {
                v->hypervisor = hypervisor_from_signature(sig);
                evidence(v, "CPUID 0x%08x \"%s\": %s", HV_LEAF_BASE, text,
                         v->hypervisor ? v->hypervisor : "an unknown hypervisor");
        } else if (max < HV_MAX_LEAF_MIN || max > HV_MAX_LEAF_MAX) {
                evidence(v, "CPUID 0x%08x \"%s\" with max leaf 0x%08x, outside "
                            "0x%08x-0x%08x: not a Hyper-V Linux accepts", HV_LEAF_BASE,
                         HV_SIGNATURE, max, HV_MAX_LEAF_MIN, HV_MAX_LEAF_MAX);
        } else {
                evidence(v, "CPUID 0x%08x EAX 0x%08x lacks the hypercall MSR (bit 5) or "
                            "VP index (bit 6): not a Hyper-V Linux accepts",
                         HV_LEAF_FEATURES, f->features.eax);
        }
        if (pick->name && pick->leaf != HV_LEAF_BASE)
                picked_evidence(f, v, pick, false);
        if (pick->name)
                v->hypervisor = pick->name;
}

/* A root's privileges: the root, unless VMBus came up on a root that is not nested. Returns
 * whether the verdict is settled (the root); otherwise the partition is decided as a guest. */
static bool decide_root(const struct machine_facts *f, struct machine_verdict *v) {
        uint32_t ebx = f->features.ebx, hints = f->hints.eax;

        if (!(hints & HV_EAX_NESTED) && f->has_vmbus) {
                /* VMBus up is the running kernel's own verdict: hv_acpi_init() skips a root
                 * that is not nested, and a kernel without CONFIG_MSHV_ROOT keeps the partition
                 * a guest whatever its privileges (hv_identify_partition_type()). */
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions and CpuManagement set, "
                            "Isolation clear: a root's privileges", HV_LEAF_FEATURES, ebx);
                evidence(v, "CPUID 0x%08x EAX 0x%08x: bit 12 (nested) clear, yet /sys/bus/vmbus "
                            "exists: this kernel runs as a guest (no CONFIG_MSHV_ROOT)",
                         HV_LEAF_HINTS, hints);
                return false;
        }
        v->verdict = VERDICT_HYPERV_ROOT;
        v->hypervisor = "microsoft";
        evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions and CpuManagement set, "
                    "Isolation clear: the root partition (the host)", HV_LEAF_FEATURES, ebx);
        if (hints & HV_EAX_NESTED) {
                v->flavour |= FLAVOUR_NESTED;
                evidence(v, "CPUID 0x%08x EAX 0x%08x: bit 12 (nested) set: inside another "
                            "Hyper-V's VM, whose synthetic disks are on VMBus", HV_LEAF_HINTS,
                         hints);
        } else {
                evidence(v, "CPUID 0x%08x EAX 0x%08x: bit 12 (nested) clear: its disks are "
                            "physical", HV_LEAF_HINTS, hints);
        }
        return true;
}

/* What a guest's privileges make it; a root's were said by decide_root(). */
static void guest_privileges(const struct machine_facts *f, struct machine_verdict *v) {
        uint32_t ebx = f->features.ebx;

        if (ebx & HV_EBX_ISOLATION) {
                decide_confidential(f, v);
        } else if (is_root(ebx)) {
                return;
        } else if (ebx & HV_EBX_CREATE_PARTITIONS) {
                v->flavour |= FLAVOUR_L1VH;
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions set, CpuManagement clear: "
                            "an L1VH partition, a guest that hosts VMs of its own", HV_LEAF_FEATURES,
                         ebx);
        } else if (ebx & HV_EBX_CPU_MANAGEMENT) {
                /* Linux 6.12.118's ms_hyperv_init_platform() takes CpuManagement alone for the
                 * root, and registers no VMBus on it: VMBus settles which kernel this is. */
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CpuManagement set, CreatePartitions clear: a "
                            "guest to Linux 6.15 on, the root before 6.15; %s", HV_LEAF_FEATURES,
                         ebx, f->has_vmbus ? "/sys/bus/vmbus exists: this kernel runs as a guest"
                                           : "no /sys/bus/vmbus");
        } else {
                evidence(v, "CPUID 0x%08x EBX 0x%08x: CreatePartitions and CpuManagement clear: "
                            "a guest", HV_LEAF_FEATURES, ebx);
        }
}

/* Hyper-V accepted and picked by Linux: the root, a guest, or (DMI) another hypervisor. */
static void decide_hyperv(const struct machine_facts *f, struct machine_verdict *v) {
        enum dmi_field field;
        const char *vmm;

        /* Before the DMI veto: on the root DMI names the physical machine's maker (Nutanix,
         * Amazon EC2). */
        if (is_root(f->features.ebx) && decide_root(f, v))
                return;
        /* With VMBus up Linux already runs as a Hyper-V guest: DMI names the firmware's maker,
         * and vetoes only where nothing else tells (as systemd-detect-virt does). */
        if ((vmm = dmi_veto(f, &field))) {
                if (!f->has_vmbus) {
                        v->verdict = VERDICT_OTHER_HYPERVISOR;
                        v->hypervisor = vmm;
                        add_dmi_evidence(f, v, field, ": another hypervisor emulating Hyper-V");
                        return;
                }
                add_dmi_evidence(f, v, field, ": another hypervisor's name, but /sys/bus/vmbus "
                                              "exists: Linux runs as a Hyper-V guest");
        }
        if (!f->has_dmi)
                evidence(v, "no DMI (as in WSL2): nothing vetoes");

        v->verdict = VERDICT_HYPERV_GUEST;
        v->hypervisor = "microsoft";
        guest_privileges(f, v);
        /* Linux 6.18 builds hv_vmbus only with CONFIG_HYPERV_VMBUS (drivers/hv/Kconfig, from
         * 94b04355e639 "Drivers: hv: Add CONFIG_HYPERV_VMBUS option"), on which storvsc
         * (CONFIG_HYPERV_STORAGE) depends: a kernel with Hyper-V guest support can have neither. */
        if (!f->has_vmbus)
                evidence(v, "no /sys/bus/vmbus: VMBus is not up (hv_vmbus not loaded, or not built, "
                            "as Linux 6.18 allows; or a host too old for this kernel's VMBus): a "
                            "guest with no VMBus disk, nothing to change");
        decide_flavour(f, v);
}

void verdict_decide(const struct machine_facts *f, struct machine_verdict *v) {
        struct pick pick;

        memset(v, 0, sizeof(*v));
        v->isolation = v->paravisor = -1;
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
        linux_pick(f, &pick);
        if (!hyperv_accepted(f)) {
                decide_not_accepted(f, v, &pick);
                return;
        }
        evidence(v, "CPUID 0x%08x \"%s\", max leaf 0x%08x; 0x%08x EAX 0x%08x: hypercall MSR "
                    "and VP index available", HV_LEAF_BASE, HV_SIGNATURE, f->base.eax,
                 HV_LEAF_FEATURES, f->features.eax);
        /* Another hypervisor emulating Hyper-V puts its own signature at a higher base; Linux
         * picks it, root privileges or not. */
        if (!streq(pick.name, "microsoft")) {
                v->verdict = VERDICT_OTHER_HYPERVISOR;
                v->hypervisor = pick.name;
                picked_evidence(f, v, &pick, true);
                return;
        }
        decide_hyperv(f, v);
}
