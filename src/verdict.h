/* Is this machine a Hyper-V guest? A pure function of the facts gathered in facts.c, so a unit
 * test can hand it any machine. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "cpuregs.h"

enum dmi_field {
        DMI_SYS_VENDOR,
        DMI_PRODUCT_NAME,
        DMI_PRODUCT_VERSION,
        DMI_BIOS_VENDOR,
        DMI_BOARD_VENDOR,
        DMI_CHASSIS_ASSET_TAG,
        DMI_FIELDS
};
#define DMI_VALUE_MAX 128

struct machine_facts {
        bool has_cpuid;
        struct cpuid_regs leaf1;    /* ECX bit 31: a hypervisor is present */
        struct cpuid_regs base;     /* 0x40000000: max leaf and vendor signature */
        struct cpuid_regs features; /* 0x40000003: what the partition may do */
        uint32_t alt_leaf;          /* first higher base naming another hypervisor, or 0 */
        struct cpuid_regs alt;
        bool has_dmi;
        char dmi[DMI_FIELDS][DMI_VALUE_MAX]; /* "" where absent */
        bool has_vmbus;                      /* /sys/bus/vmbus exists */
        char osrelease[128];
};

enum verdict {
        VERDICT_UNKNOWN,
        VERDICT_BARE_METAL,
        VERDICT_OTHER_HYPERVISOR,
        VERDICT_HYPERV_GUEST,
        VERDICT_HYPERV_ROOT,
};

enum flavour {
        FLAVOUR_AZURE = 1u << 0,
        FLAVOUR_WSL2 = 1u << 1,
        FLAVOUR_GEN1 = 1u << 2,
        FLAVOUR_GEN2 = 1u << 3,
        FLAVOUR_L1VH = 1u << 4, /* CreatePartitions without CpuManagement: hosts its own VMs */
};

#define EVIDENCE_MAX 8
#define EVIDENCE_LEN 192

struct machine_verdict {
        enum verdict verdict;
        const char *hypervisor; /* "microsoft", "kvm", … or NULL when none or unknown */
        unsigned flavour;
        unsigned n_evidence;
        char evidence[EVIDENCE_MAX][EVIDENCE_LEN];
};

void verdict_decide(const struct machine_facts *f, struct machine_verdict *v);

/* What the gatherer must read, asked in this order once leaf 1 and 0x40000000 are read.
 * 0x40000003: only behind "Microsoft Hv" with a maximum leaf Linux accepts. The scan of the
 * higher bases for another hypervisor emulating Hyper-V: only where those three leaves leave a
 * guest possible. DMI: only where CPUID alone cannot settle the verdict. */
bool verdict_needs_features(const struct machine_facts *f);
bool verdict_needs_scan(const struct machine_facts *f);
bool verdict_needs_dmi(const struct machine_facts *f);

/* Whether a higher base's signature names a hypervisor other than Hyper-V: the scan stops
 * there and keeps it as alt_leaf. */
bool verdict_names_other_hypervisor(const struct cpuid_regs *r);

/* The 12-byte vendor signature a hypervisor leaf carries in EBX, ECX, EDX, terminated. */
void cpuid_signature(const struct cpuid_regs *r, char sig[13]);

/* The hypervisor a 12-byte CPUID signature names ("kvm", "xen", …), or NULL. */
const char *hypervisor_from_signature(const char *sig);

const char *verdict_name(enum verdict v);
extern const char *const dmi_field_name[DMI_FIELDS];
