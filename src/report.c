#include "report.h"

#include <string.h>

#include "json.h"

static const struct {
        unsigned flag;
        const char *json, *text;
} flavours[] = {
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
                for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++)
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

static void json_key(FILE *f, const char *key) {
        json_string(f, key);
        fputs(": ", f);
}

void report_json(FILE *f, const struct report *r) {
        const struct machine_verdict *v = r->verdict;
        const struct config *c = r->config;
        const char *sep = "";

        fputs("{", f);
        json_key(f, "version");
        json_string(f, VERSION);
        fputs(", ", f);
        json_key(f, "machine");
        fputs("{", f);
        json_key(f, "verdict");
        json_string(f, verdict_name(v->verdict));
        fputs(", ", f);
        json_key(f, "hypervisor");
        json_string(f, v->hypervisor);
        fputs(", ", f);
        json_key(f, "flavour");
        fputs("[", f);
        for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++)
                if (v->flavour & flavours[i].flag) {
                        fputs(sep, f);
                        json_string(f, flavours[i].json);
                        sep = ", ";
                }
        fputs("], ", f);
        json_key(f, "evidence");
        fputs("[", f);
        for (unsigned i = 0; i < v->n_evidence; i++) {
                fputs(i ? ", " : "", f);
                json_string(f, v->evidence[i]);
        }
        fputs("]}, ", f);

        json_key(f, "policy");
        fputs("{", f);
        json_key(f, "mode");
        json_string(f, mode_name(c->mode));
        fputs(", ", f);
        json_key(f, "mode_from_cmdline");
        fputs(c->mode_from_cmdline ? "true, " : "false, ", f);
        json_key(f, "schedulers");
        fputs("[", f);
        for (unsigned i = 0; i < c->schedulers.n; i++) {
                fputs(i ? ", " : "", f);
                json_string(f, c->schedulers.name[i]);
        }
        fputs("], ", f);
        json_key(f, "config");
        json_string(f, r->config_path);
        fputs(", ", f);
        json_key(f, "config_found");
        fputs(c->found ? "true" : "false", f);
        fputs("}, ", f);

        json_key(f, "devices");
        fputs("[", f);
        for (size_t i = 0; i < r->n_disks; i++) {
                const struct disk_result *d = &r->disks[i];
                const struct disk_decision *dd = &d->decision;

                fputs(i ? ",\n  {" : "\n  {", f);
                json_key(f, "name");
                json_string(f, d->name[0] ? d->name : NULL);
                fputs(", ", f);
                json_key(f, "current");
                json_string(f, sched_list_current(&dd->available));
                fputs(", ", f);
                json_key(f, "available");
                fputs("[", f);
                for (unsigned j = 0; j < dd->available.n; j++) {
                        fputs(j ? ", " : "", f);
                        json_string(f, dd->available.name[j]);
                }
                fputs("], ", f);
                json_key(f, "queues");
                if (d->hw_queues >= 0)
                        fprintf(f, "%d, ", d->hw_queues);
                else
                        fputs("null, ", f);
                json_key(f, "target");
                json_string(f, dd->target);
                fputs(", ", f);
                json_key(f, "action");
                json_string(f, action_name(dd->action));
                fputs(", ", f);
                json_key(f, "reason");
                json_string(f, reason_name(dd->reason));
                fputs(", ", f);
                json_key(f, "error");
                json_string(f, d->error[0] ? d->error : dd->problem);
                fputs("}", f);
        }
        fputs(r->n_disks ? "\n]}\n" : "]}\n", f);
}
