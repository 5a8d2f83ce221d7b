/* Executing CPUID: the only machine-specific code, a stub where there is none. The test build
 * links tests/testfacts.c instead, which answers from a file. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

#include "types.h"

/* True on x86, where CPUID exists; false elsewhere: arm64 decides from the ACPI FADT first, then
 * VMBus and DMI. */
bool cpuid_supported(void);

/* Executes CPUID for leaf (subleaf 0). All zero where CPUID is not supported. */
void cpuid_query(uint32_t leaf, struct cpuid_regs *r);
