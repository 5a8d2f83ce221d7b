/* Parsing queue/scheduler: the kernel's list, and everything that is not one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "schedlist.h"
#include "unit.h"
#include "util.h"

static const struct {
        const char *text;
        int ret;
        const char *names; /* the parsed names joined by one space */
        int current;
} lists[] = {
        { "none [mq-deadline] kyber bfq\n", 0, "none mq-deadline kyber bfq", 1 },
        { "none [mq-deadline] kyber bfq", 0, "none mq-deadline kyber bfq", 1 },
        { "[none] mq-deadline\n", 0, "none mq-deadline", 0 },
        { "noop deadline [cfq]\n", 0, "noop deadline cfq", 2 },
        { "none", 0, "none", -1 },
        { "none\n", 0, "none", -1 },
        { "[none]", 0, "none", 0 },
        { "", 0, "", -1 },
        { " \t\n\n  ", 0, "", -1 },
        { "\t none \t [kyber]\n\n", 0, "none kyber", 1 },
        { "mq_deadline-2 x9", 0, "mq_deadline-2 x9", -1 },
        { "abcdefghijklmno", 0, "abcdefghijklmno", -1 }, /* 15 bytes: the longest name */
        { "abcdefghijklmnop", -EINVAL, NULL, 0 },        /* 16 bytes */
        { "none [abcdefghijklmnop]", -EINVAL, NULL, 0 },
        { "foo bar [", -EINVAL, NULL, 0 },
        { "[[none]]", -EINVAL, NULL, 0 },
        { "[a] [b]", -EINVAL, NULL, 0 },
        { "[none] [none]", -EINVAL, NULL, 0 },
        { "[]", -EINVAL, NULL, 0 },
        { "[none", -EINVAL, NULL, 0 },
        { "none]", -EINVAL, NULL, 0 },
        { "[ none ]", -EINVAL, NULL, 0 },
        { "None", -EINVAL, NULL, 0 },
        { "MQ-DEADLINE", -EINVAL, NULL, 0 },
        { "bfq\x01", -EINVAL, NULL, 0 },
        { "bfq\rkyber", -EINVAL, NULL, 0 },
        { "none k\xc3\xa9", -EINVAL, NULL, 0 },
        { "none \xff", -EINVAL, NULL, 0 },
        { "none,kyber", -EINVAL, NULL, 0 },
        { "../none", -EINVAL, NULL, 0 },
};

static void join(const struct sched_list *l, char *out, size_t size) {
        out[0] = '\0';
        for (unsigned i = 0; i < l->n; i++) {
                if (i > 0)
                        strncat(out, " ", size - strlen(out) - 1);
                strncat(out, l->name[i], size - strlen(out) - 1);
        }
}

START_TEST(scheduler_list_parses_as_expected) {
        struct sched_list l;
        char joined[SCHED_LIST_MAX * SCHED_NAME_MAX + SCHED_LIST_MAX];
        int r = sched_list_parse(lists[_i].text, &l);

        ck_assert_msg(r == lists[_i].ret, "'%s': returned %d, expected %d", lists[_i].text, r,
                      lists[_i].ret);
        if (r < 0)
                return;
        join(&l, joined, sizeof(joined));
        ck_assert_str_eq(joined, lists[_i].names);
        ck_assert_int_eq(l.current, lists[_i].current);
}
END_TEST

/* "s00 s01 … " with n names, the one at index current bracketed. */
static void make_list(char *text, size_t size, unsigned n, int current) {
        text[0] = '\0';
        for (unsigned i = 0; i < n; i++) {
                size_t len = strlen(text);

                snprintf(text + len, size - len, (int) i == current ? "[s%02u] " : "s%02u ", i);
        }
}

START_TEST(sixteen_names_fit) {
        struct sched_list l;
        char text[256];

        make_list(text, sizeof(text), SCHED_LIST_MAX, SCHED_LIST_MAX - 1);
        ck_assert_int_eq(sched_list_parse(text, &l), 0);
        ck_assert_uint_eq(l.n, SCHED_LIST_MAX);
        ck_assert_int_eq(l.current, SCHED_LIST_MAX - 1);
        ck_assert_str_eq(l.name[SCHED_LIST_MAX - 1], "s15");
}
END_TEST

START_TEST(seventeen_names_are_too_many) {
        struct sched_list l;
        char text[256];

        make_list(text, sizeof(text), SCHED_LIST_MAX + 1, 0);
        ck_assert_int_eq(sched_list_parse(text, &l), -E2BIG);
}
END_TEST

START_TEST(four_kib_of_blanks_around_a_name_parse) {
        static char text[4097];
        struct sched_list l;

        memset(text, ' ', 4096);
        memcpy(text + 2000, "[none]", 6);
        text[4095] = '\n';
        ck_assert_int_eq(sched_list_parse(text, &l), 0);
        ck_assert_uint_eq(l.n, 1);
        ck_assert_str_eq(sched_list_current(&l), "none");
}
END_TEST

START_TEST(four_kib_token_is_invalid) {
        static char text[4097];
        struct sched_list l;

        memset(text, 'a', 4096);
        ck_assert_int_eq(sched_list_parse(text, &l), -EINVAL);
}
END_TEST

START_TEST(name_validity_uses_length_not_terminator) {
        ck_assert(sched_name_valid("none", 4));
        ck_assert(sched_name_valid("nonexyz", 4));
        ck_assert(!sched_name_valid("no\0ne", 5));
        ck_assert(!sched_name_valid("none", 0));
        ck_assert(sched_name_valid("abcdefghijklmno", 15));
        ck_assert(!sched_name_valid("abcdefghijklmnop", 16));
        ck_assert(!sched_name_valid("No", 2));
}
END_TEST

START_TEST(find_matches_whole_names) {
        struct sched_list l;

        ck_assert_int_eq(sched_list_parse("none [mq-deadline] kyber bfq", &l), 0);
        ck_assert_int_eq(sched_list_find(&l, "none"), 0);
        ck_assert_int_eq(sched_list_find(&l, "mq-deadline"), 1);
        ck_assert_int_eq(sched_list_find(&l, "bfq"), 3);
        ck_assert_int_eq(sched_list_find(&l, "cfq"), -1);
        ck_assert_int_eq(sched_list_find(&l, "mq"), -1);
        ck_assert_int_eq(sched_list_find(&l, "[mq-deadline]"), -1);
        ck_assert_int_eq(sched_list_find(&l, ""), -1);
}
END_TEST

START_TEST(current_is_the_bracketed_name) {
        struct sched_list l;

        ck_assert_int_eq(sched_list_parse("none [mq-deadline] kyber bfq", &l), 0);
        ck_assert_str_eq(sched_list_current(&l), "mq-deadline");
        ck_assert_int_eq(sched_list_parse("none", &l), 0);
        ck_assert_ptr_null(sched_list_current(&l));
        ck_assert_int_eq(sched_list_parse("", &l), 0);
        ck_assert_ptr_null(sched_list_current(&l));
}
END_TEST

START_TEST(reparse_forgets_previous_list) {
        struct sched_list l;

        ck_assert_int_eq(sched_list_parse("none [mq-deadline] kyber bfq", &l), 0);
        ck_assert_int_eq(sched_list_parse("bfq", &l), 0);
        ck_assert_uint_eq(l.n, 1);
        ck_assert_int_eq(l.current, -1);
        ck_assert_int_eq(sched_list_find(&l, "kyber"), -1);
}
END_TEST

Suite *schedlist_suite(void) {
        Suite *s = suite_create("schedlist");
        TCase *tc;

        tc = tcase_create("parse");
        tcase_add_loop_test(tc, scheduler_list_parses_as_expected, 0, ELEMENTSOF(lists));
        tcase_add_test(tc, reparse_forgets_previous_list);
        tcase_add_test(tc, name_validity_uses_length_not_terminator);
        suite_add_tcase(s, tc);

        tc = tcase_create("limits");
        tcase_add_test(tc, sixteen_names_fit);
        tcase_add_test(tc, seventeen_names_are_too_many);
        tcase_add_test(tc, four_kib_of_blanks_around_a_name_parse);
        tcase_add_test(tc, four_kib_token_is_invalid);
        suite_add_tcase(s, tc);

        tc = tcase_create("lookup");
        tcase_add_test(tc, find_matches_whole_names);
        tcase_add_test(tc, current_is_the_bracketed_name);
        suite_add_tcase(s, tc);

        return s;
}
