/* A record's text (src/record.c): what is read back is what was written, anything else is no
 * record; which disk a record is of; its time as RFC 3339. */
#include <errno.h>
#include <string.h>

#include "record.h"
#include "unit.h"

static const char sample[] = "name=sda\n"
                             "diskseq=9\n"
                             "devpath=/devices/vmbus/block/sda\n"
                             "devnum=8:0\n"
                             "from=mq-deadline\n"
                             "to=none\n"
                             "by=udev\n"
                             "boot=0b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c\n"
                             "at=1796409791\n";

static struct record parsed(const char *text) {
        struct record r;

        ck_assert_int_eq(record_parse(text, strlen(text), &r), 0);
        return r;
}

START_TEST(test_parse) {
        struct record r = parsed(sample);

        ck_assert_str_eq(r.name, "sda");
        ck_assert_str_eq(r.diskseq, "9");
        ck_assert_str_eq(r.devpath, "/devices/vmbus/block/sda");
        ck_assert_str_eq(r.devnum, "8:0");
        ck_assert_str_eq(r.from, "mq-deadline");
        ck_assert_str_eq(r.to, "none");
        ck_assert_str_eq(r.by, "udev");
        ck_assert_int_eq(r.at, 1796409791);
}
END_TEST

START_TEST(test_round_trip) {
        struct record r = parsed(sample), again;
        char text[RECORD_FILE_MAX];
        int n = record_format(&r, text, sizeof(text));

        ck_assert_int_eq(n, (int) strlen(sample));
        ck_assert_str_eq(text, sample);
        ck_assert_int_eq(record_parse(text, (size_t) n, &again), 0);
        ck_assert_int_eq(memcmp(&r, &again, sizeof(r)), 0);
        ck_assert_int_eq(record_format(&r, text, (size_t) n), -ENOBUFS);
}
END_TEST

/* Without diskseq (before Linux 5.15) a record still is one. */
START_TEST(test_no_diskseq) {
        static const char text[] = "name=sda\ndevpath=/devices/x/sda\ndevnum=8:0\nfrom=noop\n"
                                   "to=none\nby=hand\nboot=0b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c\nat=0\n";
        struct record r = parsed(text);

        ck_assert_str_eq(r.diskseq, "");
}
END_TEST

#define BOOT "boot=0b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c\n"
static const char *const not_records[] = {
        "",
        "name=sda\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOT",             /* no at */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\n" BOOT "at=1\n",          /* no by */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nboot=1\nat=1\n", /* no UUID */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=foo\n" BOOT "at=1\n",   /* by */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=253402300800\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=../../x\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=B\nby=hand\n" BOOT "at=1\n",
        "name=s\\da\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1",         /* no newline */
        "name=sda\nname=sdb\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1\nat=2\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=-1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1x\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1\ncolour=blue\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a b\nto=b\nby=hand\nBOOTat=1\n",     /* a space */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=\nto=b\nby=hand\nBOOTat=1\n",        /* empty */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=abcdefghijklmnop\nto=b\nby=hand\nBOOTat=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nBOOTat=1\n\n",     /* empty line */
};

START_TEST(test_not_a_record) {
        const char *text = not_records[_i];
        struct record r;

        ck_assert_msg(record_parse(text, strlen(text), &r) == -EINVAL, "accepted: %s", text);
}
END_TEST

START_TEST(test_same_disk) {
        struct record a = parsed(sample), b = a;

        ck_assert(record_same_disk(&a, &b));
        /* Another diskseq: another disk, whatever its path and number. */
        strcpy(b.diskseq, "10");
        ck_assert(!record_same_disk(&a, &b));
        strcpy(b.diskseq, "9");
        strcpy(b.name, "sdb");
        ck_assert(!record_same_disk(&a, &b));
        /* Without a diskseq, the DEVPATH and the device number. */
        b = a;
        b.diskseq[0] = '\0';
        ck_assert(record_same_disk(&a, &b));
        strcpy(b.devnum, "8:16");
        ck_assert(!record_same_disk(&a, &b));
        b = a;
        b.diskseq[0] = '\0';
        strcpy(b.devpath, "/devices/other/block/sda");
        ck_assert(!record_same_disk(&a, &b));
}
END_TEST

/* The last second RFC 3339 writes is a time a record may have. */
START_TEST(test_at_max) {
        char text[RECORD_FILE_MAX];
        struct record r = parsed(sample);

        r.at = RECORD_AT_MAX;
        ck_assert_int_gt(record_format(&r, text, sizeof(text)), 0);
        ck_assert_int_eq(parsed(text).at, RECORD_AT_MAX);
        record_time(r.at, text, sizeof(text));
        ck_assert_str_eq(text, "9999-12-31T23:59:59Z");
}
END_TEST

/* Which records are this disk's this boot. */
START_TEST(test_match) {
        static const char boot[] = "0b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c";
        struct record r = parsed(sample), now = r;

        ck_assert_int_eq(record_match(&r, &now, boot), RECORD_THIS_DISK);
        ck_assert_int_eq(record_match(&r, &now, "1b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c"),
                         RECORD_OTHER_BOOT);
        ck_assert_int_eq(record_match(&r, &now, ""), RECORD_OTHER_BOOT);
        strcpy(now.diskseq, "10");
        ck_assert_int_eq(record_match(&r, &now, boot), RECORD_OTHER_DISK);
        /* A kernel with diskseq gives every disk one: a record without is no record of ours. */
        r.diskseq[0] = '\0';
        ck_assert_int_eq(record_match(&r, &now, boot), RECORD_NO_DISKSEQ);
        /* A kernel without: the DEVPATH and the device number. */
        now.diskseq[0] = '\0';
        ck_assert_int_eq(record_match(&r, &now, boot), RECORD_THIS_DISK);
}
END_TEST

START_TEST(test_time) {
        char at[32];

        record_time(1796409791, at, sizeof(at));
        ck_assert_str_eq(at, "2026-12-04T18:43:11Z");
        record_time(0, at, sizeof(at));
        ck_assert_str_eq(at, "1970-01-01T00:00:00Z");
        /* Leap days: of 2000 (divisible by 400) and 2024; 2100 has none. */
        record_time(951782400, at, sizeof(at));
        ck_assert_str_eq(at, "2000-02-29T00:00:00Z");
        record_time(1709164800, at, sizeof(at));
        ck_assert_str_eq(at, "2024-02-29T00:00:00Z");
        record_time(4107542399, at, sizeof(at));
        ck_assert_str_eq(at, "2100-02-28T23:59:59Z");
        record_time(4107542400, at, sizeof(at));
        ck_assert_str_eq(at, "2100-03-01T00:00:00Z");
}
END_TEST

Suite *record_suite(void) {
        Suite *s = suite_create("record");
        TCase *tc = tcase_create("text");

        tcase_add_test(tc, test_parse);
        tcase_add_test(tc, test_round_trip);
        tcase_add_test(tc, test_no_diskseq);
        tcase_add_loop_test(tc, test_not_a_record, 0, (int) (sizeof(not_records) / sizeof(not_records[0])));
        tcase_add_test(tc, test_same_disk);
        tcase_add_test(tc, test_at_max);
        tcase_add_test(tc, test_match);
        tcase_add_test(tc, test_time);
        suite_add_tcase(s, tc);
        return s;
}
