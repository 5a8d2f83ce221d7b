/* The CPUID file of the test build: what it accepts, what each leaf reads as, and the exact
 * complaint about each kind of bad line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid-file.h"
#include "hyperv.h"
#include "unit.h"
#include "util.h"

static struct cpuid_file cf;

static void check_regs(uint32_t leaf, uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx) {
        struct cpuid_regs r;

        memset(&r, 0xa5, sizeof(r));
        cpuid_file_lookup(&cf, leaf, &r);
        ck_assert_msg(r.eax == eax && r.ebx == ebx && r.ecx == ecx && r.edx == edx,
                      "leaf 0x%08x reads %08x %08x %08x %08x, expected %08x %08x %08x %08x", leaf,
                      r.eax, r.ebx, r.ecx, r.edx, eax, ebx, ecx, edx);
}

static void parse_ok(const char *text, size_t len) {
        char why[CPUID_FILE_WHY_MAX];
        unsigned line = 99;

        ck_assert_msg(cpuid_file_parse(text, len, &cf, &line, why) == 0, "line %u: %s", line, why);
        ck_assert_uint_eq(line, 0);
}

START_TEST(cpuid_file_reads_a_hyperv_guest) {
        static const char text[] =
                "# Hyper-V Gen2 guest\n"
                "\n"
                "0x1 0x000806f8 0x00020800 0xfffa3203 0x178bfbff\n"
                "40000000 4000000b 7263694d 666f736f 76482074   # Microsoft Hv\n"
                "\t0X40000003\t0x00002e7f 0x003b8030 0x2 0xe0bed7b2\r\n"
                "   # indented comment\n"
                "0x40000100 0 0 0 0";

        parse_ok(text, strlen(text));
        ck_assert_uint_eq(cf.n, 4);
        check_regs(1, 0x000806f8, 0x00020800, 0xfffa3203, 0x178bfbff);
        check_regs(HV_LEAF_BASE, 0x4000000b, 0x7263694d, 0x666f736f, 0x76482074);
        check_regs(HV_LEAF_FEATURES, 0x00002e7f, 0x003b8030, 0x2, 0xe0bed7b2);
        check_regs(0x40000100, 0, 0, 0, 0);
}
END_TEST

START_TEST(cpuid_file_unlisted_leaf_reads_zero) {
        static const char text[] = "1 ffffffff ffffffff ffffffff ffffffff\n";

        parse_ok(text, strlen(text));
        check_regs(2, 0, 0, 0, 0);
        check_regs(HV_LEAF_BASE, 0, 0, 0, 0);
        check_regs(1, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff);
}
END_TEST

static const char *const no_leaf_texts[] = { "", "\n\n", "# arm64: no CPUID\n", " \t\r\n#x 1 2 3 4\n" };

START_TEST(cpuid_file_without_leaves_is_empty) {
        parse_ok(no_leaf_texts[_i], strlen(no_leaf_texts[_i]));
        ck_assert_uint_eq(cf.n, 0);
}
END_TEST

static const struct {
        const char *text;
        size_t len; /* 0: strlen(text) */
        unsigned line;
        const char *why;
} bad[] = {
        { "1 2 3 4\n", 0, 1, "4 numbers, expected LEAF EAX EBX ECX EDX" },
        { "\n# x\n1\n", 0, 3, "1 numbers, expected LEAF EAX EBX ECX EDX" },
        { "1 2 3 4 5 6\n", 0, 1, "more than 5 numbers" },
        { "1 2 3 4 g\n", 0, 1, "not a hexadecimal number" },
        { "1 2 3 4 0x\n", 0, 1, "not a hexadecimal number" },
        { "1 2 3 4 -1\n", 0, 1, "not a hexadecimal number" },
        { "1,2,3,4,5\n", 0, 1, "not a hexadecimal number" },
        { "1 2 3 4 100000000\n", 0, 1, "number larger than 32 bits" },
        { "1 2 3 4 0x00000000ffffffffff\n", 0, 1, "number larger than 32 bits" },
        { "1 0 0 0 0\n2 0 0 0 0\n0x1 1 1 1 1\n", 0, 3, "leaf 0x00000001 listed twice" },
        { "1 0 0 0 0\n2 0\0 0 0 0\n", 22, 2, "NUL byte" },
};

START_TEST(cpuid_file_names_the_bad_line) {
        char why[CPUID_FILE_WHY_MAX];
        size_t len = bad[_i].len ? bad[_i].len : strlen(bad[_i].text);
        unsigned line = 0;

        ck_assert_int_eq(cpuid_file_parse(bad[_i].text, len, &cf, &line, why), -EINVAL);
        ck_assert_uint_eq(line, bad[_i].line);
        ck_assert_str_eq(why, bad[_i].why);
}
END_TEST

START_TEST(cpuid_file_refuses_more_leaves_than_it_holds) {
        size_t size = (CPUID_FILE_LEAVES_MAX + 1) * 16, len = 0, fits = 0;
        char *text = malloc(size), why[CPUID_FILE_WHY_MAX];
        unsigned line = 0;

        ck_assert_ptr_nonnull(text);
        for (unsigned i = 0; i <= CPUID_FILE_LEAVES_MAX; i++) {
                fits = len;
                len += (size_t) snprintf(text + len, size - len, "%x 0 0 0 0\n", i);
        }
        ck_assert_int_eq(cpuid_file_parse(text, fits, &cf, &line, why), 0);
        ck_assert_uint_eq(cf.n, CPUID_FILE_LEAVES_MAX);
        ck_assert_int_eq(cpuid_file_parse(text, len, &cf, &line, why), -EINVAL);
        ck_assert_uint_eq(line, CPUID_FILE_LEAVES_MAX + 1);
        ck_assert_str_eq(why, "more than 1024 leaves");
        free(text);
}
END_TEST

Suite *cpuid_file_suite(void) {
        Suite *s = suite_create("cpuid-file");
        TCase *tc = tcase_create("parse");

        tcase_add_test(tc, cpuid_file_reads_a_hyperv_guest);
        tcase_add_test(tc, cpuid_file_unlisted_leaf_reads_zero);
        tcase_add_loop_test(tc, cpuid_file_without_leaves_is_empty, 0, ELEMENTSOF(no_leaf_texts));
        tcase_add_loop_test(tc, cpuid_file_names_the_bad_line, 0, ELEMENTSOF(bad));
        tcase_add_test(tc, cpuid_file_refuses_more_leaves_than_it_holds);
        suite_add_tcase(s, tc);
        return s;
}
