/* The machine verdict: each machine is built by hand from the CPUID registers and DMI strings
 * the real one reports, and must get the verdict, hypervisor, flavour and evidence it deserves. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hyperv.h"
#include "unit.h"
#include "util.h"
#include "verdict.h"

/* 0x40000003 EAX on Hyper-V 2019 and Azure; bits 5 (hypercall MSR) and 6 (VP index) set. */
#define HV_FEATURES 0x0000ae7fu

struct machine {
        const char *name;
        bool no_cpuid;          /* arm64 */
        bool no_hypervisor;     /* CPUID 1 ECX bit 31 clear */
        const char *sig;        /* the 12 bytes at 0x40000000, NULL for none */
        uint32_t max, eax, ebx; /* 0x40000000 EAX; 0x40000003 EAX and EBX */
        uint32_t alt_leaf;      /* a higher base with alt_sig and maximum leaf alt_max */
        const char *alt_sig;
        uint32_t alt_max;
        uint32_t alt2_leaf;     /* a second one */
        const char *alt2_sig;
        uint32_t alt2_max;
        uint32_t hints;         /* 0x40000004 EAX */
        bool has_iso;           /* 0x4000000C read, with these registers */
        uint32_t iso_eax, iso_ebx;
        struct fadt_facts fadt; /* no_cpuid only */
        const char *dmi[DMI_FIELDS]; /* all NULL: no DMI at all */
        bool has_vmbus;
        const char *osrelease;

        enum verdict verdict;
        const char *hypervisor;
        unsigned flavour;
        const char *evidence[2]; /* what some evidence line must mention */
        int isolation, paravisor; /* when has_iso: expected; else -1 is expected */
};

#define HYPERV(max_, eax_, ebx_) .sig = HV_SIGNATURE, .max = (max_), .eax = (eax_), .ebx = (ebx_)
#define HYPERV_GUEST             HYPERV(0x4000000bu, HV_FEATURES, 0)
#define OTHER(sig_, max_)        .sig = (sig_), .max = (max_)

#define DMI_GEN2(asset_tag)                                                                        \
        .dmi = {                                                                                   \
                [DMI_SYS_VENDOR] = "Microsoft Corporation",                                        \
                [DMI_PRODUCT_NAME] = "Virtual Machine",                                            \
                [DMI_PRODUCT_VERSION] = "Hyper-V UEFI Release v4.1",                               \
                [DMI_BIOS_VENDOR] = "Microsoft Corporation",                                       \
                [DMI_BOARD_VENDOR] = "Microsoft Corporation",                                      \
                [DMI_CHASSIS_ASSET_TAG] = (asset_tag),                                             \
        }
#define DMI_QEMU                                                                                   \
        .dmi = {                                                                                   \
                [DMI_SYS_VENDOR] = "QEMU",                                                         \
                [DMI_PRODUCT_NAME] = "Standard PC (Q35 + ICH9, 2009)",                             \
                [DMI_PRODUCT_VERSION] = "pc-q35-7.2",                                              \
                [DMI_BIOS_VENDOR] = "SeaBIOS",                                                     \
        }
#define LOCAL_ASSET_TAG "4405-6826-0566-0735-3540-1808-37"

/* A 12-byte signature as the processor returns it: four bytes each in EBX, ECX and EDX, the
 * first byte in the lowest bits. */
static void set_signature(struct cpuid_regs *r, const char *sig) {
        const unsigned char *s = (const unsigned char *) sig;
        uint32_t *reg[3] = { &r->ebx, &r->ecx, &r->edx };

        for (int i = 0; i < 3; i++)
                *reg[i] = (uint32_t) s[4 * i] | (uint32_t) s[4 * i + 1] << 8 |
                          (uint32_t) s[4 * i + 2] << 16 | (uint32_t) s[4 * i + 3] << 24;
}

static void build_facts(const struct machine *m, struct machine_facts *f) {
        memset(f, 0, sizeof(*f));
        f->has_cpuid = !m->no_cpuid;
        if (f->has_cpuid && !m->no_hypervisor)
                f->leaf1.ecx = CPUID1_ECX_HYPERVISOR;
        if (m->sig) {
                set_signature(&f->base, m->sig);
                f->base.eax = m->max;
        }
        f->features.eax = m->eax;
        f->features.ebx = m->ebx;
        f->hints.eax = m->hints;
        /* Every base read, as a report reads them. */
        f->scanned = m->sig != NULL;
        if (m->alt_sig) {
                struct cpuid_regs *r = &f->higher[(m->alt_leaf - HV_SCAN_FIRST) / HV_SCAN_STEP - 1];

                set_signature(r, m->alt_sig);
                r->eax = m->alt_max ? m->alt_max : m->alt_leaf + 1;
        }
        if (m->alt2_sig) {
                struct cpuid_regs *r = &f->higher[(m->alt2_leaf - HV_SCAN_FIRST) / HV_SCAN_STEP - 1];

                set_signature(r, m->alt2_sig);
                r->eax = m->alt2_max ? m->alt2_max : m->alt2_leaf + 1;
        }
        f->has_isolation = m->has_iso;
        f->isolation.eax = m->iso_eax;
        f->isolation.ebx = m->iso_ebx;
        f->fadt = m->fadt;
        for (int i = 0; i < DMI_FIELDS; i++)
                if (m->dmi[i]) {
                        f->has_dmi = true;
                        ck_assert(copy_string(f->dmi[i], m->dmi[i], sizeof(f->dmi[i])));
                }
        f->has_vmbus = m->has_vmbus;
        if (m->osrelease)
                ck_assert(copy_string(f->osrelease, m->osrelease, sizeof(f->osrelease)));
}

static bool evidence_mentions(const struct machine_verdict *v, const char *needle) {
        for (unsigned i = 0; i < v->n_evidence; i++)
                if (strstr(v->evidence[i], needle))
                        return true;
        return false;
}

static void assert_evidence(const char *name, const struct machine_verdict *v,
                            const char *needle) {
        char all[EVIDENCE_MAX * (EVIDENCE_LEN + 3)] = "";

        if (evidence_mentions(v, needle))
                return;
        for (unsigned i = 0; i < v->n_evidence && i < EVIDENCE_MAX; i++) {
                strcat(all, " | ");
                strncat(all, v->evidence[i], EVIDENCE_LEN - 1);
        }
        ck_abort_msg("%s: no evidence mentions '%s':%s", name, needle, all);
}

static void check_machine(const struct machine *m) {
        struct machine_facts f;
        struct machine_verdict v;

        build_facts(m, &f);
        /* Stale contents must not leak into the verdict. */
        memset(&v, 0xa5, sizeof(v));
        verdict_decide(&f, &v);

        ck_assert_msg(v.verdict == m->verdict, "%s: verdict %s, expected %s", m->name,
                      verdict_name(v.verdict), verdict_name(m->verdict));
        ck_assert_msg((v.hypervisor == NULL) == (m->hypervisor == NULL) &&
                              (!m->hypervisor || strcmp(v.hypervisor, m->hypervisor) == 0),
                      "%s: hypervisor '%s', expected '%s'", m->name,
                      v.hypervisor ? v.hypervisor : "(null)", m->hypervisor ? m->hypervisor : "(null)");
        ck_assert_msg(v.flavour == m->flavour, "%s: flavour 0x%x, expected 0x%x", m->name, v.flavour,
                      m->flavour);
        ck_assert_msg(v.isolation == (m->has_iso ? m->isolation : -1) &&
                              v.paravisor == (m->has_iso ? m->paravisor : -1),
                      "%s: isolation %d paravisor %d", m->name, v.isolation, v.paravisor);
        ck_assert_msg(v.n_evidence > 0 && v.n_evidence <= EVIDENCE_MAX, "%s: %u evidence lines",
                      m->name, v.n_evidence);
        for (unsigned i = 0; i < v.n_evidence; i++)
                ck_assert_msg(v.evidence[i][0] != '\0' &&
                                      memchr(v.evidence[i], '\0', EVIDENCE_LEN) != NULL,
                              "%s: evidence line %u empty or unterminated", m->name, i);
        for (size_t i = 0; i < ELEMENTSOF(m->evidence); i++)
                if (m->evidence[i])
                        assert_evidence(m->name, &v, m->evidence[i]);
}

static const struct machine hyperv_machines[] = {
        {
                .name = "Hyper-V Generation 2",
                HYPERV_GUEST, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "CreatePartitions and CpuManagement clear: a guest",
                              "bios_vendor \"Microsoft Corporation\": Generation 2" },
        },
        {
                .name = "Hyper-V Generation 1",
                HYPERV_GUEST,
                .dmi = {
                        [DMI_SYS_VENDOR] = "Microsoft Corporation",
                        [DMI_PRODUCT_NAME] = "Virtual Machine",
                        [DMI_PRODUCT_VERSION] = "7.0",
                        [DMI_BIOS_VENDOR] = "American Megatrends Inc.",
                        [DMI_BOARD_VENDOR] = "Microsoft Corporation",
                        [DMI_CHASSIS_ASSET_TAG] = LOCAL_ASSET_TAG,
                },
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN1,
                .evidence = { "bios_vendor \"American Megatrends Inc.\": Generation 1" },
        },
        {
                .name = "Azure Generation 2",
                HYPERV_GUEST, DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "chassis_asset_tag \"" AZURE_ASSET_TAG "\": Azure" },
        },
        {
                .name = "Azure Generation 1",
                HYPERV_GUEST,
                .dmi = {
                        [DMI_SYS_VENDOR] = "Microsoft Corporation",
                        [DMI_PRODUCT_NAME] = "Virtual Machine",
                        [DMI_PRODUCT_VERSION] = "7.0",
                        [DMI_BIOS_VENDOR] = "American Megatrends Inc.",
                        [DMI_CHASSIS_ASSET_TAG] = AZURE_ASSET_TAG,
                },
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN1,
                .evidence = { ": Azure", "Generation 1" },
        },
        {
                .name = "WSL2",
                HYPERV_GUEST, .osrelease = "5.15.153.1-microsoft-standard-WSL2",
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_WSL2,
                .evidence = { "no DMI (as in WSL2)",
                              "\"5.15.153.1-microsoft-standard-WSL2\": WSL2" },
        },
        {
                /* The first WSL2 kernels did not say WSL2. */
                .name = "WSL2 with a 4.19 kernel",
                HYPERV_GUEST, .osrelease = "4.19.128-microsoft-standard",
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_WSL2,
                .evidence = { "\"4.19.128-microsoft-standard\": WSL2" },
        },
        {
                .name = "WSL2 with a self-built kernel",
                HYPERV_GUEST, .osrelease = "6.6.36.3-WSL2-custom",
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_WSL2,
                .evidence = { "\"6.6.36.3-WSL2-custom\": WSL2" },
        },
        {
                .name = "root partition (the Hyper-V host)",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT),
                .dmi = {
                        [DMI_SYS_VENDOR] = "Dell Inc.",
                        [DMI_PRODUCT_NAME] = "PowerEdge R740",
                        [DMI_BIOS_VENDOR] = "Dell Inc.",
                        [DMI_BOARD_VENDOR] = "Dell Inc.",
                },
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft",
                .evidence = { "EBX 0x00001001: CreatePartitions and CpuManagement set, Isolation "
                              "clear: the root" },
        },
        {
                /* Linux before 6.15 (ms_hyperv_init_platform()) called this the root; from 6.15
                 * hv_identify_partition_type() wants CreatePartitions too. */
                .name = "CpuManagement alone is a guest",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CPU_MANAGEMENT),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "EBX 0x00001000: CpuManagement set, CreatePartitions clear: a guest",
                              "before 6.15" },
        },
        {
                .name = "root partition, real mask 0x002bb9ff",
                HYPERV(0x4000000bu, HV_FEATURES, 0x002bb9ffu),
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft",
                .evidence = { "EBX 0x002bb9ff: CreatePartitions and CpuManagement set, Isolation "
                              "clear: the root", "bit 12 (nested) clear: its disks are physical" },
        },
        {
                .name = "root partition, real mask 0x000039ff",
                HYPERV(0x4000000bu, HV_FEATURES, 0x000039ffu),
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft",
                .evidence = { "EBX 0x000039ff: CreatePartitions and CpuManagement set" },
        },
        {
                /* An MSHV host inside an Azure VM: HV_X64_HYPERV_NESTED. */
                .name = "nested root partition, real mask 0x002bb9ff",
                HYPERV(0x4000000bu, HV_FEATURES, 0x002bb9ffu), .hints = 0x00005e24u | HV_EAX_NESTED,
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft", .flavour = FLAVOUR_NESTED,
                .evidence = { "CPUID 0x40000004 EAX 0x00005e24: bit 12 (nested) set",
                              "the root partition" },
        },
        {
                .name = "guest, real mask 0x003b8030",
                HYPERV(0x4000000bu, HV_FEATURES, 0x003b8030u), DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "EBX 0x003b8030: CreatePartitions and CpuManagement clear: a guest" },
        },
        {
                .name = "guest, real mask 0x00388030",
                HYPERV(0x4000000bu, HV_FEATURES, 0x00388030u), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "EBX 0x00388030: CreatePartitions and CpuManagement clear" },
        },
        {
                /* hv_identify_partition_type() (torvalds/linux 04df7ac39943). */
                .name = "L1VH, a guest mask with CreatePartitions (0x003b8031)",
                HYPERV(0x4000000bu, HV_FEATURES, 0x003b8031u), DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_L1VH | FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "EBX 0x003b8031: CreatePartitions set, CpuManagement clear: an L1VH" },
        },
        {
                .name = "TDX guest 0x00628030 with a paravisor",
                HYPERV(0x4000000cu, HV_FEATURES, 0x00628030u), DMI_GEN2(AZURE_ASSET_TAG),
                .has_iso = true, .iso_eax = HV_EAX_PARAVISOR_PRESENT, .iso_ebx = 0x00000c03u,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_CONFIDENTIAL | FLAVOUR_AZURE | FLAVOUR_GEN2,
                .isolation = ISOLATION_TDX, .paravisor = 1,
                .evidence = { "EBX 0x00628030: Isolation set: a confidential guest",
                              "CPUID 0x4000000c EBX 0x00000c03: isolation type 3 (TDX); EAX "
                              "0x00000001: paravisor present" },
        },
        {
                .name = "SEV-SNP guest without a paravisor",
                HYPERV(0x4000000cu, HV_FEATURES, 0x00628030u),
                .has_iso = true, .iso_eax = 0, .iso_ebx = 2,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_CONFIDENTIAL, .isolation = ISOLATION_SNP, .paravisor = 0,
                .evidence = { "isolation type 2 (SEV-SNP); EAX 0x00000000: paravisor absent" },
        },
        {
                .name = "VBS guest",
                HYPERV(0x4000000cu, HV_FEATURES, 0x00628030u),
                .has_iso = true, .iso_eax = 0, .iso_ebx = 1,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_CONFIDENTIAL, .isolation = ISOLATION_VBS, .paravisor = 0,
                .evidence = { "isolation type 1 (VBS)" },
        },
        {
                /* Xen's detection needs two leaves above its base (xen_cpuid_base()). */
                .name = "Xen signature with too few leaves: Linux keeps Hyper-V",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "XenVMMXenVMM", .alt_max = 0x40000101u, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "a guest" },
        },
        {
                /* bhyve_detect() returns its maximum leaf, which can rank below Hyper-V. */
                .name = "bhyve signature whose maximum leaf is below 0x40000000",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "bhyve bhyve ", .alt_max = 0x00000010u, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "a guest" },
        },
        {
                /* On the root DMI names the physical machine's maker, here one that also
                 * makes a hypervisor: no veto. */
                .name = "root partition on Nutanix hardware",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT),
                .dmi = {
                        [DMI_SYS_VENDOR] = "Nutanix",
                        [DMI_PRODUCT_NAME] = "NX-3060-G6",
                        [DMI_BIOS_VENDOR] = "American Megatrends Inc.",
                        [DMI_BOARD_VENDOR] = "Nutanix",
                },
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft",
                .evidence = { "and CpuManagement set, Isolation clear: the root partition" },
        },
        {
                .name = "root partition on Amazon EC2 bare metal",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT),
                .dmi = {
                        [DMI_SYS_VENDOR] = "Amazon EC2",
                        [DMI_PRODUCT_NAME] = "m5.metal",
                        [DMI_BIOS_VENDOR] = "Amazon EC2",
                        [DMI_BOARD_VENDOR] = "Amazon EC2",
                },
                .verdict = VERDICT_HYPERV_ROOT, .hypervisor = "microsoft",
                .evidence = { "and CpuManagement set, Isolation clear: the root partition" },
        },
        {
                /* Linux's hv_identify_partition_type() (torvalds/linux 04df7ac39943; older
                 * kernels call it a guest without a name): CreatePartitions without CpuManagement hosts VMs of
                 * its own but is itself a guest on VMBus. */
                .name = "L1VH partition (CreatePartitions alone)",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS),
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_L1VH | FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "EBX 0x00000001: CreatePartitions set, CpuManagement clear: an L1VH "
                              "partition" },
        },
        {
                .name = "L1VH partition without DMI",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | 0x00300000u),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_L1VH,
                .evidence = { "an L1VH partition" },
        },
        {
                .name = "confidential guest (isolation)",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_ISOLATION),
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_CONFIDENTIAL | FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "Isolation set: a confidential guest" },
        },
        {
                /* A root's privileges claimed by a confidential guest: Linux ignores them. */
                .name = "confidential guest claiming CpuManagement",
                HYPERV(0x4000000bu, HV_FEATURES,
                       HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT | HV_EBX_ISOLATION),
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_CONFIDENTIAL | FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "EBX 0x00401001: Isolation set: a confidential guest" },
        },
        {
                .name = "lowest max leaf Linux accepts (0x40000005)",
                HYPERV(0x40000005u, HV_FEATURES, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "max leaf 0x40000005" },
        },
        {
                .name = "highest max leaf Linux accepts (0x4000ffff)",
                HYPERV(0x4000ffffu, HV_FEATURES, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "max leaf 0x4000ffff" },
        },
        {
                /* Only another hypervisor's signature up there means emulation. */
                .name = "Hyper-V's own signature repeated at 0x40000100",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = HV_SIGNATURE, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "CreatePartitions and CpuManagement clear: a guest" },
        },
        {
                .name = "only bits 5 and 6 of 0x40000003 EAX",
                HYPERV(0x4000000bu, HV_EAX_HYPERCALL_MSR | HV_EAX_VP_INDEX, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "hypercall MSR and VP index available" },
        },
        {
                /* The asset tag is the administrator's to set; it names no VMM. */
                .name = "asset tag naming Xen does not veto",
                HYPERV_GUEST, DMI_GEN2("Xen migration 2019"),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "a guest" },
        },
        {
                /* Issue 21 point 1: DMI naming QEMU, VMBus up. Linux registered VMBus, so it runs
                 * as a Hyper-V guest; the DMI vendor stays as evidence. */
                .name = "Microsoft Hv, DMI QEMU, VMBus up",
                HYPERV_GUEST, DMI_QEMU, .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "DMI sys_vendor \"QEMU\": another hypervisor's name, but "
                              "/sys/bus/vmbus exists: Linux runs as a Hyper-V guest",
                              "CreatePartitions and CpuManagement clear: a guest" },
        },
        {
                /* Point 2: a root's privileges on a kernel without CONFIG_MSHV_ROOT (Debian's
                 * 7.x configs): hv_identify_partition_type() keeps it a guest, VMBus comes up. */
                .name = "root privileges 0x002bb9ff, not nested, VMBus up",
                HYPERV(0x4000000bu, HV_FEATURES, 0x002bb9ffu), .has_vmbus = true,
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "EBX 0x002bb9ff: CreatePartitions and CpuManagement set, Isolation "
                              "clear: a root's privileges",
                              "bit 12 (nested) clear, yet /sys/bus/vmbus exists: this kernel runs "
                              "as a guest (no CONFIG_MSHV_ROOT)" },
        },
        {
                /* Point 3: VMBus settles what the privilege bits cannot: 6.12 took this for
                 * the root and set up no VMBus, 6.15 on a guest. */
                .name = "CpuManagement alone, VMBus up",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CPU_MANAGEMENT), .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "a guest to Linux 6.15 on, the root before 6.15; /sys/bus/vmbus "
                              "exists: this kernel runs as a guest" },
        },
        {
                .name = "CpuManagement alone, no VMBus",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CPU_MANAGEMENT),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "the root before 6.15; no /sys/bus/vmbus" },
        },
        {
                /* Point 5: a host whose VMBus versions the kernel dropped (7.3 and Windows
                 * Server 2012): no /sys/bus/vmbus, still a guest, nothing to change. */
                .name = "guest whose VMBus did not come up",
                HYPERV_GUEST, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "no /sys/bus/vmbus: VMBus is not up (hv_vmbus not loaded, or not "
                              "built, as Linux 6.18 allows; or a host too old for this kernel's "
                              "VMBus): a guest with no VMBus disk, nothing to change" },
        },
};

static const struct machine other_machines[] = {
        {
                /* detect_hypervisor_vendor(): KVM's base 0x40000100 outranks Hyper-V's
                 * 0x40000000, root privileges or not. */
                .name = "KVM emulating a Hyper-V root",
                HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT),
                .alt_leaf = 0x40000100u, .alt_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000100 \"KVMKVMKVM\": kvm emulating Hyper-V; Linux picks "
                              "the hypervisor found at the highest base" },
        },
        {
                .name = "KVM emulating a nested Hyper-V root (real mask 0x002bb9ff)",
                HYPERV(0x4000000bu, HV_FEATURES, 0x002bb9ffu), .hints = HV_EAX_NESTED,
                .alt_leaf = 0x40000100u, .alt_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "kvm emulating Hyper-V" },
        },
        {
                .name = "Xen emulating a Hyper-V root",
                HYPERV(0x40000005u, HV_FEATURES, 0x000039ffu), .alt_leaf = 0x40000100u,
                .alt_sig = "XenVMMXenVMM", .alt_max = 0x40000105u,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "xen",
                .evidence = { "CPUID 0x40000100 \"XenVMMXenVMM\": xen emulating Hyper-V" },
        },
        {
                .name = "the highest base wins: KVM at 0x40000100, Xen at 0x40000200",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0", .alt2_leaf = 0x40000200u, .alt2_sig = "XenVMMXenVMM",
                .alt2_max = 0x40000203u,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "xen",
                .evidence = { "CPUID 0x40000200 \"XenVMMXenVMM\"" },
        },
        {
                .name = "the highest base wins: Xen at 0x40000100, KVM at 0x40000200",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "XenVMMXenVMM", .alt_max = 0x40000105u, .alt2_leaf = 0x40000200u,
                .alt2_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000200 \"KVMKVMKVM\"" },
        },
        {
                .name = "Jailhouse at 0x40000100",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "Jailhouse\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "jailhouse",
                .evidence = { "jailhouse emulating Hyper-V" },
        },
        {
                .name = "ACRN at 0x40000100",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "ACRNACRNACRN",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "acrn",
                .evidence = { "acrn emulating Hyper-V" },
        },
        {
                .name = "bhyve at 0x40000100 with its maximum leaf above Hyper-V's base",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "bhyve bhyve ", .alt_max = 0x40000101u,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "bhyve",
                .evidence = { "bhyve emulating Hyper-V" },
        },
        {
                /* vmware_platform() reads 0x40000000 only: KVM above it wins. */
                .name = "VMware at 0x40000000, KVM at 0x40000100",
                OTHER("VMwareVMware", 0x40000010u), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "\"VMwareVMware\": vmware",
                              "CPUID 0x40000100 \"KVMKVMKVM\": Linux picks kvm" },
        },
        {
                .name = "VMware's signature at 0x40000100 is not VMware",
                HYPERV(0x4000000bu, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "VMwareVMware", DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft", .flavour = FLAVOUR_GEN2,
                .evidence = { "a guest" },
        },
        {
                .name = "Microsoft Hv with a bad max leaf, KVM above",
                HYPERV(0x40000004u, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "outside", "Linux picks kvm" },
        },
        {
                .name = "plain KVM",
                OTHER("KVMKVMKVM\0\0\0", 0x40000001u), DMI_QEMU,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000000 \"KVMKVMKVM\": kvm" },
        },
        {
                .name = "QEMU/KVM with Hyper-V enlightenments",
                HYPERV(0x4000000au, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0", DMI_QEMU,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000100 \"KVMKVMKVM\"", "emulating Hyper-V" },
        },
        {
                .name = "QEMU/KVM with Hyper-V enlightenments, no DMI",
                HYPERV(0x4000000au, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0",
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000100 \"KVMKVMKVM\"" },
        },
        {
                /* kvm=off hides KVM's signature; only DMI tells. */
                .name = "QEMU/KVM with Hyper-V enlightenments and kvm=off",
                HYPERV(0x4000000au, HV_FEATURES, 0), DMI_QEMU,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "qemu",
                .evidence = { "DMI sys_vendor \"QEMU\": another hypervisor emulating Hyper-V" },
        },
        {
                .name = "QEMU/KVM with Hyper-V enlightenments claiming CreatePartitions",
                HYPERV(0x4000000au, HV_FEATURES, HV_EBX_CREATE_PARTITIONS), .alt_leaf = 0x40000100u,
                .alt_sig = "KVMKVMKVM\0\0\0", DMI_QEMU,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000100 \"KVMKVMKVM\"" },
        },
        {
                .name = "Xen HVM",
                OTHER("XenVMMXenVMM", 0x40000005u),
                .dmi = { [DMI_SYS_VENDOR] = "Xen", [DMI_PRODUCT_NAME] = "HVM domU",
                         [DMI_BIOS_VENDOR] = "Xen" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "xen",
                .evidence = { "\"XenVMMXenVMM\": xen" },
        },
        {
                .name = "Xen with viridian",
                HYPERV(0x40000005u, HV_FEATURES, 0), .alt_leaf = 0x40000100u,
                .alt_sig = "XenVMMXenVMM", .alt_max = 0x40000105u,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "xen",
                .evidence = { "CPUID 0x40000100 \"XenVMMXenVMM\"" },
        },
        {
                .name = "KVM signature at a later base (0x40000200)",
                HYPERV(0x4000000au, HV_FEATURES, 0), .alt_leaf = 0x40000200u,
                .alt_sig = "KVMKVMKVM\0\0\0", DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "CPUID 0x40000200" },
        },
        {
                .name = "VMware",
                OTHER("VMwareVMware", 0x40000010u),
                .dmi = { [DMI_SYS_VENDOR] = "VMware, Inc.",
                         [DMI_PRODUCT_NAME] = "VMware Virtual Platform" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "vmware",
                .evidence = { "\"VMwareVMware\"" },
        },
        {
                .name = "QEMU TCG",
                OTHER("TCGTCGTCGTCG", 0x40000001u), DMI_QEMU,
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "qemu",
                .evidence = { "\"TCGTCGTCGTCG\"" },
        },
        {
                .name = "bhyve",
                OTHER("bhyve bhyve ", 0x40000001u), .dmi = { [DMI_BIOS_VENDOR] = "BHYVE" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "bhyve",
                .evidence = { "\"bhyve bhyve \"" },
        },
        {
                .name = "VirtualBox",
                OTHER("VBoxVBoxVBox", 0x40000001u),
                .dmi = { [DMI_SYS_VENDOR] = "innotek GmbH", [DMI_PRODUCT_NAME] = "VirtualBox" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "virtualbox",
                .evidence = { "\"VBoxVBoxVBox\"" },
        },
        {
                .name = "Firecracker (KVM, no DMI)",
                OTHER("KVMKVMKVM\0\0\0", 0x40000001u),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "kvm",
                .evidence = { "KVMKVMKVM" },
        },
        {
                .name = "unknown signature",
                OTHER("NotAKnownVMM", 0x40000001u),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "\"NotAKnownVMM\": an unknown hypervisor" },
        },
        {
                .name = "bare-metal Surface",
                .no_hypervisor = true, HYPERV_GUEST,
                .dmi = { [DMI_SYS_VENDOR] = "Microsoft Corporation",
                         [DMI_PRODUCT_NAME] = "Surface Laptop 5",
                         [DMI_BIOS_VENDOR] = "Microsoft Corporation" },
                .verdict = VERDICT_BARE_METAL, .hypervisor = NULL,
                .evidence = { "ECX bit 31 clear" },
        },
        {
                .name = "bare metal reading \"Virtual Machine\" (Virtual PC)",
                .no_hypervisor = true, HYPERV_GUEST, DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_BARE_METAL, .hypervisor = NULL,
                .evidence = { "ECX bit 31 clear", "\"Virtual Machine\" ignored" },
        },
};

/* "Microsoft Hv" that Linux would not accept as Hyper-V; real Gen2 DMI does not rescue it. */
static const struct machine bogus_hyperv_machines[] = {
        {
                .name = "max leaf 0x40000004",
                HYPERV(0x40000004u, HV_FEATURES, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "max leaf 0x40000004, outside" },
        },
        {
                .name = "max leaf 0x40010000",
                HYPERV(0x40010000u, HV_FEATURES, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "max leaf 0x40010000, outside" },
        },
        {
                .name = "max leaf 0 (leaf not implemented)",
                HYPERV(0, HV_FEATURES, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "max leaf 0x00000000" },
        },
        {
                .name = "no hypercall MSR (bit 5)",
                HYPERV(0x4000000bu, HV_FEATURES & ~HV_EAX_HYPERCALL_MSR, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "EAX 0x0000ae5f lacks the hypercall MSR" },
        },
        {
                .name = "no VP index (bit 6)",
                HYPERV(0x4000000bu, HV_FEATURES & ~HV_EAX_VP_INDEX, 0), DMI_GEN2(LOCAL_ASSET_TAG),
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = NULL,
                .evidence = { "EAX 0x0000ae3f lacks" },
        },
};

/* Valid Hyper-V CPUID and Gen2 DMI, with one DMI field naming another VMM. */
static const struct {
        enum dmi_field field;
        const char *value;
        const char *hypervisor;
} vetoes[] = {
        { DMI_SYS_VENDOR, "Xen", "xen" },
        { DMI_BIOS_VENDOR, "Xen", "xen" },
        { DMI_SYS_VENDOR, "VMware, Inc.", "vmware" },
        { DMI_PRODUCT_NAME, "VMware7,1", "vmware" },
        { DMI_SYS_VENDOR, "innotek GmbH", "virtualbox" },
        { DMI_PRODUCT_NAME, "VirtualBox", "virtualbox" },
        { DMI_SYS_VENDOR, "Bochs", "bochs" },
        { DMI_BIOS_VENDOR, "BHYVE", "bhyve" },
        { DMI_SYS_VENDOR, "Parallels Software International Inc.", "parallels" },
        { DMI_SYS_VENDOR, "OpenStack Foundation", "openstack" },
        { DMI_PRODUCT_NAME, "OpenStack Nova", "openstack" },
        { DMI_SYS_VENDOR, "Red Hat", "redhat" },
        { DMI_PRODUCT_NAME, "Amazon EC2", "amazon" },
        { DMI_BIOS_VENDOR, "Amazon EC2", "amazon" },
        { DMI_SYS_VENDOR, "Google", "google" },
        { DMI_PRODUCT_NAME, "Google Compute Engine", "google" },
        { DMI_BOARD_VENDOR, "Nutanix", "nutanix" },
        { DMI_PRODUCT_NAME, "AHV (Nutanix)", "nutanix" },
        { DMI_SYS_VENDOR, "QEMU", "qemu" },
        { DMI_PRODUCT_NAME, "KVM", "kvm" },
};

#define FADT_SAYS_HYPERV  .fadt = { .result = FADT_HYPERV, .revision = 6 }
#define FADT_SAYS_NOT(r, w) .fadt = { .result = FADT_NOT_HYPERV, .revision = (r), .why = (w) }

static const struct machine no_cpuid_machines[] = {
        {
                /* hyperv_detect_via_acpi(): no VMBus yet, no SMBIOS, the FADT says it. */
                .name = "arm64, FADT MsHyperV, nothing else",
                .no_cpuid = true, FADT_SAYS_HYPERV,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "ACPI FADT revision 6, hypervisor_id \"MsHyperV\": Hyper-V" },
        },
        {
                .name = "arm64 Azure, FADT MsHyperV",
                .no_cpuid = true, FADT_SAYS_HYPERV, .has_vmbus = true, DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "hyperv_detect_via_acpi()", ": Azure" },
        },
        {
                /* The FADT read says no: Microsoft's DMI does not rescue it. */
                .name = "arm64, revision-5 FADT, Microsoft DMI",
                .no_cpuid = true, FADT_SAYS_NOT(5, "revision below 6, no hypervisor_id"),
                DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_UNKNOWN, .hypervisor = NULL,
                .evidence = { "ACPI FADT revision 5: revision below 6", "not Hyper-V" },
        },
        {
                .name = "arm64, FADT with a zero hypervisor_id, DMI QEMU",
                .no_cpuid = true, FADT_SAYS_NOT(6, "hypervisor_id is not \"MsHyperV\""),
                .dmi = { [DMI_SYS_VENDOR] = "QEMU", [DMI_PRODUCT_NAME] = "KVM Virtual Machine" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "qemu",
                .evidence = { "hypervisor_id is not", "sys_vendor \"QEMU\"" },
        },
        {
                /* Linux also asks the firmware (SMCCC); VMBus up means it found Hyper-V. */
                .name = "arm64, FADT without the id, VMBus registered",
                .no_cpuid = true, FADT_SAYS_NOT(6, "hypervisor_id is not \"MsHyperV\""),
                .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "/sys/bus/vmbus exists: Linux found Hyper-V without the FADT" },
        },
        {
                /* A report without root: the table is 0400. */
                .name = "arm64, FADT unreadable, VMBus",
                .no_cpuid = true, .fadt = { .result = FADT_UNREAD, .error = -EACCES }, .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "cannot read '/sys/firmware/acpi/tables/FACP': Permission denied: "
                              "deciding from /sys/bus/vmbus and DMI", "/sys/bus/vmbus exists" },
        },
        {
                /* Point 4: booted from a DeviceTree, no ACPI: Linux found Hyper-V through SMCCC,
                 * and VMBus is the evidence user space has. */
                .name = "arm64 DeviceTree boot, no FADT, VMBus",
                .no_cpuid = true, .fadt = { .result = FADT_UNREAD, .error = ENOENT },
                .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "no ACPI FADT (a DeviceTree boot): Linux asks the firmware through "
                              "SMCCC, which user space cannot",
                              "/sys/bus/vmbus exists: Linux found Hyper-V and set up VMBus" },
        },
        {
                .name = "arm64 with /sys/bus/vmbus",
                .no_cpuid = true, .has_vmbus = true,
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "/sys/bus/vmbus exists" },
        },
        {
                .name = "arm64 Azure with /sys/bus/vmbus",
                .no_cpuid = true, .has_vmbus = true, DMI_GEN2(AZURE_ASSET_TAG),
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .flavour = FLAVOUR_AZURE | FLAVOUR_GEN2,
                .evidence = { "/sys/bus/vmbus exists", ": Azure" },
        },
        {
                .name = "arm64, DMI Microsoft Corporation / Virtual Machine",
                .no_cpuid = true,
                .dmi = { [DMI_SYS_VENDOR] = "Microsoft Corporation",
                         [DMI_PRODUCT_NAME] = "Virtual Machine" },
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "DMI \"Microsoft Corporation\" \"Virtual Machine\"" },
        },
        {
                .name = "arm64, DMI product_version Hyper-V",
                .no_cpuid = true,
                .dmi = { [DMI_PRODUCT_VERSION] = "Hyper-V UEFI Release v4.1" },
                .verdict = VERDICT_HYPERV_GUEST, .hypervisor = "microsoft",
                .evidence = { "product_version \"Hyper-V UEFI Release v4.1\"" },
        },
        {
                .name = "arm64, nothing at all",
                .no_cpuid = true,
                .verdict = VERDICT_UNKNOWN, .hypervisor = NULL,
                .evidence = { "no CPUID, no /sys/bus/vmbus, no DMI" },
        },
        {
                .name = "arm64 server, DMI names no VMM",
                .no_cpuid = true,
                .dmi = { [DMI_SYS_VENDOR] = "Ampere Computing",
                         [DMI_PRODUCT_NAME] = "Mt.Jade", [DMI_PRODUCT_VERSION] = "1.0" },
                .verdict = VERDICT_UNKNOWN, .hypervisor = NULL,
                .evidence = { "DMI names no Hyper-V" },
        },
        {
                .name = "arm64, DMI QEMU",
                .no_cpuid = true,
                .dmi = { [DMI_SYS_VENDOR] = "QEMU", [DMI_PRODUCT_NAME] = "KVM Virtual Machine" },
                .verdict = VERDICT_OTHER_HYPERVISOR, .hypervisor = "qemu",
                .evidence = { "sys_vendor \"QEMU\": another hypervisor" },
        },
};

START_TEST(hyperv_machine_is_recognised) {
        check_machine(&hyperv_machines[_i]);
}
END_TEST

START_TEST(other_machine_is_not_hyperv) {
        check_machine(&other_machines[_i]);
}
END_TEST

START_TEST(bogus_hyperv_leaves_are_not_hyperv) {
        check_machine(&bogus_hyperv_machines[_i]);
}
END_TEST

START_TEST(dmi_naming_another_vmm_vetoes_hyperv_cpuid) {
        struct machine m = { HYPERV_GUEST, DMI_GEN2(LOCAL_ASSET_TAG) };
        char name[128], needle[sizeof(name) + 32];

        snprintf(name, sizeof(name), "%s \"%s\"", dmi_field_name[vetoes[_i].field],
                 vetoes[_i].value);
        snprintf(needle, sizeof(needle), "DMI %s: another hypervisor", name);
        m.name = name;
        m.dmi[vetoes[_i].field] = vetoes[_i].value;
        m.verdict = VERDICT_OTHER_HYPERVISOR;
        m.hypervisor = vetoes[_i].hypervisor;
        m.evidence[0] = needle;
        check_machine(&m);
}
END_TEST

START_TEST(machine_without_cpuid_decides_from_vmbus_and_dmi) {
        check_machine(&no_cpuid_machines[_i]);
}
END_TEST

START_TEST(signature_helper_is_little_endian) {
        struct cpuid_regs r = { 0 };
        char sig[13];

        set_signature(&r, HV_SIGNATURE);
        ck_assert_uint_eq(r.ebx, 0x7263694du);
        ck_assert_uint_eq(r.ecx, 0x666f736fu);
        ck_assert_uint_eq(r.edx, 0x76482074u);
        cpuid_signature(&r, sig);
        ck_assert_mem_eq(sig, HV_SIGNATURE, 13);
}
END_TEST

START_TEST(cpuid_signature_keeps_nul_padding) {
        struct cpuid_regs r = { 0 };
        char sig[13];

        set_signature(&r, "KVMKVMKVM\0\0\0");
        cpuid_signature(&r, sig);
        ck_assert_mem_eq(sig, "KVMKVMKVM\0\0\0", 13);
}
END_TEST

static const struct {
        const char *sig;
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
        { "KVMKVMKVMxyz", NULL },
        { "microsoft hv", NULL },
        { "\0\0\0\0\0\0\0\0\0\0\0\0", NULL },
};

START_TEST(signature_names_hypervisor) {
        const char *name = hypervisor_from_signature(signatures[_i].sig);

        ck_assert_pstr_eq(name, signatures[_i].name);
}
END_TEST

/* What the gatherer reads: 0x40000003 only behind an acceptable "Microsoft Hv"; every higher
 * base where Hyper-V is still possible (a root too: KVM emulating one must be KVM) and, for a
 * report, on any hypervisor; 0x40000004 on a root; 0x4000000C for a report on a confidential
 * guest; DMI only where CPUID cannot settle it. Each question is asked before what it decides
 * about is read. */
static const struct {
        struct machine m;
        bool needs_features, needs_scan, needs_scan_full, needs_hints, needs_iso_full, needs_dmi;
} cost_cases[] = {
        { { .name = "no CPUID (arm64)", .no_cpuid = true }, false, false, false, false, false, true },
        { { .name = "bare metal", .no_hypervisor = true, HYPERV_GUEST },
          false, false, false, false, false, false },
        { { .name = "Hyper-V guest", HYPERV_GUEST }, true, true, true, false, false, true },
        { { .name = "L1VH", HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS) },
          true, true, true, false, false, true },
        { { .name = "root",
            HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT) },
          true, true, true, true, false, false },
        { { .name = "CpuManagement alone", HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CPU_MANAGEMENT) },
          true, true, true, false, false, true },
        /* VMBus up: Linux chose Hyper-V, DMI could only veto. */
        { { .name = "Hyper-V guest with VMBus", HYPERV_GUEST, .has_vmbus = true },
          true, true, true, false, false, false },
        { { .name = "no CPUID (arm64) with VMBus", .no_cpuid = true, .has_vmbus = true },
          false, false, false, false, false, false },
        { { .name = "confidential guest claiming CpuManagement",
            HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CPU_MANAGEMENT | HV_EBX_ISOLATION) },
          true, true, true, false, true, true },
        { { .name = "KVM", OTHER("KVMKVMKVM\0\0\0", 0x40000001u) },
          false, false, true, false, false, false },
        { { .name = "VMware", OTHER("VMwareVMware", 0x40000010u) },
          false, false, true, false, false, false },
        { { .name = "KVM with Hyper-V enlightenments", HYPERV(0x4000000au, HV_FEATURES, 0),
            .alt_leaf = 0x40000100u, .alt_sig = "KVMKVMKVM\0\0\0" },
          true, true, true, false, false, false },
        { { .name = "max leaf 0x40000004", HYPERV(0x40000004u, HV_FEATURES, 0) },
          false, false, true, false, false, false },
        { { .name = "no VP index", HYPERV(0x4000000bu, HV_FEATURES & ~HV_EAX_VP_INDEX, 0) },
          true, false, true, false, false, false },
};

START_TEST(leaves_and_dmi_are_read_only_where_they_can_change_the_verdict) {
        struct machine_facts f;
        const char *name = cost_cases[_i].m.name;

        build_facts(&cost_cases[_i].m, &f);
        ck_assert_msg(verdict_needs_dmi(&f) == cost_cases[_i].needs_dmi, "%s: needs DMI, expected %d",
                      name, cost_cases[_i].needs_dmi);
        ck_assert_msg(verdict_needs_hints(&f) == cost_cases[_i].needs_hints,
                      "%s: needs 0x40000004, expected %d", name, cost_cases[_i].needs_hints);
        ck_assert_msg(!verdict_needs_isolation(&f, false) &&
                              verdict_needs_isolation(&f, true) == cost_cases[_i].needs_iso_full,
                      "%s: needs 0x4000000C, expected %d for a report", name,
                      cost_cases[_i].needs_iso_full);
        f.scanned = false;
        memset(f.higher, 0, sizeof(f.higher));
        ck_assert_msg(verdict_needs_scan(&f, false) == cost_cases[_i].needs_scan,
                      "%s: needs the scan, expected %d", name, cost_cases[_i].needs_scan);
        ck_assert_msg(verdict_needs_scan(&f, true) == cost_cases[_i].needs_scan_full,
                      "%s: needs the scan for a report, expected %d", name,
                      cost_cases[_i].needs_scan_full);
        memset(&f.features, 0, sizeof(f.features));
        ck_assert_msg(verdict_needs_features(&f) == cost_cases[_i].needs_features,
                      "%s: needs 0x40000003, expected %d", name, cost_cases[_i].needs_features);
}
END_TEST

/* The leaves a gatherer that loops on verdict_next_leaf() reads from a CPU answering as
 * machine m, as text: each leaf in hex, the 255 higher bases of the scan as "scan". */
static void leaves_read(const struct machine *m, bool full, char *out, size_t size) {
        struct machine_facts cpu, f;
        uint32_t leaf;
        size_t len = 0;

        build_facts(m, &cpu);
        memset(&f, 0, sizeof(f));
        f.has_cpuid = cpu.has_cpuid;
        out[0] = '\0';
        while ((leaf = verdict_next_leaf(&f, full))) {
                const struct cpuid_regs *r = leaf == 1                  ? &cpu.leaf1
                                             : leaf == HV_LEAF_BASE     ? &cpu.base
                                             : leaf == HV_LEAF_FEATURES ? &cpu.features
                                             : leaf == HV_LEAF_HINTS    ? &cpu.hints
                                             : leaf == HV_LEAF_ISOLATION
                                                     ? &cpu.isolation
                                                     : &cpu.higher[(leaf - HV_SCAN_FIRST) / HV_SCAN_STEP - 1];

                ck_assert_msg(len < size - 16, "%s: too many leaves", m->name);
                if (leaf == HV_SCAN_FIRST + HV_SCAN_STEP)
                        len += (size_t) snprintf(out + len, size - len, " scan");
                else if (leaf < HV_SCAN_FIRST + HV_SCAN_STEP || leaf > HV_SCAN_LAST)
                        len += (size_t) snprintf(out + len, size - len, " %x", leaf);
                verdict_record_leaf(&f, leaf, r);
        }
        ck_assert_msg(f.scanned == (strstr(out, "scan") != NULL), "%s: scanned", m->name);
}

/* The order the leaves are read in: each question asked once what it depends on is in. */
static const struct {
        struct machine m;
        const char *leaves, *leaves_full;
} leaf_orders[] = {
        { { .name = "no CPUID (arm64)", .no_cpuid = true }, "", "" },
        { { .name = "bare metal", .no_hypervisor = true, HYPERV_GUEST }, " 1", " 1" },
        { { .name = "Hyper-V guest", HYPERV_GUEST }, " 1 40000000 40000003 scan",
          " 1 40000000 40000003 scan" },
        { { .name = "root",
            HYPERV(0x4000000bu, HV_FEATURES, HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT) },
          " 1 40000000 40000003 scan 40000004", " 1 40000000 40000003 scan 40000004" },
        { { .name = "confidential guest", HYPERV(0x4000000cu, HV_FEATURES, HV_EBX_ISOLATION) },
          " 1 40000000 40000003 scan", " 1 40000000 40000003 scan 4000000c" },
        { { .name = "confidential guest claiming a root's privileges",
            HYPERV(0x4000000cu, HV_FEATURES,
                   HV_EBX_CREATE_PARTITIONS | HV_EBX_CPU_MANAGEMENT | HV_EBX_ISOLATION) },
          " 1 40000000 40000003 scan", " 1 40000000 40000003 scan 4000000c" },
        { { .name = "KVM", OTHER("KVMKVMKVM\0\0\0", 0x40000001u) }, " 1 40000000",
          " 1 40000000 scan" },
        { { .name = "max leaf 0x40000004", HYPERV(0x40000004u, HV_FEATURES, 0) }, " 1 40000000",
          " 1 40000000 scan" },
        { { .name = "no VP index", HYPERV(0x4000000bu, HV_FEATURES & ~HV_EAX_VP_INDEX, 0) },
          " 1 40000000 40000003", " 1 40000000 40000003 scan" },
};

START_TEST(leaves_are_read_in_order_and_only_where_needed) {
        char got[256];

        leaves_read(&leaf_orders[_i].m, false, got, sizeof(got));
        ck_assert_msg(streq(got, leaf_orders[_i].leaves), "%s: read%s, expected%s",
                      leaf_orders[_i].m.name, got, leaf_orders[_i].leaves);
        leaves_read(&leaf_orders[_i].m, true, got, sizeof(got));
        ck_assert_msg(streq(got, leaf_orders[_i].leaves_full), "%s: read%s for a report, expected%s",
                      leaf_orders[_i].m.name, got, leaf_orders[_i].leaves_full);
}
END_TEST

/* FADT bytes as a test writes them: the header's length and revision, hypervisor_id at 268. */
static size_t make_fadt(unsigned char *buf, size_t size, uint32_t length, unsigned revision,
                        const char *id) {
        memset(buf, 0, size);
        memcpy(buf, "FACP", 4);
        buf[4] = (unsigned char) length;
        buf[5] = (unsigned char) (length >> 8);
        buf[6] = (unsigned char) (length >> 16);
        buf[7] = (unsigned char) (length >> 24);
        buf[8] = (unsigned char) revision;
        if (id && length >= FADT_HYPERVISOR_ID_END)
                memcpy(buf + FADT_HYPERVISOR_ID_OFF, id, 8);
        return length < size ? length : size;
}

static const struct {
        const char *name;
        uint32_t length;
        unsigned revision;
        const char *id;
        size_t truncate; /* bytes actually there, 0: all */
        enum fadt_result result;
        const char *why;
} fadts[] = {
        { "revision 6, MsHyperV", 276, 6, FADT_HYPERV_ID, 0, FADT_HYPERV, NULL },
        { "revision 7 (ACPI 6.5 is 6 too), MsHyperV", 276, 7, FADT_HYPERV_ID, 0, FADT_HYPERV, NULL },
        { "revision 5 with the bytes", 276, 5, FADT_HYPERV_ID, 0, FADT_NOT_HYPERV,
          "revision below 6, no hypervisor_id" },
        { "revision 6, 268 bytes", 268, 6, NULL, 0, FADT_NOT_HYPERV,
          "shorter than 276 bytes, no hypervisor_id" },
        { "revision 6, 275 bytes", 275, 6, NULL, 0, FADT_NOT_HYPERV,
          "shorter than 276 bytes, no hypervisor_id" },
        { "revision 6, zero hypervisor_id", 276, 6, "\0\0\0\0\0\0\0\0", 0, FADT_NOT_HYPERV,
          "hypervisor_id is not \"MsHyperV\"" },
        { "revision 6, KVM's id", 276, 6, "LinuxKVM", 0, FADT_NOT_HYPERV,
          "hypervisor_id is not \"MsHyperV\"" },
        { "header says 276, 200 bytes there", 276, 6, FADT_HYPERV_ID, 200, FADT_NOT_HYPERV,
          "shorter than its header says" },
        { "not even a header", 276, 6, FADT_HYPERV_ID, 20, FADT_NOT_HYPERV, "not an ACPI FADT" },
};

START_TEST(fadt_says_hyperv_as_the_arm64_kernel_reads_it) {
        unsigned char buf[512];
        struct fadt_facts out;
        size_t len = make_fadt(buf, sizeof(buf), fadts[_i].length, fadts[_i].revision, fadts[_i].id);

        if (fadts[_i].truncate)
                len = fadts[_i].truncate;
        fadt_parse(buf, len, &out);
        ck_assert_msg(out.result == fadts[_i].result, "%s: result %d", fadts[_i].name, out.result);
        ck_assert_pstr_eq(out.why, fadts[_i].why);
}
END_TEST

START_TEST(fadt_of_another_table_is_not_hyperv) {
        unsigned char buf[512];
        struct fadt_facts out;
        size_t len = make_fadt(buf, sizeof(buf), 276, 6, FADT_HYPERV_ID);

        memcpy(buf, "APIC", 4);
        fadt_parse(buf, len, &out);
        ck_assert_int_eq(out.result, FADT_NOT_HYPERV);
        ck_assert_str_eq(out.why, "not an ACPI FADT");
}
END_TEST

START_TEST(verdict_names_match_report_contract) {
        ck_assert_str_eq(verdict_name(VERDICT_UNKNOWN), "unknown");
        ck_assert_str_eq(verdict_name(VERDICT_BARE_METAL), "bare-metal");
        ck_assert_str_eq(verdict_name(VERDICT_OTHER_HYPERVISOR), "other-hypervisor");
        ck_assert_str_eq(verdict_name(VERDICT_HYPERV_GUEST), "hyperv-guest");
        ck_assert_str_eq(verdict_name(VERDICT_HYPERV_ROOT), "hyperv-root");
}
END_TEST

START_TEST(dmi_field_names_match_sysfs) {
        ck_assert_str_eq(dmi_field_name[DMI_SYS_VENDOR], "sys_vendor");
        ck_assert_str_eq(dmi_field_name[DMI_PRODUCT_NAME], "product_name");
        ck_assert_str_eq(dmi_field_name[DMI_PRODUCT_VERSION], "product_version");
        ck_assert_str_eq(dmi_field_name[DMI_BIOS_VENDOR], "bios_vendor");
        ck_assert_str_eq(dmi_field_name[DMI_BOARD_VENDOR], "board_vendor");
        ck_assert_str_eq(dmi_field_name[DMI_CHASSIS_ASSET_TAG], "chassis_asset_tag");
}
END_TEST

Suite *verdict_suite(void) {
        Suite *s = suite_create("verdict");
        TCase *tc;

        tc = tcase_create("hyperv");
        tcase_add_loop_test(tc, hyperv_machine_is_recognised, 0, ELEMENTSOF(hyperv_machines));
        suite_add_tcase(s, tc);

        tc = tcase_create("other-hypervisors");
        tcase_add_loop_test(tc, other_machine_is_not_hyperv, 0, ELEMENTSOF(other_machines));
        tcase_add_loop_test(tc, bogus_hyperv_leaves_are_not_hyperv, 0,
                            ELEMENTSOF(bogus_hyperv_machines));
        suite_add_tcase(s, tc);

        tc = tcase_create("dmi-veto");
        tcase_add_loop_test(tc, dmi_naming_another_vmm_vetoes_hyperv_cpuid, 0, ELEMENTSOF(vetoes));
        suite_add_tcase(s, tc);

        tc = tcase_create("no-cpuid");
        tcase_add_loop_test(tc, machine_without_cpuid_decides_from_vmbus_and_dmi, 0,
                            ELEMENTSOF(no_cpuid_machines));
        suite_add_tcase(s, tc);

        tc = tcase_create("fadt");
        tcase_add_loop_test(tc, fadt_says_hyperv_as_the_arm64_kernel_reads_it, 0, ELEMENTSOF(fadts));
        tcase_add_test(tc, fadt_of_another_table_is_not_hyperv);
        suite_add_tcase(s, tc);

        tc = tcase_create("signatures");
        tcase_add_test(tc, signature_helper_is_little_endian);
        tcase_add_test(tc, cpuid_signature_keeps_nul_padding);
        tcase_add_loop_test(tc, signature_names_hypervisor, 0, ELEMENTSOF(signatures));
        suite_add_tcase(s, tc);

        tc = tcase_create("helpers");
        tcase_add_loop_test(tc, leaves_and_dmi_are_read_only_where_they_can_change_the_verdict, 0,
                            ELEMENTSOF(cost_cases));
        tcase_add_loop_test(tc, leaves_are_read_in_order_and_only_where_needed, 0,
                            ELEMENTSOF(leaf_orders));
        tcase_add_test(tc, verdict_names_match_report_contract);
        tcase_add_test(tc, dmi_field_names_match_sysfs);
        suite_add_tcase(s, tc);

        return s;
}
