/* verdict_decide() on any machine: CPUID registers, DMI strings and the kernel release all come
 * from the input, then every evidence line goes through json_string().
 *
 * Input: byte 0 holds flags (bit 0 has_cpuid, bit 1 has_dmi, bit 2 has_vmbus, bit 3 the higher
 * bases scanned, bit 4 0x4000000C read, bits 5-6 the FADT result), byte 1 the FADT revision,
 * bytes 4-67 the registers of leaves 1, 0x40000000, 0x40000003 and one higher base (EAX EBX ECX
 * EDX each, little endian), bytes 68-71 that base (any multiple of 0x100 above 0x40000000 up to
 * 0x4000ff00); 0x40000004 takes the registers of 0x40000003 turned, and 0x4000000C those of
 * the higher base. A shorter input reads as zeros. The rest holds the six DMI fields and the
 * kernel release, separated by NUL bytes, each cut to its buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"
#include "util.h"
#include "verdict.h"

#define HEADER_LEN 72

static const char *const known_hypervisors[] = {
        "microsoft", "kvm",      "xen",      "vmware",  "qemu",      "bhyve",   "virtualbox",
        "parallels", "acrn",     "qnx",      "jailhouse", "sre",     "unisys",  "nutanix",
        "bochs",     "openstack", "redhat",  "amazon",  "google",
};

static void read_regs(const uint8_t *p, struct cpuid_regs *r) {
        memcpy(&r->eax, p, 4);
        memcpy(&r->ebx, p + 4, 4);
        memcpy(&r->ecx, p + 8, 4);
        memcpy(&r->edx, p + 12, 4);
}

static void read_facts(const uint8_t *data, size_t size, struct machine_facts *f) {
        uint8_t header[HEADER_LEN] = { 0 };
        const uint8_t *p, *end = data + size;
        char *fields[DMI_FIELDS + 1];
        size_t sizes[DMI_FIELDS + 1];
        struct cpuid_regs alt;
        uint32_t alt_leaf, index;

        memset(f, 0, sizeof(*f));
        memcpy(header, data, size < HEADER_LEN ? size : HEADER_LEN);
        f->has_cpuid = header[0] & 1;
        f->has_dmi = header[0] & 2;
        f->has_vmbus = header[0] & 4;
        read_regs(header + 4, &f->leaf1);
        read_regs(header + 20, &f->base);
        read_regs(header + 36, &f->features);
        f->hints.eax = f->features.ecx ^ f->features.edx;
        read_regs(header + 52, &alt);
        memcpy(&alt_leaf, header + 68, 4);
        f->scanned = header[0] & 8;
        index = (alt_leaf - HV_SCAN_FIRST) / HV_SCAN_STEP;
        if (f->scanned && index >= 1 && index < HV_SCAN_BASES)
                f->higher[index - 1] = alt;
        f->has_isolation = header[0] & 16;
        if (f->has_isolation)
                f->isolation = alt;
        f->fadt.result = (enum fadt_result) ((header[0] >> 5) % 3);
        f->fadt.revision = header[1];
        f->fadt.why = f->fadt.result == FADT_NOT_HYPERV ? "not an ACPI FADT" : NULL;
        f->fadt.error = f->fadt.result == FADT_UNREAD ? -header[2] : 0;

        for (int i = 0; i < DMI_FIELDS; i++) {
                fields[i] = f->dmi[i];
                sizes[i] = sizeof(f->dmi[i]);
        }
        fields[DMI_FIELDS] = f->osrelease;
        sizes[DMI_FIELDS] = sizeof(f->osrelease);
        p = size > HEADER_LEN ? data + HEADER_LEN : end;
        for (size_t i = 0; i <= DMI_FIELDS && p < end; i++) {
                const uint8_t *nul = memchr(p, '\0', (size_t) (end - p));
                size_t len = (size_t) ((nul ? nul : end) - p);

                memcpy(fields[i], p, len < sizes[i] ? len : sizes[i] - 1);
                p += len + 1;
        }
}

static void check_same(const struct machine_verdict *a, const struct machine_verdict *b,
                       const char *what) {
        FUZZ_CHECK(a->verdict == b->verdict &&
                           (a->hypervisor == b->hypervisor || streq(a->hypervisor, b->hypervisor)),
                   "%s changed the verdict: %s without, %s with", what, verdict_name(a->verdict),
                   verdict_name(b->verdict));
        FUZZ_CHECK(verdict_vmbus_disks_are_synthetic(a) == verdict_vmbus_disks_are_synthetic(b),
                   "%s changed what VMBus disks are", what);
}

static void check_same_decision(const struct machine_verdict *a, const struct machine_verdict *b,
                                const char *what) {
        FUZZ_CHECK(a->verdict == b->verdict &&
                           verdict_vmbus_disks_are_synthetic(a) == verdict_vmbus_disks_are_synthetic(b),
                   "%s changed the verdict: %s without, %s with", what, verdict_name(a->verdict),
                   verdict_name(b->verdict));
}

static void check_verdict(const struct machine_verdict *v) {
        bool known = false;

        FUZZ_CHECK(v->verdict >= VERDICT_UNKNOWN && v->verdict <= VERDICT_HYPERV_ROOT, "verdict %d",
                   (int) v->verdict);
        FUZZ_CHECK(v->n_evidence >= 1 && v->n_evidence <= EVIDENCE_MAX, "%u evidence lines",
                   v->n_evidence);
        for (unsigned i = 0; i < v->n_evidence; i++) {
                FUZZ_CHECK(printable_within(v->evidence[i], EVIDENCE_LEN) && v->evidence[i][0],
                           "evidence %u is empty or not printable ASCII", i);
                check_json_string(v->evidence[i]);
        }
        FUZZ_CHECK((v->flavour & ~(unsigned) (FLAVOUR_AZURE | FLAVOUR_WSL2 | FLAVOUR_GEN1 |
                                               FLAVOUR_GEN2 | FLAVOUR_L1VH | FLAVOUR_NESTED |
                                               FLAVOUR_CONFIDENTIAL)) == 0 &&
                           (v->flavour & (FLAVOUR_GEN1 | FLAVOUR_GEN2)) !=
                                   (FLAVOUR_GEN1 | FLAVOUR_GEN2),
                   "flavour 0x%x", v->flavour);
        FUZZ_CHECK(v->flavour == 0 || v->verdict == VERDICT_HYPERV_GUEST ||
                           (v->verdict == VERDICT_HYPERV_ROOT && v->flavour == FLAVOUR_NESTED),
                   "flavour 0x%x on a %s", v->flavour, verdict_name(v->verdict));
        FUZZ_CHECK((v->isolation < 0) == (v->paravisor < 0) &&
                           (v->isolation < 0 || (v->flavour & FLAVOUR_CONFIDENTIAL)),
                   "isolation %d paravisor %d with flavour 0x%x", v->isolation, v->paravisor,
                   v->flavour);

        switch (v->verdict) {
        case VERDICT_HYPERV_GUEST:
        case VERDICT_HYPERV_ROOT:
                FUZZ_CHECK(streq(v->hypervisor, "microsoft"), "%s with hypervisor %s",
                           verdict_name(v->verdict), v->hypervisor ? v->hypervisor : "NULL");
                break;
        case VERDICT_BARE_METAL:
        case VERDICT_UNKNOWN:
                FUZZ_CHECK(!v->hypervisor, "%s with hypervisor %s", verdict_name(v->verdict),
                           v->hypervisor);
                break;
        case VERDICT_OTHER_HYPERVISOR:
                FUZZ_CHECK(!streq(v->hypervisor, "microsoft"), "another hypervisor named microsoft");
                break;
        }
        if (!v->hypervisor)
                return;
        for (size_t i = 0; i < ELEMENTSOF(known_hypervisors); i++)
                known |= streq(v->hypervisor, known_hypervisors[i]);
        FUZZ_CHECK(known, "unknown hypervisor name");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct machine_facts f, bare;
        struct machine_verdict v, without;

        read_facts(data, size, &f);
        verdict_decide(&f, &v);
        check_verdict(&v);

        /* The gatherer skips what these say is not needed: the verdict must then be the same
         * without it. */
        if (!verdict_needs_features(&f)) {
                bare = f;
                memset(&bare.features, 0, sizeof(bare.features));
                memset(&bare.hints, 0, sizeof(bare.hints));
                verdict_decide(&bare, &without);
                check_same_decision(&without, &v, "0x40000003");
        }
        /* Outside a report the scan is skipped where it can change only the name. */
        if (!verdict_needs_scan(&f, true) || !verdict_needs_scan(&f, false)) {
                bare = f;
                bare.scanned = false;
                memset(bare.higher, 0, sizeof(bare.higher));
                verdict_decide(&bare, &without);
                if (!verdict_needs_scan(&f, true))
                        check_same(&without, &v, "the scan");
                else
                        check_same_decision(&without, &v, "the scan");
        }
        if (!verdict_needs_hints(&f)) {
                bare = f;
                memset(&bare.hints, 0, sizeof(bare.hints));
                verdict_decide(&bare, &without);
                check_same(&without, &v, "0x40000004");
        }
        /* VMBus is gathered whatever the question says, before it: only DMI goes. */
        if (!verdict_needs_dmi(&f)) {
                bare = f;
                bare.has_dmi = false;
                memset(bare.dmi, 0, sizeof(bare.dmi));
                memset(bare.osrelease, 0, sizeof(bare.osrelease));
                verdict_decide(&bare, &without);
                check_verdict(&without);
                check_same(&without, &v, "DMI");
        }
        return 0;
}
