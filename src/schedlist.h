/* Parsing a queue/scheduler list: "none [mq-deadline] kyber bfq". */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#define SCHED_NAME_MAX 16 /* the kernel's ELV_NAME_MAX, terminator included */
#define SCHED_LIST_MAX 16

struct sched_list {
        unsigned n;
        int current; /* index of the [bracketed] name, or -1 */
        char name[SCHED_LIST_MAX][SCHED_NAME_MAX];
};

/* Returns 0, or -EINVAL for a token that is not a scheduler name or a second bracketed name,
 * or -E2BIG for more than SCHED_LIST_MAX names. */
int sched_list_parse(const char *text, struct sched_list *l);

bool sched_name_valid(const char *s, size_t len);

/* Index of name in l, or -1. */
int sched_list_find(const struct sched_list *l, const char *name);

/* The name in brackets, or NULL. */
const char *sched_list_current(const struct sched_list *l);
