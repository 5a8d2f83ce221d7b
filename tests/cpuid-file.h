/* The CPUID file of the test build: one leaf per line, "LEAF EAX EBX ECX EDX", five hexadecimal
 * numbers with an optional 0x, blank lines and # comments allowed. */
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "cpuregs.h"

/* Every hypervisor base Linux scans, with room for the basic and extended leaves. */
#define CPUID_FILE_LEAVES_MAX 1024
#define CPUID_FILE_WHY_MAX    80

struct cpuid_file_leaf {
        uint32_t leaf;
        struct cpuid_regs r;
};

struct cpuid_file {
        size_t n;
        struct cpuid_file_leaf leaves[CPUID_FILE_LEAVES_MAX];
};

/* Parses len bytes of text (NUL bytes included, which are an error). Returns 0, or -EINVAL with
 * the 1-based number of the first bad line in *line and what is wrong with it in why. */
int cpuid_file_parse(const char *text, size_t len, struct cpuid_file *cf, unsigned *line,
                     char why[CPUID_FILE_WHY_MAX]);

/* The registers listed for leaf, all zero where it is not listed. */
void cpuid_file_lookup(const struct cpuid_file *cf, uint32_t leaf, struct cpuid_regs *r);
