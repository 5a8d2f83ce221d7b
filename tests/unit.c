/* One runner for every suite. CK_FORK, CK_VERBOSITY, CK_RUN_SUITE and CK_RUN_CASE apply as
 * Check documents them; run with CK_FORK=no under valgrind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

void tmpdir_create(char *dir, size_t size) {
        const char *base = getenv("TMPDIR");
        int n = snprintf(dir, size, "%s/hyperv-scheduler-unit.XXXXXX", base && *base ? base : "/tmp");

        ck_assert_msg(n > 0 && (size_t) n < size, "temporary directory name too long");
        ck_assert_msg(mkdtemp(dir), "cannot create '%s': %s", dir, strerror(errno));
}

void tmpdir_remove(const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *e;

        if (!d)
                return;
        while ((e = readdir(d))) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                        continue;
                if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno == EISDIR)
                        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
        }
        closedir(d);
        rmdir(dir);
}

void tmpdir_write(const char *dir, const char *name, const void *data, size_t len, char *path,
                  size_t size) {
        int n = snprintf(path, size, "%s/%s", dir, name), fd;

        ck_assert_msg(n > 0 && (size_t) n < size, "path for '%s' too long", name);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        ck_assert_msg(fd >= 0, "cannot create '%s': %s", path, strerror(errno));
        ck_assert_msg(write(fd, data, len) == (ssize_t) len, "cannot write '%s'", path);
        close(fd);
}

void unit_keep_json(const char *text) {
        const char *dir = getenv("HYPERV_SCHEDULER_TEST_JSON_DIR");
        char path[4096];
        size_t len = strlen(text);
        int n, fd;

        if (!dir || !*dir)
                return;
        n = snprintf(path, sizeof(path), "%s/unit-XXXXXX.json", dir);
        ck_assert_msg(n > 0 && (size_t) n < sizeof(path), "path in '%s' too long", dir);
        fd = mkstemps(path, strlen(".json"));
        ck_assert_msg(fd >= 0, "cannot create '%s': %s", path, strerror(errno));
        ck_assert_msg(write(fd, text, len) == (ssize_t) len, "cannot write '%s'", path);
        close(fd);
}

int main(void) {
        SRunner *sr = srunner_create(verdict_suite());
        int failed;

        srunner_add_suite(sr, schedlist_suite());
        srunner_add_suite(sr, policy_suite());
        srunner_add_suite(sr, config_suite());
        srunner_add_suite(sr, devname_suite());
        srunner_add_suite(sr, json_suite());
        srunner_add_suite(sr, util_suite());
        srunner_add_suite(sr, report_suite());
        srunner_add_suite(sr, cpuid_file_suite());
        srunner_add_suite(sr, record_suite());
        srunner_add_suite(sr, sysfs_suite());
        srunner_run_all(sr, CK_ENV);
        failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
