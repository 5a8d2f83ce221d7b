#include "record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devname.h"
#include "util.h"

/* Each key, where its value goes, and how much room it has. */
#define FIELDS(X, r)                                  \
        X("name", (r)->name, sizeof((r)->name))       \
        X("diskseq", (r)->diskseq, sizeof((r)->diskseq)) \
        X("devpath", (r)->devpath, sizeof((r)->devpath)) \
        X("devnum", (r)->devnum, sizeof((r)->devnum)) \
        X("from", (r)->from, sizeof((r)->from))       \
        X("to", (r)->to, sizeof((r)->to))             \
        X("by", (r)->by, sizeof((r)->by))             \
        X("boot", (r)->boot, sizeof((r)->boot))

/* A value of ours: printable ASCII without spaces, which each field's writer guarantees. */
static bool plain(const char *s, size_t len) {
        for (size_t i = 0; i < len; i++)
                if (s[i] <= ' ' || s[i] > '~')
                        return false;
        return true;
}

int record_parse(const char *text, size_t len, struct record *r) {
        unsigned seen = 0;
        bool at_seen = false;

        memset(r, 0, sizeof(*r));
        while (len > 0) {
                const char *nl = memchr(text, '\n', len), *eq;
                size_t n = nl ? (size_t) (nl - text) : len, k, v;
                unsigned bit = 0;
                bool known = false;

                /* Every line ends in a newline, the last one too. */
                if (!nl || !(eq = memchr(text, '=', n)))
                        return -EINVAL;
                k = (size_t) (eq - text);
                v = n - k - 1;
                if (!plain(eq + 1, v))
                        return -EINVAL;
#define PARSE(key, dst, size)                                                           \
                if (!known && k == strlen(key) && strncmp(text, key, k) == 0) {         \
                        known = true;                                                   \
                        if ((seen & (1u << bit)) || v == 0 || v >= (size))              \
                                return -EINVAL;                                         \
                        seen |= 1u << bit;                                              \
                        memcpy(dst, eq + 1, v);                                         \
                        (dst)[v] = '\0';                                                \
                }                                                                       \
                bit++;
                FIELDS(PARSE, r)
#undef PARSE
                if (!known && k == 2 && strncmp(text, "at", 2) == 0) {
                        if (at_seen || v == 0 || v > 18)
                                return -EINVAL;
                        r->at = 0;
                        for (size_t i = 0; i < v; i++) {
                                if (eq[1 + i] < '0' || eq[1 + i] > '9')
                                        return -EINVAL;
                                r->at = r->at * 10 + (eq[1 + i] - '0');
                        }
                        at_seen = known = true;
                }
                if (!known)
                        return -EINVAL;
                text += n + 1;
                len -= n + 1;
        }
        /* All but diskseq (bit 1) and boot (bit 7) are needed. */
        if ((seen | 0x82u) != 0xffu || !at_seen)
                return -EINVAL;
        /* Each value as this program writes it: a report or --undo shows and uses them. */
        if (!kernel_name_valid(r->name) || !sched_name_valid(r->from, strlen(r->from)) ||
            !sched_name_valid(r->to, strlen(r->to)) || r->at > RECORD_AT_MAX ||
            !(streq(r->by, "udev") || streq(r->by, "hand") || streq(r->by, "install")) ||
            (r->boot[0] && strlen(r->boot) != RECORD_BOOT_ID_LEN))
                return -EINVAL;
        return 0;
}

int record_format(const struct record *r, char *buf, size_t size) {
        size_t len = 0;

        /* Built by hand: each snprintf() here cost an event that writes more than the line. */
#define FORMAT(key, src, size_)                                                            \
        if ((src)[0]) {                                                                    \
                len = str_append(buf, size, len, key "=");                                 \
                len = str_append(buf, size, len, src);                                     \
                len = str_append(buf, size, len, "\n");                                    \
        }
        FIELDS(FORMAT, r)
#undef FORMAT
        len = str_append(buf, size, len, "at=");
        len = str_append_number(buf, size, len, r->at);
        len = str_append(buf, size, len, "\n");
        return len < size ? (int) len : -ENOBUFS;
}

bool record_same_disk(const struct record *a, const struct record *b) {
        if (!streq(a->name, b->name))
                return false;
        if (a->diskseq[0] && b->diskseq[0])
                return streq(a->diskseq, b->diskseq);
        return streq(a->devpath, b->devpath) && streq(a->devnum, b->devnum);
}

enum record_match record_match(const struct record *r, const struct record *now, const char *boot) {
        if (!streq(r->boot, boot))
                return RECORD_OTHER_BOOT;
        if (now->diskseq[0] && !r->diskseq[0])
                return RECORD_NO_DISKSEQ;
        return record_same_disk(r, now) ? RECORD_THIS_DISK : RECORD_OTHER_DISK;
}

/* The civil date of a day since the epoch, as Howard Hinnant's days_from_civil() inverse
 * (civil_from_days()): no gmtime_r()/strftime(), which every run would otherwise bind at start
 * for the few that show a record. */
void record_time(long long at, char *buf, size_t size) {
        long long days = at / 86400, secs = at % 86400, era, doe, yoe, doy, mp, y, m, d;

        if (at < 0) {
                snprintf(buf, size, "?");
                return;
        }
        days += 719468;
        era = days / 146097;
        doe = days - era * 146097;
        yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        mp = (5 * doy + 2) / 153;
        d = doy - (153 * mp + 2) / 5 + 1;
        m = mp < 10 ? mp + 3 : mp - 9;
        y = yoe + era * 400 + (m <= 2);
        snprintf(buf, size, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", y, m, d, secs / 3600,
                 secs / 60 % 60, secs % 60);
}
