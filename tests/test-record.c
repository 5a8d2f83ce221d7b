/* A record's text (src/record.c): what is read back is what was written, anything else is no
 * record; which disk a record is of; its time as RFC 3339. */
#include <errno.h>
#include <stdio.h>
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
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT,                   /* no at */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\n" BOOT "at=1\n",          /* no by */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nboot=1\nat=1\n", /* no UUID */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=foo\n" BOOT "at=1\n",   /* by */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=253402300800\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=../../x\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=B\nby=hand\n" BOOT "at=1\n",
        "name=s\\da\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1",         /* no newline */
        "name=sda\nname=sdb\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\nat=2\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=-1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1x\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\ncolour=blue\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a b\nto=b\nby=hand\n" BOOT "at=1\n",     /* a space */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=\nto=b\nby=hand\n" BOOT "at=1\n",        /* empty */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=abcdefghijklmnop\nto=b\nby=hand\n" BOOT "at=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n\n",     /* empty line */
        "name=sda\ndevpath=/caf\xc3\xa9\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n", /* UTF-8 */
        "name=sda\ndevpath=/x\x7f\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n",      /* DEL */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\nxy=1\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=\n",
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT "at=1234567890123456789\n",
        "name=sda\ndevpath=/x\nfrom=a\nto=b\nby=hand\n" BOOT "at=1\n",                 /* no devnum */
        "name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\nboot\nat=1\n",       /* no '=' */
};

/* What every record of not_records lacks: each is refused for the one thing it changes. */
START_TEST(test_record_of_not_records) {
        struct record r = parsed("name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT
                                 "at=1\n");

        ck_assert_str_eq(r.boot, "0b3a1e2c-6f4d-4e5a-9c8b-7d6e5f4a3b2c");
        ck_assert_int_eq(r.at, 1);
        /* At most 18 digits: any of them a time RECORD_AT_MAX refuses, none past long long. */
        ck_assert_int_eq(parsed("name=sda\ndevpath=/x\ndevnum=8:0\nfrom=a\nto=b\nby=hand\n" BOOT
                                "at=000000000000000001\n").at, 1);
}
END_TEST

START_TEST(test_not_a_record) {
        const char *text = not_records[_i];
        struct record r;

        ck_assert_msg(record_parse(text, strlen(text), &r) == -EINVAL, "accepted: %s", text);
}
END_TEST

/* Each key of the sample, and the room its value has: a value that fills it is no record. */
static const struct {
        const char *key;
        size_t room;
} keys[] = {
        { "name", sizeof(((struct record *) 0)->name) },
        { "diskseq", sizeof(((struct record *) 0)->diskseq) },
        { "devpath", sizeof(((struct record *) 0)->devpath) },
        { "devnum", sizeof(((struct record *) 0)->devnum) },
        { "from", sizeof(((struct record *) 0)->from) },
        { "to", sizeof(((struct record *) 0)->to) },
        { "by", sizeof(((struct record *) 0)->by) },
        { "boot", sizeof(((struct record *) 0)->boot) },
};

/* The sample with key's line as "key=value"; value NULL: that line twice. */
static void sample_with(const char *key, const char *value, char *buf, size_t size) {
        const char *line = sample;
        size_t len = 0, klen = strlen(key);

        while (*line) {
                int n = (int) (strchr(line, '\n') + 1 - line);

                if (strncmp(line, key, klen) != 0 || line[klen] != '=')
                        len += (size_t) snprintf(buf + len, size - len, "%.*s", n, line);
                else if (!value)
                        len += (size_t) snprintf(buf + len, size - len, "%.*s%.*s", n, line, n, line);
                else
                        len += (size_t) snprintf(buf + len, size - len, "%s=%s\n", key, value);
                line += n;
        }
        ck_assert_uint_lt(len, size);
}

START_TEST(test_each_key) {
        const char *key = keys[_i].key;
        char text[2 * RECORD_FILE_MAX], value[RECORD_DEVPATH_MAX + 1];
        struct record r;

        /* Twice, even with the same value; empty; filling its room. */
        sample_with(key, NULL, text, sizeof(text));
        ck_assert_msg(record_parse(text, strlen(text), &r) == -EINVAL, "accepted: %s", text);
        sample_with(key, "", text, sizeof(text));
        ck_assert_msg(record_parse(text, strlen(text), &r) == -EINVAL, "accepted: %s", text);
        memset(value, 'a', keys[_i].room);
        value[keys[_i].room] = '\0';
        sample_with(key, value, text, sizeof(text));
        ck_assert_msg(record_parse(text, strlen(text), &r) == -EINVAL, "accepted: %s", text);
}
END_TEST

/* The longest DEVPATH a record holds, and one byte more. */
START_TEST(test_devpath_room) {
        char text[2 * RECORD_FILE_MAX], value[RECORD_DEVPATH_MAX + 1];
        struct record r;

        memset(value, 'a', RECORD_DEVPATH_MAX - 1);
        value[0] = '/';
        value[RECORD_DEVPATH_MAX - 1] = '\0';
        sample_with("devpath", value, text, sizeof(text));
        ck_assert_str_eq(parsed(text).devpath, value);
        strcat(value, "a");
        sample_with("devpath", value, text, sizeof(text));
        ck_assert_int_eq(record_parse(text, strlen(text), &r), -EINVAL);
}
END_TEST

/* Every buffer too short by any number of bytes is refused, never written past. */
START_TEST(test_format_short) {
        struct record r = parsed(sample);
        char text[sizeof(sample) + 1];

        for (size_t size = 0; size < sizeof(sample); size++) {
                memset(text, 'x', sizeof(text));
                ck_assert_int_eq(record_format(&r, text, size), -ENOBUFS);
                ck_assert_msg(text[size] == 'x', "written past %zu bytes", size);
        }
        ck_assert_int_eq(record_format(&r, text, sizeof(sample)), (int) strlen(sample));
}
END_TEST

/* A field without a value has no line: a disk without diskseq, a boot that cannot be told. */
START_TEST(test_format_empty) {
        struct record r = { .at = 7 };
        char text[16];

        ck_assert_int_eq(record_format(&r, text, sizeof(text)), 5);
        ck_assert_str_eq(text, "at=7\n");
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
        /* Before the epoch: no date. */
        record_time(-1, at, sizeof(at));
        ck_assert_str_eq(at, "?");
}
END_TEST

Suite *record_suite(void) {
        Suite *s = suite_create("record");
        TCase *tc = tcase_create("text");

        tcase_add_test(tc, test_parse);
        tcase_add_test(tc, test_round_trip);
        tcase_add_test(tc, test_no_diskseq);
        tcase_add_loop_test(tc, test_not_a_record, 0, (int) (sizeof(not_records) / sizeof(not_records[0])));
        tcase_add_test(tc, test_record_of_not_records);
        tcase_add_loop_test(tc, test_each_key, 0, (int) (sizeof(keys) / sizeof(keys[0])));
        tcase_add_test(tc, test_devpath_room);
        tcase_add_test(tc, test_format_short);
        tcase_add_test(tc, test_format_empty);
        tcase_add_test(tc, test_same_disk);
        tcase_add_test(tc, test_at_max);
        tcase_add_test(tc, test_match);
        tcase_add_test(tc, test_time);
        suite_add_tcase(s, tc);
        return s;
}
