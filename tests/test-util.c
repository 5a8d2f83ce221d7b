/* The string and file helpers every module leans on. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "unit.h"
#include "util.h"

static char dir[256];

static void setup_files(void) {
        tmpdir_create(dir, sizeof(dir));
}

static void teardown_files(void) {
        tmpdir_remove(dir);
}

START_TEST(copy_string_fits) {
        char dst[8];

        ck_assert(copy_string(dst, "sda", sizeof(dst)));
        ck_assert_str_eq(dst, "sda");
        ck_assert(copy_string(dst, "1234567", sizeof(dst)));
        ck_assert_str_eq(dst, "1234567");
        ck_assert(copy_string(dst, "", sizeof(dst)));
        ck_assert_str_eq(dst, "");
}
END_TEST

START_TEST(copy_string_truncates_and_says_so) {
        char dst[8];

        ck_assert(!copy_string(dst, "12345678", sizeof(dst)));
        ck_assert_str_eq(dst, "1234567");
        ck_assert(!copy_string(dst, "x", 1));
        ck_assert_str_eq(dst, "");
        ck_assert(copy_string(dst, "", 1));
}
END_TEST

START_TEST(copy_string_into_nothing_writes_nothing) {
        char dst[2] = { 'z', 'z' };

        ck_assert(!copy_string(dst, "", 0));
        ck_assert_int_eq(dst[0], 'z');
}
END_TEST

static const struct {
        const char *in;
        size_t len; /* 0: strlen(in) */
        size_t size;
        const char *out;
} escapes[] = {
        { "plain text", 0, 64, "plain text" },
        { "a\nb\tc\rd\\e", 0, 64, "a\\nb\\tc\\rd\\\\e" },
        { "\x01\x1b[0m\x7f", 0, 64, "\\x01\\x1b[0m\\x7f" },
        { "caf\xc3\xa9", 0, 64, "caf\\xc3\\xa9" },
        { "a\0b", 3, 64, "a\\x00b" },
        { "abcdefg", 0, 8, "abcdefg" },            /* exactly fills the buffer */
        { "abcdefgh", 0, 8, "abcd..." },           /* one byte more */
        { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 16, "aaaaaaaaaaaa..." },
        { "aaaa\x01", 0, 8, "aaaa..." },           /* an escape is never cut in half */
        { "aaa\x01", 0, 8, "aaa\\x01" },
        { "aa\x01", 0, 8, "aa\\x01" },
        { "", 0, 8, "" },
};

START_TEST(escape_text_makes_one_safe_line) {
        char out[64];
        size_t len = escapes[_i].len ? escapes[_i].len : strlen(escapes[_i].in);

        memset(out, 'Z', sizeof(out));
        escape_text(escapes[_i].in, len, out, escapes[_i].size);
        ck_assert_str_eq(out, escapes[_i].out);
        ck_assert_uint_lt(strlen(out), escapes[_i].size);
}
END_TEST

static const struct {
        const char *in;
        const char *out;
} strips[] = {
        { "  a b \t\r\n", "a b" },
        { "x", "x" },
        { "", "" },
        { " \t\r\n", "" },
        { "\tkey", "key" },
        { "value  ", "value" },
};

START_TEST(strip_removes_outer_blanks) {
        char s[32];

        ck_assert(copy_string(s, strips[_i].in, sizeof(s)));
        ck_assert_ptr_eq(strip(s), s);
        ck_assert_str_eq(s, strips[_i].out);
}
END_TEST

START_TEST(streq_treats_null_as_unequal) {
        ck_assert(streq("none", "none"));
        ck_assert(!streq("none", "noop"));
        ck_assert(!streq(NULL, "none"));
        ck_assert(!streq("none", NULL));
        ck_assert(!streq(NULL, NULL));
}
END_TEST

START_TEST(str_append_builds_and_says_when_full) {
        char buf[16];
        size_t len = str_append(buf, sizeof(buf), 0, "at=");

        len = str_append_number(buf, sizeof(buf), len, 1765100000);
        ck_assert_str_eq(buf, "at=1765100000");
        ck_assert_uint_eq(len, 13);
        len = str_append_number(buf, sizeof(buf), 0, -42);
        ck_assert_str_eq(buf, "-42");
        len = str_append_number(buf, sizeof(buf), len, 0);
        ck_assert_str_eq(buf, "-420");
        /* 15 bytes and the NUL fill it; one more does not fit, nor anything after. */
        len = str_append(buf, sizeof(buf), 0, "0123456789abcde");
        ck_assert_uint_eq(len, 15);
        ck_assert_uint_eq(str_append(buf, sizeof(buf), len, "f"), sizeof(buf));
        ck_assert_uint_eq(str_append(buf, sizeof(buf), sizeof(buf), ""), sizeof(buf));
        ck_assert_str_eq(buf, "0123456789abcde");
        ck_assert_uint_eq(str_append_number(buf, sizeof(buf), 0, -9223372036854775807LL - 1),
                          sizeof(buf));
}
END_TEST

START_TEST(path_join_fits_or_fails) {
        char buf[13];

        ck_assert(path_join(buf, sizeof(buf), "/sys/sda", "dev"));
        ck_assert_str_eq(buf, "/sys/sda/dev");
        ck_assert(!path_join(buf, sizeof(buf), "/sys/sda", "devno"));
}
END_TEST

START_TEST(read_file_bounded_exact_fit) {
        char path[512], buf[16];

        tmpdir_write(dir, "fifteen", "0123456789abcde", 15, path, sizeof(path));
        memset(buf, 'Z', sizeof(buf));
        ck_assert_int_eq(read_file_bounded(path, buf, sizeof(buf)), 15);
        ck_assert_str_eq(buf, "0123456789abcde");
}
END_TEST

START_TEST(read_file_bounded_one_byte_too_many) {
        char path[512], buf[16];

        tmpdir_write(dir, "sixteen", "0123456789abcdef", 16, path, sizeof(path));
        ck_assert_int_eq(read_file_bounded(path, buf, sizeof(buf)), -EFBIG);
        ck_assert_uint_lt(strlen(buf), sizeof(buf));
}
END_TEST

START_TEST(read_file_bounded_empty_and_missing) {
        char path[512], buf[16];

        tmpdir_write(dir, "empty", "", 0, path, sizeof(path));
        memset(buf, 'Z', sizeof(buf));
        ck_assert_int_eq(read_file_bounded(path, buf, sizeof(buf)), 0);
        ck_assert_str_eq(buf, "");

        snprintf(path, sizeof(path), "%s/absent", dir);
        ck_assert_int_eq(read_file_bounded(path, buf, sizeof(buf)), -ENOENT);
}
END_TEST

/* Opened without blocking, refused unread, and said what it is. */
START_TEST(read_file_typed_refuses_a_fifo) {
        char path[512], buf[16];
        unsigned type = 0;

        snprintf(path, sizeof(path), "%s/fifo", dir);
        ck_assert_int_eq(mkfifo(path, 0600), 0);
        ck_assert_int_eq(read_file_typed(path, buf, sizeof(buf), &type), -EBADFD);
        ck_assert_str_eq(read_error_text(-EBADFD, type), "a FIFO, not a regular file");
        ck_assert_int_eq(read_file_typed("/dev/zero", buf, sizeof(buf), &type), -EBADFD);
        ck_assert_str_eq(read_error_text(-EBADFD, type), "a character device, not a regular file");
        ck_assert_str_eq(read_error_text(-ENOENT, 0), "No such file or directory");
}
END_TEST

START_TEST(read_file_bounded_null_device_is_empty) {
        char buf[16] = "ZZZ";

        ck_assert_int_eq(read_file_bounded("/dev/null", buf, sizeof(buf)), 0);
        ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(read_file_bounded_directory) {
        char buf[16];

        ck_assert_int_eq(read_file_bounded(dir, buf, sizeof(buf)), -EISDIR);
}
END_TEST

Suite *util_suite(void) {
        Suite *s = suite_create("util");
        TCase *tc;

        tc = tcase_create("strings");
        tcase_add_test(tc, copy_string_fits);
        tcase_add_test(tc, copy_string_truncates_and_says_so);
        tcase_add_test(tc, copy_string_into_nothing_writes_nothing);
        tcase_add_loop_test(tc, escape_text_makes_one_safe_line, 0, ELEMENTSOF(escapes));
        tcase_add_loop_test(tc, strip_removes_outer_blanks, 0, ELEMENTSOF(strips));
        tcase_add_test(tc, streq_treats_null_as_unequal);
        tcase_add_test(tc, str_append_builds_and_says_when_full);
        tcase_add_test(tc, path_join_fits_or_fails);
        suite_add_tcase(s, tc);

        tc = tcase_create("files");
        tcase_add_checked_fixture(tc, setup_files, teardown_files);
        tcase_add_test(tc, read_file_bounded_exact_fit);
        tcase_add_test(tc, read_file_bounded_one_byte_too_many);
        tcase_add_test(tc, read_file_bounded_empty_and_missing);
        tcase_add_test(tc, read_file_bounded_directory);
        tcase_add_test(tc, read_file_typed_refuses_a_fifo);
        tcase_add_test(tc, read_file_bounded_null_device_is_empty);
        suite_add_tcase(s, tc);

        return s;
}
