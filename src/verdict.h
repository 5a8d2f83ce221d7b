/* Is this machine a Hyper-V guest? A pure function of the facts gathered in facts.c, so a unit
 * test can hand it any machine. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hyperv.h"
#include "types.h"

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

/* What the ACPI FADT says (arm64), from fadt_parse(). */
enum fadt_result {
        FADT_UNREAD,    /* not read: x86, or no table (error says why) */
        FADT_HYPERV,    /* revision 6 or later, hypervisor_id "MsHyperV" */
        FADT_NOT_HYPERV, /* read, and it does not say Hyper-V: why says what it says */
};

struct fadt_facts {
        enum fadt_result result;
        int error;         /* FADT_UNREAD: negative errno of the read, 0 when not tried */
        unsigned type;     /* FADT_UNREAD: not 0, the st_mode of what is no regular file */
        bool foreign;      /* FADT_NOT_HYPERV: no FADT at all, revision means nothing */
        unsigned revision; /* FADT_HYPERV, FADT_NOT_HYPERV */
        const char *why;   /* FADT_NOT_HYPERV: static text */
};

struct machine_facts {
        bool has_cpuid;
        uint32_t last_leaf;         /* the last leaf verdict_record_leaf() took; 0 before any */
        struct cpuid_regs leaf1;    /* ECX bit 31: a hypervisor is present */
        struct cpuid_regs base;     /* 0x40000000: max leaf and vendor signature */
        struct cpuid_regs features; /* 0x40000003: what the partition may do */
        struct cpuid_regs hints;    /* 0x40000004: read on a root partition (nested?) */
        bool has_isolation;         /* 0x4000000C was read: a confidential guest's report */
        struct cpuid_regs isolation;
        bool scanned;               /* higher[] holds the bases above 0x40000000 */
        struct cpuid_regs higher[HV_SCAN_BASES - 1]; /* 0x40000100, 0x40000200, ... 0x4000ff00 */
        struct fadt_facts fadt;
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
        FLAVOUR_NESTED = 1u << 5, /* a root partition inside another Hyper-V's VM */
        FLAVOUR_CONFIDENTIAL = 1u << 6, /* Isolation set: isolation names the type */
};

/* A confidential guest's isolation (0x4000000C EBX bits 3-0), as Linux's hv_isolation_type. */
enum isolation_type {
        ISOLATION_NONE,
        ISOLATION_VBS,
        ISOLATION_SNP,
        ISOLATION_TDX,
};

#define EVIDENCE_MAX 8
#define EVIDENCE_LEN 192

struct machine_verdict {
        enum verdict verdict;
        const char *hypervisor; /* "microsoft", "kvm", … or NULL when none or unknown */
        unsigned flavour;
        int isolation;  /* FLAVOUR_CONFIDENTIAL with 0x4000000C read: its type; else -1 */
        int paravisor;  /* likewise: 0x4000000C EAX bit 0; else -1 */
        unsigned n_evidence;
        char evidence[EVIDENCE_MAX][EVIDENCE_LEN];
};

void verdict_decide(const struct machine_facts *f, struct machine_verdict *v);

/* Whether the disks under VMBus are another Hyper-V's synthetic disks: on a guest, and on a
 * nested root partition (Linux sets up VMBus on a root only when it is nested). */
bool verdict_vmbus_disks_are_synthetic(const struct machine_verdict *v);

/* What the gatherer must read, asked in this order once leaf 1 and 0x40000000 are read.
 * 0x40000003: only behind "Microsoft Hv" with a maximum leaf Linux accepts. The scan of every
 * higher base (Linux picks the hypervisor found highest): where Hyper-V is still possible, and
 * for a report (full) on any hypervisor, where it only names which one. 0x40000004: on a root.
 * 0x4000000C: for a report, on a confidential guest. DMI: only where neither CPUID nor VMBus
 * (has_vmbus, gathered first) settles the verdict. The FADT: only without CPUID (arm64, or any
 * architecture but x86). */
bool verdict_needs_features(const struct machine_facts *f);
bool verdict_needs_scan(const struct machine_facts *f, bool full);
bool verdict_needs_hints(const struct machine_facts *f);
bool verdict_needs_isolation(const struct machine_facts *f, bool full);
bool verdict_needs_dmi(const struct machine_facts *f);

/* The CPUID leaf the gatherer must read next, in the order above, from the facts recorded so
 * far (0: no more); with full, for a report. The gatherer loops: read it, hand it to
 * verdict_record_leaf(), ask again. */
uint32_t verdict_next_leaf(const struct machine_facts *f, bool full);
void verdict_record_leaf(struct machine_facts *f, uint32_t leaf, const struct cpuid_regs *r);

/* Parses len bytes of an ACPI FADT (binary, from FADT_PATH) as hyperv_detect_via_acpi() reads
 * it. A short, truncated or foreign table is FADT_NOT_HYPERV with why set. */
void fadt_parse(const unsigned char *buf, size_t len, struct fadt_facts *out);

/* The 12-byte vendor signature a hypervisor leaf carries in EBX, ECX, EDX, terminated. */
void cpuid_signature(const struct cpuid_regs *r, char sig[13]);

/* The hypervisor a 12-byte CPUID signature names ("kvm", "xen", …), or NULL. */
const char *hypervisor_from_signature(const char *sig);

const char *verdict_name(enum verdict v);
/* "VBS", "SEV-SNP", "TDX" ("none" for 0), or NULL for a type Linux does not know. */
const char *isolation_name(int type);
extern const char *const dmi_field_name[DMI_FIELDS];
