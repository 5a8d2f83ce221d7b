/* Gathering the machine facts the verdict decides on: CPUID, the ACPI FADT (arm64), DMI,
 * VMBus, kernel release. */
#pragma once
#include <stdbool.h>

#include "verdict.h"

/* Everything verdict_decide() needs, read only where it can change the verdict: the scan of the
 * higher CPUID bases only where Hyper-V is still possible, DMI only where CPUID cannot settle
 * it. With full, also what only the report shows: the scan on any hypervisor (it names the one
 * Linux picks), 0x4000000C on a confidential guest, DMI always, and the kernel release. */
/* In two steps, so that a run that CPUID settles reads no DMI: first VMBus, CPUID and the FADT,
 * then, with the same full, the rest. Neither needs libudev. */
void facts_gather_early(struct machine_facts *f, bool full);
void facts_gather_late(struct machine_facts *f, bool full);
