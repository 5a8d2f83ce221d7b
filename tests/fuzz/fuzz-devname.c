/* devname_check() on any argument, and escape_text(), which shows a rejected one. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devname.h"
#include "invariants.h"
#include "util.h"

/* No component of path is "." or "..". */
static bool no_dot_component(const char *path) {
        const char *p = path;

        for (;;) {
                size_t len = strcspn(p, "/");

                if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
                        return false;
                if (p[len] == '\0')
                        return true;
                p += len + 1;
        }
}

static void check_devname(const char *arg) {
        enum devname_kind kind = (enum devname_kind) 77;
        const char *why = NULL;
        size_t len = strlen(arg);
        int r = devname_check(arg, &kind, &why);

        FUZZ_CHECK(r == 0 || r == -EINVAL, "devname_check returned %d", r);
        if (r < 0) {
                FUZZ_CHECK(why && why[0] && printable_within(why, strlen(why) + 1),
                           "rejected without a reason");
                return;
        }
        switch (kind) {
        case DEVNAME_KERNEL:
                FUZZ_CHECK(kernel_name_valid(arg), "kernel name that kernel_name_valid rejects");
                FUZZ_CHECK(!strchr(arg, '/'), "kernel name with '/'");
                FUZZ_CHECK(strcmp(arg, ".") != 0 && strcmp(arg, "..") != 0, "kernel name '.' or '..'");
                FUZZ_CHECK(len > 0 && len < KERNEL_NAME_MAX, "kernel name of %zu bytes", len);
                break;
        case DEVNAME_DEV:
        case DEVNAME_SYS:
                FUZZ_CHECK(strncmp(arg, kind == DEVNAME_DEV ? "/dev/" : "/sys/", 5) == 0 && len > 5,
                           "path of kind %d outside its directory", (int) kind);
                FUZZ_CHECK(no_dot_component(arg), "path with a '.' or '..' component");
                FUZZ_CHECK(len < DEVICE_PATH_MAX, "path of %zu bytes", len);
                break;
        default:
                FUZZ_CHECK(false, "accepted with kind %d", (int) kind);
        }
        for (size_t i = 0; i < len; i++)
                FUZZ_CHECK((unsigned char) arg[i] > 0x20 && (unsigned char) arg[i] < 0x7f,
                           "accepted with byte 0x%02x", (unsigned char) arg[i]);
}

/* escape_text's output when the buffer is large enough; out holds 4 * len + 1 bytes, ends[]
 * len + 1 entries: where each input byte's piece ends. */
static size_t escape_reference(const uint8_t *in, size_t len, char *out, size_t *ends) {
        size_t o = 0;

        ends[0] = 0;
        for (size_t i = 0; i < len; i++) {
                uint8_t c = in[i];

                if (c == '\n')
                        o += (size_t) sprintf(out + o, "\\n");
                else if (c == '\t')
                        o += (size_t) sprintf(out + o, "\\t");
                else if (c == '\r')
                        o += (size_t) sprintf(out + o, "\\r");
                else if (c == '\\')
                        o += (size_t) sprintf(out + o, "\\\\");
                else if (c < 0x20 || c >= 0x7f)
                        o += (size_t) sprintf(out + o, "\\x%02x", c);
                else
                        out[o++] = (char) c;
                ends[i + 1] = o;
        }
        out[o] = '\0';
        return o;
}

/* Within size bytes, escape_text gives the whole reference when it fits, else the longest
 * prefix ending between two pieces that leaves room for "...", then "...". */
static void check_escape(const uint8_t *in, size_t len, const char *ref, size_t ref_len,
                         const size_t *ends, size_t size) {
        char *out = malloc(size ? size : 1);
        size_t keep = 0;

        FUZZ_CHECK(out, "cannot allocate memory");
        memset(out, 0x7f, size);
        escape_text((const char *) in, len, out, size);
        if (size == 0) {
                free(out);
                return;
        }
        FUZZ_CHECK(printable_within(out, size), "escape_text into %zu bytes: not terminated or "
                                                "not printable ASCII", size);
        if (size < 5) {
                FUZZ_CHECK(out[0] == '\0', "escape_text into %zu bytes is not empty", size);
        } else if (ref_len < size) {
                FUZZ_CHECK(strcmp(out, ref) == 0, "escape_text into %zu bytes: '%s', not '%s'", size,
                           out, ref);
        } else {
                for (size_t i = 0; i <= len && ends[i] + 4 <= size; i++)
                        keep = ends[i];
                FUZZ_CHECK(strlen(out) == keep + 3 && strncmp(out, ref, keep) == 0 &&
                                   strcmp(out + keep, "...") == 0,
                           "escape_text into %zu bytes: '%s'", size, out);
        }
        free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const size_t sizes[] = { 0, 1, 4, 5, 6, 7, 8, 9, 16, 64, 256 };
        char *arg = malloc(size + 1), *ref = malloc(4 * size + 1);
        size_t *ends = malloc((size + 1) * sizeof(*ends)), ref_len;

        FUZZ_CHECK(arg && ref && ends, "cannot allocate memory");
        memcpy(arg, data, size);
        arg[size] = '\0';
        check_devname(arg);

        /* escape_text is given lengths, so NUL bytes reach it too. */
        ref_len = escape_reference(data, size, ref, ends);
        for (size_t i = 0; i < ELEMENTSOF(sizes); i++)
                check_escape(data, size, ref, ref_len, ends, sizes[i]);
        check_escape(data, size, ref, ref_len, ends, ref_len);
        check_escape(data, size, ref, ref_len, ends, ref_len + 1);
        free(ends);
        free(ref);
        free(arg);
        return 0;
}
