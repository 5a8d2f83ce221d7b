/* record_parse() on any text: a record it accepts is one record_format() writes back, every
 * field printable, and parsed again the same. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct record r, again;
        char text[RECORD_FILE_MAX * 2];
        int r1 = record_parse((const char *) data, size, &r), n;

        FUZZ_CHECK(r1 == 0 || r1 == -EINVAL, "record_parse returned %d", r1);
        if (r1 < 0)
                return 0;
        FUZZ_CHECK(printable_within(r.name, sizeof(r.name)) && r.name[0], "bad name");
        FUZZ_CHECK(printable_within(r.from, sizeof(r.from)) && r.from[0], "bad from");
        FUZZ_CHECK(printable_within(r.to, sizeof(r.to)) && r.to[0], "bad to");
        FUZZ_CHECK(r.at >= 0, "negative time");
        n = record_format(&r, text, sizeof(text));
        FUZZ_CHECK(n > 0, "an accepted record cannot be written: %d", n);
        FUZZ_CHECK(record_parse(text, (size_t) n, &again) == 0, "what was written is no record");
        FUZZ_CHECK(memcmp(&r, &again, sizeof(r)) == 0, "written and read again, another record");
        return 0;
}
