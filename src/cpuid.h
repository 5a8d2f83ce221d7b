/* Reading CPUID: the only machine-specific code, compiled to a stub where there is none. */
#pragma once
#include <stdbool.h>
#include <stdint.h>

struct cpuid_regs {
        uint32_t eax, ebx, ecx, edx;
};

/* True on x86, where CPUID exists; false elsewhere (arm64 decides from VMBus and DMI). */
bool cpuid_supported(void);

/* Executes CPUID for leaf (subleaf 0). All zero where CPUID is not supported. */
void cpuid_query(uint32_t leaf, struct cpuid_regs *r);

/* The 12-byte vendor signature a hypervisor leaf carries in EBX, ECX, EDX, terminated. */
void cpuid_signature(const struct cpuid_regs *r, char sig[13]);
