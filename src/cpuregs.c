#include "cpuregs.h"

#include <string.h>

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>

bool cpuid_supported(void) {
        return true;
}

void cpuid_query(uint32_t leaf, struct cpuid_regs *r) {
        /* __cpuid rather than __get_cpuid: the latter refuses hypervisor leaves above the
         * basic maximum. */
        __cpuid_count(leaf, 0, r->eax, r->ebx, r->ecx, r->edx);
}
#else
bool cpuid_supported(void) {
        return false;
}

void cpuid_query(uint32_t leaf, struct cpuid_regs *r) {
        (void) leaf;
        memset(r, 0, sizeof(*r));
}
#endif
