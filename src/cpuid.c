#include "cpuid.h"

#include <string.h>

/* HYPERV_SCHEDULER_NO_CPUID builds the test binary that decides as on arm64, from VMBus and DMI
 * alone, so that fake sysfs trees can stand for a whole Hyper-V guest. */
#if (defined(__i386__) || defined(__x86_64__)) && !defined(HYPERV_SCHEDULER_NO_CPUID)
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

void cpuid_signature(const struct cpuid_regs *r, char sig[13]) {
        memcpy(sig, &r->ebx, 4);
        memcpy(sig + 4, &r->ecx, 4);
        memcpy(sig + 8, &r->edx, 4);
        sig[12] = '\0';
}
