/* CPUID for tests/hyperv-scheduler-testfacts: the helper with CPUID read from the file named by
 * HYPERV_SCHEDULER_TEST_CPUID (see tests/cpuid-file.h), so that a test can stand for any machine.
 * The file is read before main(), whatever the command line: a test that forgot it, or gave a
 * bad one, fails with exit status 2 rather than deciding on a machine of zeros.
 * Where HYPERV_SCHEDULER_TEST_CPUID_COUNT names a file, the number of leaves the helper asked
 * for is written to it at exit: each is one CPUID instruction of the real build. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuid-file.h"
#include "util.h"

#define CPUID_FILE_SIZE_MAX (256 * 1024)
#define EXIT_USAGE          2

static struct cpuid_file machine;
static unsigned long queries;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        fputs("hyperv-scheduler: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
        exit(EXIT_USAGE);
}

static void write_count(void) {
        const char *path = getenv("HYPERV_SCHEDULER_TEST_CPUID_COUNT");
        FILE *f;

        if (!path || !*path)
                return;
        f = fopen(path, "we");
        if (!f || fprintf(f, "%lu\n", queries) < 0 || fclose(f) != 0)
                fprintf(stderr, "hyperv-scheduler: cannot write '%s': %s\n", path, strerror(errno));
}

__attribute__((constructor))
static void load_machine(void) {
        static char text[CPUID_FILE_SIZE_MAX];
        const char *path = getenv("HYPERV_SCHEDULER_TEST_CPUID");
        char why[CPUID_FILE_WHY_MAX];
        unsigned line;
        long len;

        if (!path || !*path)
                die("cannot read CPUID: HYPERV_SCHEDULER_TEST_CPUID is not set");
        len = read_file_bounded(path, text, sizeof(text));
        if (len < 0)
                die("cannot read '%s': %s", path, strerror((int) -len));
        if (cpuid_file_parse(text, (size_t) len, &machine, &line, why) < 0)
                die("cannot parse '%s': line %u: %s", path, line, why);
        atexit(write_count);
}

bool cpuid_supported(void) {
        return machine.n > 0;
}

void cpuid_query(uint32_t leaf, struct cpuid_regs *r) {
        queries++;
        cpuid_file_lookup(&machine, leaf, r);
}
