/* json_string() on any text: the output must be one strict JSON string that decodes to the
 * input, with U+FFFD for each byte that is not valid UTF-8. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *s = malloc(size + 1);
        size_t left;

        FUZZ_CHECK(s, "cannot allocate memory");
        memcpy(s, data, size);
        s[size] = '\0';
        check_json_string(s);

        /* json.c's UTF-8 check and the one here are written apart: they must agree. */
        left = strlen(s);
        for (const unsigned char *p = (const unsigned char *) s; left > 0; p++, left--) {
                size_t got = utf8_sequence_length(p, left), want = utf8_valid_length(p, left);

                FUZZ_CHECK(got == want, "utf8_sequence_length %zu, want %zu at byte %zu", got, want,
                           (size_t) (p - (const unsigned char *) s));
        }
        free(s);
        return 0;
}
