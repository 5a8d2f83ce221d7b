/* cpuid_file_parse() on any bytes, as HYPERV_SCHEDULER_TEST_CPUID names them to the test build.
 * Accepted: distinct leaves that read back as listed and that, written out again, parse to the
 * same table. Refused: a line number within the input and a printable reason. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid-file.h"
#include "invariants.h"

static struct cpuid_file cf, again;
static char text[CPUID_FILE_LEAVES_MAX * 46 + 1];

static void check_accepted(void) {
        char why[CPUID_FILE_WHY_MAX];
        size_t len = 0;
        unsigned line;

        FUZZ_CHECK(cf.n <= CPUID_FILE_LEAVES_MAX, "%zu leaves", cf.n);
        for (size_t i = 0; i < cf.n; i++) {
                const struct cpuid_file_leaf *l = &cf.leaves[i];
                struct cpuid_regs r;

                cpuid_file_lookup(&cf, l->leaf, &r);
                FUZZ_CHECK(memcmp(&r, &l->r, sizeof(r)) == 0, "leaf 0x%x does not read back", l->leaf);
                for (size_t j = 0; j < i; j++)
                        FUZZ_CHECK(cf.leaves[j].leaf != l->leaf, "leaf 0x%x twice", l->leaf);
                len += (size_t) snprintf(text + len, sizeof(text) - len, "0x%x %x %X 0x%08x %x\n",
                                         l->leaf, l->r.eax, l->r.ebx, l->r.ecx, l->r.edx);
        }
        FUZZ_CHECK(cpuid_file_parse(text, len, &again, &line, why) == 0, "rewritten: line %u: %s",
                   line, why);
        FUZZ_CHECK(again.n == cf.n && memcmp(again.leaves, cf.leaves, cf.n * sizeof(cf.leaves[0])) == 0,
                   "rewritten table differs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char why[CPUID_FILE_WHY_MAX];
        unsigned line = 12345, lines = 1;
        int r;

        for (size_t i = 0; i < size; i++)
                lines += data[i] == '\n';
        r = cpuid_file_parse((const char *) data, size, &cf, &line, why);
        if (r == 0) {
                FUZZ_CHECK(line == 0, "accepted with line %u", line);
                check_accepted();
                return 0;
        }
        FUZZ_CHECK(r == -EINVAL, "returned %d", r);
        FUZZ_CHECK(line >= 1 && line <= lines, "line %u of %u", line, lines);
        FUZZ_CHECK(why[0] && printable_within(why, sizeof(why)), "reason not printable");
        return 0;
}
