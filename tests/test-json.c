/* JSON strings: whatever bytes come in (device names, DMI strings, scheduler lists), what comes
 * out is valid JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "unit.h"
#include "util.h"

static const struct {
        const char *name;
        const char *in;
        const char *out;
} strings[] = {
        { "plain text", "sda", "\"sda\"" },
        { "empty", "", "\"\"" },
        { "quotes and backslashes", "say \"hi\" \\o/", "\"say \\\"hi\\\" \\\\o/\"" },
        { "newline and tab", "a\nb\tc", "\"a\\nb\\tc\"" },
        { "control characters", "\x01\r\x1f", "\"\\u0001\\u000d\\u001f\"" },
        { "DEL", "a\x7f", "\"a\\u007f\"" },
        { "two-byte UTF-8", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
        { "three-byte UTF-8", "\xe2\x82\xac 5", "\"\xe2\x82\xac 5\"" },
        { "four-byte UTF-8", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
        { "highest code point", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
        { "lone continuation byte", "a\x80z", "\"a\\ufffdz\"" },
        { "truncated sequence at the end", "\xe2\x82", "\"\\ufffd\\ufffd\"" },
        { "truncated sequence before ASCII", "\xe2\x82z", "\"\\ufffd\\ufffdz\"" },
        { "truncated four-byte sequence", "\xf0\x9f\x98!", "\"\\ufffd\\ufffd\\ufffd!\"" },
        { "overlong slash", "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
        { "overlong three-byte", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
        { "surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
        { "above U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
        { "F5", "\xf5", "\"\\ufffd\"" },
        { "FF", "x\xffy", "\"x\\ufffdy\"" },
        { "invalid byte before a quote", "\xc3\"", "\"\\ufffd\\\"\"" },
};

/* What json_string writes for s; the caller frees it. */
static char *json_of(const char *s) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);

        ck_assert_ptr_nonnull(f);
        json_string(f, s);
        ck_assert_int_eq(fclose(f), 0);
        return buf;
}

START_TEST(json_string_escapes_exactly) {
        char *out = json_of(strings[_i].in);

        ck_assert_msg(strcmp(out, strings[_i].out) == 0, "%s: got %s, expected %s",
                      strings[_i].name, out, strings[_i].out);
        free(out);
}
END_TEST

START_TEST(json_string_null_is_null) {
        char *out = json_of(NULL);

        ck_assert_str_eq(out, "null");
        free(out);
}
END_TEST

START_TEST(json_string_output_is_printable_ascii_or_utf8) {
        char in[256], *out;

        /* Every byte value once: the output holds no raw control character. */
        for (int i = 1; i < 256; i++)
                in[i - 1] = (char) i;
        in[255] = '\0';
        out = json_of(in);
        for (const unsigned char *p = (const unsigned char *) out; *p; p++)
                ck_assert_msg(*p >= 0x20 && *p != 0x7f, "raw byte 0x%02x in output", *p);
        ck_assert(strstr(out, "\\u0001"));
        ck_assert(strstr(out, "\\u007f"));
        free(out);
}
END_TEST

static const struct {
        const char *bytes;
        size_t avail;
        size_t len;
} sequences[] = {
        { "a", 1, 1 },
        { "\x7f", 1, 1 },
        { "\x80", 1, 0 },
        { "\xbf", 1, 0 },
        { "\xc0\x80", 2, 0 },
        { "\xc1\xbf", 2, 0 },
        { "\xc2\x80", 2, 2 },
        { "\xc2\x80", 1, 0 },
        { "\xc2\x7f", 2, 0 },
        { "\xc2\xc0", 2, 0 },
        { "\xdf\xbf", 2, 2 },
        { "\xe0\xa0\x80", 3, 3 },
        { "\xe0\x9f\xbf", 3, 0 },
        { "\xe2\x82\xac", 3, 3 },
        { "\xe2\x82\xac", 2, 0 },
        { "\xe2\x82\x28", 3, 0 },
        { "\xed\x9f\xbf", 3, 3 },
        { "\xed\xa0\x80", 3, 0 },
        { "\xef\xbf\xbf", 3, 3 },
        { "\xf0\x90\x80\x80", 4, 4 },
        { "\xf0\x8f\xbf\xbf", 4, 0 },
        { "\xf0\x9f\x98\x80", 3, 0 },
        { "\xf0\x9f\x98\x28", 4, 0 },
        { "\xf4\x8f\xbf\xbf", 4, 4 },
        { "\xf4\x90\x80\x80", 4, 0 },
        { "\xf5\x80\x80\x80", 4, 0 },
        { "\xff", 1, 0 },
};

START_TEST(utf8_sequence_length_edges) {
        size_t len = utf8_sequence_length((const unsigned char *) sequences[_i].bytes,
                                          sequences[_i].avail);

        ck_assert_msg(len == sequences[_i].len, "case %d: length %zu, expected %zu", _i, len,
                      sequences[_i].len);
}
END_TEST

/* The writer places every comma and colon: a document of each kind of value, nested. */
START_TEST(json_writer_places_the_punctuation) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        struct json j;

        ck_assert_ptr_nonnull(f);
        json_begin(&j, f);
        json_object_begin(&j);
        json_key(&j, "s");
        json_str(&j, "a\"b");
        json_key(&j, "n");
        json_str(&j, NULL);
        json_key(&j, "empty");
        json_array_begin(&j, false);
        json_array_end(&j);
        json_key(&j, "list");
        json_array_begin(&j, false);
        json_int(&j, -1);
        json_bool(&j, true);
        json_bool(&j, false);
        json_null(&j);
        json_object_begin(&j);
        json_object_end(&j);
        json_array_end(&j);
        json_key(&j, "o");
        json_object_begin(&j);
        json_key(&j, "k");
        json_int(&j, 42);
        json_object_end(&j);
        json_object_end(&j);
        json_end(&j);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_str_eq(buf, "{\"s\": \"a\\\"b\", \"n\": null, \"empty\": [], "
                              "\"list\": [-1, true, false, null, {}], \"o\": {\"k\": 42}}\n");
        free(buf);
}
END_TEST

START_TEST(json_writer_one_item_a_line) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        struct json j;

        ck_assert_ptr_nonnull(f);
        json_begin(&j, f);
        json_object_begin(&j);
        json_key(&j, "none");
        json_array_begin(&j, true);
        json_array_end(&j);
        json_key(&j, "two");
        json_array_begin(&j, true);
        json_object_begin(&j);
        json_key(&j, "a");
        json_int(&j, 1);
        json_key(&j, "b");
        json_array_begin(&j, false);
        json_str(&j, "x");
        json_str(&j, "y");
        json_array_end(&j);
        json_object_end(&j);
        json_object_begin(&j);
        json_object_end(&j);
        json_array_end(&j);
        json_object_end(&j);
        json_end(&j);
        ck_assert_int_eq(fclose(f), 0);
        ck_assert_str_eq(buf, "{\"none\": [], \"two\": [\n  {\"a\": 1, \"b\": [\"x\", \"y\"]},\n  {}\n]}\n");
        free(buf);
}
END_TEST

Suite *json_suite(void) {
        Suite *s = suite_create("json");
        TCase *tc;

        tc = tcase_create("string");
        tcase_add_loop_test(tc, json_string_escapes_exactly, 0, ELEMENTSOF(strings));
        tcase_add_test(tc, json_string_null_is_null);
        tcase_add_test(tc, json_string_output_is_printable_ascii_or_utf8);
        suite_add_tcase(s, tc);

        tc = tcase_create("writer");
        tcase_add_test(tc, json_writer_places_the_punctuation);
        tcase_add_test(tc, json_writer_one_item_a_line);
        suite_add_tcase(s, tc);

        tc = tcase_create("utf8");
        tcase_add_loop_test(tc, utf8_sequence_length_edges, 0, ELEMENTSOF(sequences));
        suite_add_tcase(s, tc);

        return s;
}
