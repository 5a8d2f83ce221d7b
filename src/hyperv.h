/* What Hyper-V says about itself through CPUID, ACPI and DMI, in one place: the gatherer
 * (facts.c), the verdict (verdict.c) and the unit tests all use these names. Values as in the
 * Hypervisor Top Level Functional Specification and Linux's include/hyperv/hvgdk_mini.h.
 *
 * The rules follow the kernel sources as read: Linux 6.12.118 (Debian's linux-source-6.12) for
 * arch/x86/kernel/cpu/hypervisor.c (detect_hypervisor_vendor() and each hypervisor's detect),
 * arch/x86/kernel/cpu/mshyperv.c (ms_hyperv_platform(), the root test of 6.12) and
 * drivers/hv/vmbus_drv.c (hv_acpi_init()); drivers/hv/hv_common.c at torvalds/linux commit
 * 04df7ac39943 (hv_identify_partition_type(), with CONFIG_MSHV_ROOT); and the 2025 arm64 series
 * as posted (hyperv_detect_via_acpi(), hyperv_detect_via_smccc()). */
#pragma once

/* CPUID 1 ECX: a hypervisor is present. */
#define CPUID1_ECX_HYPERVISOR (1u << 31)

/* The hypervisor range: 0x40000000 holds the maximum leaf in EAX and the vendor signature in
 * EBX, ECX, EDX. */
#define HV_LEAF_BASE      0x40000000u
#define HV_SIGNATURE      "Microsoft Hv"
/* Linux accepts Hyper-V only with a maximum leaf in this range (HYPERV_CPUID_MIN, _MAX). */
#define HV_MAX_LEAF_MIN   0x40000005u
#define HV_MAX_LEAF_MAX   0x4000ffffu

/* 0x40000003: EAX the MSRs the partition may use, EBX its privileges. */
#define HV_LEAF_FEATURES         0x40000003u
#define HV_EAX_HYPERCALL_MSR     (1u << 5)
#define HV_EAX_VP_INDEX          (1u << 6)
#define HV_EBX_CREATE_PARTITIONS (1u << 0)
#define HV_EBX_CPU_MANAGEMENT    (1u << 12)
#define HV_EBX_ISOLATION         (1u << 22)

/* 0x40000004 EAX, the hints: this Hyper-V runs nested in another (HV_X64_HYPERV_NESTED). */
#define HV_LEAF_HINTS    0x40000004u
#define HV_EAX_NESTED    (1u << 12)

/* 0x4000000C, the isolation configuration of a confidential guest: EAX bit 0 a paravisor is
 * present, EBX bits 3-0 the isolation type (HV_ISOLATION_TYPE_VBS, _SNP, _TDX). */
#define HV_LEAF_ISOLATION        0x4000000cu
#define HV_EAX_PARAVISOR_PRESENT (1u << 0)
#define HV_EBX_ISOLATION_TYPE    0xfu

/* KVM and Xen move their own signature up by multiples of 0x100 when they emulate Hyper-V.
 * These are the bases Linux's cpuid_base_hypervisor() scans, 0x40000000 included. */
#define HV_SCAN_FIRST 0x40000000u
#define HV_SCAN_LAST  0x4000ff00u
#define HV_SCAN_STEP  0x100u
#define HV_SCAN_BASES 256u

/* arm64: the ACPI FADT, as userspace sees it. Its header gives the length in bytes 4-7
 * (little-endian) and the revision in byte 8; from revision 6 the 8 bytes at 268 are the
 * hypervisor's vendor identity. */
#define FADT_PATH              "/sys/firmware/acpi/tables/FACP"
#define FADT_HEADER_LEN        36u
#define FADT_HYPERVISOR_ID_OFF 268u
#define FADT_HYPERVISOR_ID_END 276u
#define FADT_MIN_REVISION      6u
#define FADT_HYPERV_ID         "MsHyperV"

/* DMI chassis asset tag of every Azure VM. */
#define AZURE_ASSET_TAG "7783-7084-3265-9085-8269-3286-77"
