#include "report.h"

#include <string.h>

#include "json.h"
#include "util.h"

static const struct {
        unsigned flag;
        const char *json, *text;
} flavours[] = {
        { FLAVOUR_L1VH, "l1vh", "L1VH" },
        { FLAVOUR_AZURE, "azure", "Azure" },
        { FLAVOUR_WSL2, "wsl2", "WSL2" },
        { FLAVOUR_GEN1, "gen1", "Gen 1" },
        { FLAVOUR_GEN2, "gen2", "Gen 2" },
};

static void headline(FILE *f, const struct machine_verdict *v) {
        const char *sep = " (";

        switch (v->verdict) {
        case VERDICT_HYPERV_GUEST:
                fputs("Hyper-V guest", f);
                for (size_t i = 0; i < ELEMENTSOF(flavours); i++)
                        if (v->flavour & flavours[i].flag) {
                                fprintf(f, "%s%s", sep, flavours[i].text);
                                sep = ", ";
                        }
                if (v->flavour)
                        fputc(')', f);
                break;
        case VERDICT_HYPERV_ROOT:
                fputs("Hyper-V root partition (the host): its disks are left alone", f);
                break;
        case VERDICT_OTHER_HYPERVISOR:
                fprintf(f, "Not Hyper-V: another hypervisor (%s)",
                        v->hypervisor ? v->hypervisor : "unknown");
                break;
        case VERDICT_BARE_METAL:
                fputs("Not Hyper-V: bare metal", f);
                break;
        case VERDICT_UNKNOWN:
                fputs("Not Hyper-V: no sign of it", f);
                break;
        }
        fputs(":\n", f);
        for (unsigned i = 0; i < v->n_evidence; i++)
                fprintf(f, "  %s\n", v->evidence[i]);
}

static const char *or_dash(const char *s) {
        return s && *s ? s : "-";
}

void report_text(FILE *f, const struct report *r) {
        const struct config *c = r->config;
        int width = (int) strlen("DEVICE");
        bool single_queue = false;

        headline(f, r->verdict);
        fprintf(f, "Policy: mode %s%s, schedulers", mode_name(c->mode),
                c->mode_from_cmdline ? " (kernel command line)" : "");
        for (unsigned i = 0; i < c->schedulers.n; i++)
                fprintf(f, " %s", c->schedulers.name[i]);
        fprintf(f, ", config %s%s\n", r->config_path, c->found ? "" : " (not found, defaults)");

        for (size_t i = 0; i < r->n_disks; i++)
                if ((int) strlen(r->disks[i].name) > width)
                        width = (int) strlen(r->disks[i].name);
        fprintf(f, "\n%-*s  %-6s  %-12s  %-12s  %-12s  %s\n", width, "DEVICE", "QUEUES", "CURRENT",
                "TARGET", "ACTION", "REASON");
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                const struct disk_decision *dd = &d->decision;
                char queues[16] = "-";

                if (d->hw_queues >= 0)
                        snprintf(queues, sizeof(queues), "%d", d->hw_queues);
                single_queue |= d->hw_queues == 1;
                fprintf(f, "%-*s  %-6s  %-12s  %-12s  %-12s  %s\n", width, or_dash(d->name), queues,
                        or_dash(sched_list_current(&dd->available)), or_dash(dd->target),
                        action_name(dd->action), or_dash(reason_name(dd->reason)));
        }
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];

                if (d->error[0] || d->decision.problem)
                        fprintf(f, "%s: %s\n", or_dash(d->name),
                                d->error[0] ? d->error : d->decision.problem);
        }
        if (single_queue)
                fputs("\nA disk with 1 hardware queue gets mq-deadline from the kernel by default;"
                      " with more, none.\n", f);
}

/* Each writes one member of a JSON object: sep is "" for the first, ", " for the others. */
static void json_key(FILE *f, const char *sep, const char *key) {
        fputs(sep, f);
        json_string(f, key);
        fputs(": ", f);
}

static void json_str(FILE *f, const char *sep, const char *key, const char *value) {
        json_key(f, sep, key);
        json_string(f, value);
}

static void json_names(FILE *f, const char *sep, const char *key, const struct sched_list *l) {
        json_key(f, sep, key);
        fputs("[", f);
        for (unsigned i = 0; i < l->n; i++) {
                fputs(i ? ", " : "", f);
                json_string(f, l->name[i]);
        }
        fputs("]", f);
}

void report_json(FILE *f, const struct report *r) {
        const struct machine_verdict *v = r->verdict;
        const struct config *c = r->config;
        const char *sep = "";

        fputs("{", f);
        json_str(f, "", "version", VERSION);
        json_key(f, ", ", "machine");
        json_str(f, "{", "verdict", verdict_name(v->verdict));
        json_str(f, ", ", "hypervisor", v->hypervisor);
        json_key(f, ", ", "flavour");
        fputs("[", f);
        for (size_t i = 0; i < ELEMENTSOF(flavours); i++)
                if (v->flavour & flavours[i].flag) {
                        fputs(sep, f);
                        json_string(f, flavours[i].json);
                        sep = ", ";
                }
        fputs("]", f);
        json_key(f, ", ", "evidence");
        fputs("[", f);
        for (unsigned i = 0; i < v->n_evidence; i++) {
                fputs(i ? ", " : "", f);
                json_string(f, v->evidence[i]);
        }
        fputs("]}", f);

        json_key(f, ", ", "policy");
        json_str(f, "{", "mode", mode_name(c->mode));
        json_key(f, ", ", "mode_from_cmdline");
        fputs(c->mode_from_cmdline ? "true" : "false", f);
        json_names(f, ", ", "schedulers", &c->schedulers);
        json_str(f, ", ", "config", r->config_path);
        json_key(f, ", ", "config_found");
        fputs(c->found ? "true}" : "false}", f);

        json_key(f, ", ", "devices");
        fputs("[", f);
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                const struct disk_decision *dd = &d->decision;

                fputs(i ? ",\n  " : "\n  ", f);
                json_str(f, "{", "name", d->name[0] ? d->name : NULL);
                json_str(f, ", ", "current", sched_list_current(&dd->available));
                json_names(f, ", ", "available", &dd->available);
                json_key(f, ", ", "queues");
                if (d->hw_queues >= 0)
                        fprintf(f, "%d", d->hw_queues);
                else
                        fputs("null", f);
                json_str(f, ", ", "target", dd->target);
                json_str(f, ", ", "action", action_name(dd->action));
                json_str(f, ", ", "reason", reason_name(dd->reason));
                json_str(f, ", ", "error", d->error[0] ? d->error : dd->problem);
                fputs("}", f);
        }
        fputs(r->n_disks ? "\n]}\n" : "]}\n", f);
}
