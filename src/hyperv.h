/* What Hyper-V says about itself through CPUID and DMI, in one place: the gatherer (facts.c),
 * the verdict (verdict.c) and the unit tests all use these names. Values as in the Hypervisor
 * Top Level Functional Specification and Linux's include/hyperv/hvgdk_mini.h. */
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

/* KVM and Xen move their own signature up by multiples of 0x100 when they emulate Hyper-V.
 * These are the bases Linux's hypervisor_cpuid_base() scans, 0x40000000 included. */
#define HV_SCAN_FIRST 0x40000000u
#define HV_SCAN_LAST  0x4000ff00u
#define HV_SCAN_STEP  0x100u

/* DMI chassis asset tag of every Azure VM. */
#define AZURE_ASSET_TAG "7783-7084-3265-9085-8269-3286-77"
