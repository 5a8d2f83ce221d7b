#include "schedlist.h"

#include <errno.h>
#include <string.h>

#define BLANKS " \t\n"

bool sched_name_valid(const char *s, size_t len) {
        if (len == 0 || len >= SCHED_NAME_MAX)
                return false;
        for (size_t i = 0; i < len; i++)
                if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", s[i]) || s[i] == '\0')
                        return false;
        return true;
}

int sched_list_parse(const char *text, struct sched_list *l) {
        const char *p = text;

        l->n = 0;
        l->current = -1;
        for (;;) {
                size_t len;
                bool bracketed;

                p += strspn(p, BLANKS);
                if (*p == '\0')
                        return 0;
                len = strcspn(p, BLANKS);
                bracketed = len >= 2 && p[0] == '[' && p[len - 1] == ']';
                if (bracketed && l->current >= 0)
                        return -EINVAL;
                if (!sched_name_valid(p + bracketed, len - 2 * bracketed))
                        return -EINVAL;
                if (l->n == SCHED_LIST_MAX)
                        return -E2BIG;
                memcpy(l->name[l->n], p + bracketed, len - 2 * bracketed);
                l->name[l->n][len - 2 * bracketed] = '\0';
                if (bracketed)
                        l->current = (int) l->n;
                l->n++;
                p += len;
        }
}

int sched_list_find(const struct sched_list *l, const char *name) {
        for (unsigned i = 0; i < l->n; i++)
                if (strcmp(l->name[i], name) == 0)
                        return (int) i;
        return -1;
}

const char *sched_list_current(const struct sched_list *l) {
        return l->current >= 0 ? l->name[l->current] : NULL;
}
