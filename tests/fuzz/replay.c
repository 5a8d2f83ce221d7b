/* A fuzz target without libFuzzer, built by any compiler: runs LLVMFuzzerTestOneInput once on
 * each file named, as `make fuzz-replay` does, for `make check` (tests/integration/schema.sh). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char *argv[]) {
        for (int i = 1; i < argc; i++) {
                FILE *f = fopen(argv[i], "rb");
                static uint8_t buf[1 << 16];
                size_t n;

                if (!f) {
                        fprintf(stderr, "cannot open '%s': %s\n", argv[i], strerror(errno));
                        return EXIT_FAILURE;
                }
                n = fread(buf, 1, sizeof(buf), f);
                fclose(f);
                LLVMFuzzerTestOneInput(buf, n);
        }
        return EXIT_SUCCESS;
}
