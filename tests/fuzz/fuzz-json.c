/* json_string() on any text: the output must be one strict JSON string that decodes to the
 * input, with U+FFFD for each byte that is not valid UTF-8. And the whole JSON report, with that
 * text in every string it can hold, must be one strict JSON document. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "json.h"
#include "report.h"
#include "util.h"

/* A strict RFC 8259 value at *p; returns false on anything else. Strings go through
 * json_string_decode(), written apart from json.c. */
static bool value(const char **p, const char *end, unsigned depth);

static void blanks(const char **p, const char *end) {
        while (*p < end && strchr(" \t\n\r", **p) && **p)
                (*p)++;
}

static bool literal(const char **p, const char *end, const char *word) {
        size_t n = strlen(word);

        if ((size_t) (end - *p) < n || memcmp(*p, word, n) != 0)
                return false;
        *p += n;
        return true;
}

static bool string(const char **p, const char *end) {
        const char *s = *p, *why;
        unsigned char *out;
        long r;

        if (s >= end || *s != '"')
                return false;
        for (s++; s < end && *s != '"'; s++)
                if (*s == '\\' && ++s == end)
                        return false;
        if (s == end)
                return false;
        s++;
        out = malloc((size_t) (s - *p));
        FUZZ_CHECK(out, "cannot allocate memory");
        r = json_string_decode(*p, (size_t) (s - *p), out, &why);
        free(out);
        *p = s;
        return r >= 0;
}

static bool number(const char **p, const char *end) {
        const char *s = *p;

        if (s < end && *s == '-')
                s++;
        if (s == end || *s < '0' || *s > '9' || (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9'))
                return false;
        while (s < end && *s >= '0' && *s <= '9')
                s++;
        *p = s;
        return true;
}

static bool items(const char **p, const char *end, unsigned depth, char close, bool members) {
        (*p)++;
        blanks(p, end);
        if (*p < end && **p == close) {
                (*p)++;
                return true;
        }
        for (;;) {
                if (members) {
                        if (!string(p, end))
                                return false;
                        blanks(p, end);
                        if (*p == end || **p != ':')
                                return false;
                        (*p)++;
                }
                if (!value(p, end, depth + 1))
                        return false;
                blanks(p, end);
                if (*p < end && **p == ',') {
                        (*p)++;
                        blanks(p, end);
                        continue;
                }
                if (*p < end && **p == close) {
                        (*p)++;
                        return true;
                }
                return false;
        }
}

static bool value(const char **p, const char *end, unsigned depth) {
        if (depth > 16)
                return false;
        blanks(p, end);
        if (*p == end)
                return false;
        switch (**p) {
        case '{':
                return items(p, end, depth, '}', true);
        case '[':
                return items(p, end, depth, ']', false);
        case '"':
                return string(p, end);
        case 't':
                return literal(p, end, "true");
        case 'f':
                return literal(p, end, "false");
        case 'n':
                return literal(p, end, "null");
        default:
                return number(p, end);
        }
}

static void check_report(const char *text) {
        static struct disk_result disks[2];
        struct machine_verdict v = { .verdict = VERDICT_HYPERV_GUEST, .n_evidence = 1 };
        struct config c;
        struct report r = {
                .verdict = &v, .config = &c, .config_path = text, .disks = disks, .n_disks = 2,
        };
        char *buf = NULL;
        size_t size = 0;
        const char *p;
        FILE *f;

        config_defaults(&c);
        v.hypervisor = text;
        copy_string(v.evidence[0], text, sizeof(v.evidence[0]));
        memset(disks, 0, sizeof(disks));
        copy_string(disks[0].name, text, sizeof(disks[0].name));
        copy_string(disks[0].error, text, sizeof(disks[0].error));
        disks[0].decision.available.current = -1;
        disks[0].hw_queues = -1;
        disks[1].decision.problem = text;
        disks[1].decision.decision = DECISION_SKIP;
        disks[1].decision.reason = REASON_NO_SUITABLE;
        disks[1].decision.available.current = -1;
        disks[1].hw_queues = 7;

        f = open_memstream(&buf, &size);
        FUZZ_CHECK(f, "cannot open a memory stream");
        report_json(f, &r);
        FUZZ_CHECK(fclose(f) == 0, "cannot close the memory stream");
        p = buf;
        FUZZ_CHECK(value(&p, buf + size, 0), "the report is not JSON at byte %zu",
                   (size_t) (p - buf));
        FUZZ_CHECK(p == buf + size - 1 && *p == '\n', "the report does not end in one newline");
        fuzz_keep_json(buf, size);
        free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *s = malloc(size + 1);
        size_t left;

        FUZZ_CHECK(s, "cannot allocate memory");
        memcpy(s, data, size);
        s[size] = '\0';
        check_json_string(s);
        check_report(s);

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
