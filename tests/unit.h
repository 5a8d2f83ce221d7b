/* The Check unit tests: one suite per pure module, all run by tests/unit.c. */
#pragma once
#include <check.h>
#include <stddef.h>

Suite *verdict_suite(void);
Suite *schedlist_suite(void);
Suite *policy_suite(void);
Suite *config_suite(void);
Suite *devname_suite(void);
Suite *json_suite(void);
Suite *util_suite(void);
Suite *report_suite(void);
Suite *cpuid_file_suite(void);
Suite *record_suite(void);
Suite *sysfs_suite(void);

/* A fresh directory under $TMPDIR (or /tmp) for tests that need files, and its removal with
 * everything in it (one level deep, as the tests create it). */
void tmpdir_create(char *dir, size_t size);
void tmpdir_remove(const char *dir);

/* Creates dir/name holding len bytes of data; writes its path to path. */
void tmpdir_write(const char *dir, const char *name, const void *data, size_t len, char *path,
                  size_t size);

/* Where HYPERV_SCHEDULER_TEST_JSON_DIR names a directory, writes text, a JSON report, to a new
 * file there: tests/integration/schema.sh validates them against report.schema.json. */
void unit_keep_json(const char *text);
