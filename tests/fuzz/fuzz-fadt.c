/* fadt_parse() on any bytes, as /sys/firmware/acpi/tables/FACP may hold them: it must not read
 * past them, must say Hyper-V only for a revision-6-or-later table of at least 276 bytes whose
 * hypervisor_id is "MsHyperV", and must give a printable reason otherwise. */
#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        /* A copy of exactly size bytes, so that ASan catches a read beyond them. */
        unsigned char *buf = malloc(size ? size : 1);
        struct fadt_facts out;
        uint32_t length;

        FUZZ_CHECK(buf != NULL, "out of memory");
        memcpy(buf, data, size);
        fadt_parse(buf, size, &out);
        if (out.result == FADT_HYPERV) {
                memcpy(&length, buf + 4, 4);
                FUZZ_CHECK(size >= FADT_HYPERVISOR_ID_END && memcmp(buf, "FACP", 4) == 0 &&
                                   buf[8] >= FADT_MIN_REVISION && le32toh(length) >= FADT_HYPERVISOR_ID_END &&
                                   le32toh(length) <= size &&
                                   memcmp(buf + FADT_HYPERVISOR_ID_OFF, FADT_HYPERV_ID, 8) == 0,
                           "Hyper-V from a table that does not say it");
                FUZZ_CHECK(!out.why && out.revision == buf[8], "why or revision set wrong");
        } else {
                FUZZ_CHECK(out.result == FADT_NOT_HYPERV && out.why &&
                                   printable_within(out.why, 64),
                           "result %d without a printable reason", (int) out.result);
        }
        free(buf);
        return 0;
}
