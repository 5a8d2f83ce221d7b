/* sched_list_parse() on any text, as queue/scheduler and the config's scheduler key hold it,
 * and both stages of the policy on that list. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "invariants.h"
#include "policy.h"
#include "schedlist.h"

static void check_list(const struct sched_list *l) {
        FUZZ_CHECK(l->n <= SCHED_LIST_MAX, "%u names", l->n);
        FUZZ_CHECK(l->current >= -1 && l->current < (int) l->n, "current %d of %u", l->current,
                   l->n);
        for (unsigned i = 0; i < l->n; i++) {
                size_t len = strnlen(l->name[i], SCHED_NAME_MAX);

                FUZZ_CHECK(len < SCHED_NAME_MAX && sched_name_valid(l->name[i], len),
                           "name %u is not a valid scheduler name", i);
        }
}

/* Written back the way the kernel shows it, the list must parse to itself. */
static void check_round_trip(const struct sched_list *l) {
        char text[SCHED_LIST_MAX * (SCHED_NAME_MAX + 3) + 1];
        struct sched_list again;
        size_t o = 0;

        text[0] = '\0';
        for (unsigned i = 0; i < l->n; i++)
                o += (size_t) snprintf(text + o, sizeof(text) - o, (int) i == l->current ? "[%s] " : "%s ",
                                       l->name[i]);
        FUZZ_CHECK(sched_list_parse(text, &again) == 0, "'%s' does not parse again", text);
        FUZZ_CHECK(again.n == l->n && again.current == l->current, "'%s' parses differently", text);
        for (unsigned i = 0; i < l->n; i++)
                FUZZ_CHECK(strcmp(again.name[i], l->name[i]) == 0, "'%s' parses differently", text);
}

static void check_policy(const char *text, int parsed, const struct sched_list *l) {
        struct config c;
        struct disk_facts d = {
                .name = "sda",
                .is_disk = true,
                .scheduler = text,
        };
        struct disk_decision out;
        const char *current;
        int found;

        config_defaults(&c);
        policy_disk(&c, &d, &out);
        if (policy_needs_machine(&c, &out))
                policy_machine(&(struct machine_verdict) { .verdict = VERDICT_HYPERV_GUEST }, true, &out);
        check_list(&out.available);
        FUZZ_CHECK(parsed == 0 || out.available.n == 0, "a list that does not parse has names");
        FUZZ_CHECK(parsed < 0 || out.available.n == l->n, "the policy parsed another list");
        FUZZ_CHECK(out.reason != REASON_UNREADABLE, "a scheduler file read is called unreadable");
        if (out.reason != REASON_NONE) {
                FUZZ_CHECK(out.decision == DECISION_SKIP && !out.target, "skipped with a target");
                FUZZ_CHECK(reason_name(out.reason), "reason %d has no name", (int) out.reason);
                return;
        }
        FUZZ_CHECK(out.target, "no reason to skip, but no target");
        found = sched_list_find(&out.available, out.target);
        FUZZ_CHECK(found >= 0, "target '%s' is not offered", out.target);
        FUZZ_CHECK(sched_list_find(&c.schedulers, out.target) >= 0, "target '%s' not configured",
                   out.target);
        current = sched_list_current(&out.available);
        FUZZ_CHECK((out.decision == DECISION_ALREADY) ==
                           (current && strcmp(current, out.target) == 0),
                   "decision %d for target '%s', current '%s'", (int) out.decision, out.target,
                   current ? current : "(none)");
        FUZZ_CHECK(out.decision == DECISION_ALREADY || out.decision == DECISION_CHANGE,
                   "decision %d without a reason", (int) out.decision);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text = malloc(size + 1);
        struct sched_list l;
        int r;

        FUZZ_CHECK(text, "cannot allocate memory");
        memcpy(text, data, size);
        text[size] = '\0';
        /* Whatever the struct held before must not show through. */
        memset(&l, 0xa5, sizeof(l));
        r = sched_list_parse(text, &l);
        FUZZ_CHECK(r == 0 || r == -EINVAL || r == -E2BIG, "sched_list_parse returned %d", r);
        if (r == 0) {
                check_list(&l);
                check_round_trip(&l);
                if (l.current >= 0)
                        FUZZ_CHECK(sched_list_current(&l) == l.name[l.current], "current differs");
                else
                        FUZZ_CHECK(!sched_list_current(&l), "current without brackets");
        }
        check_policy(text, r, &l);
        free(text);
        return 0;
}
