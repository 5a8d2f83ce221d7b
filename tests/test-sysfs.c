/* The event's own disk without libudev (src/sysfs.c): its real path, the walk up its parents to
 * VMBus, the write of one attribute; each refusal with the errno a message then names. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"
#include "unit.h"

static char dir[256], path[PATH_MAX];

static void setup_files(void) {
        tmpdir_create(dir, sizeof(dir));
}

static void teardown_files(void) {
        tmpdir_remove(dir);
}

START_TEST(real_path_refusals) {
        char buf[PATH_MAX];

        ck_assert_int_eq(sysfs_real_path("/sys", buf, PATH_MAX - 1), -ENOBUFS);
        ck_assert_int_eq(sysfs_real_path("/nonexistent-hyperv-scheduler", buf, sizeof(buf)),
                         -ENOENT);
        /* A DEVPATH that leads out of /sys is no device of libudev's. */
        ck_assert_int_eq(sysfs_real_path(dir, buf, sizeof(buf)), -EXDEV);
}
END_TEST

START_TEST(write_attr) {
        char text[16] = "";
        FILE *f;

        tmpdir_write(dir, "scheduler", "", 0, path, sizeof(path));
        ck_assert_int_eq(sysfs_write_attr(dir, "scheduler", "none"), 0);
        f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fread(text, 1, sizeof(text) - 1, f), 5);
        fclose(f);
        ck_assert_str_eq(text, "none\n");
}
END_TEST

START_TEST(write_attr_refusals) {
        char fifo[PATH_MAX + 16], dirattr[PATH_MAX + 16], longname[PATH_MAX];

        /* 63 bytes and the newline do not fit the one write. */
        ck_assert_int_eq(sysfs_write_attr(dir, "scheduler",
                                          "123456789012345678901234567890123456789012345678901"
                                          "234567890123"),
                         -EINVAL);
        memset(longname, 'a', sizeof(longname) - 1);
        longname[sizeof(longname) - 1] = '\0';
        ck_assert_int_eq(sysfs_write_attr(dir, longname, "none"), -ENAMETOOLONG);
        ck_assert_int_eq(sysfs_write_attr(dir, "absent", "none"), -ENOENT);
        /* A FIFO in the attribute's place, nobody reading it: refused at once, never waited on. */
        snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
        ck_assert_int_eq(mkfifo(fifo, 0600), 0);
        ck_assert_int_eq(sysfs_write_attr(dir, "fifo", "none"), -ENXIO);
        snprintf(dirattr, sizeof(dirattr), "%s/queue", dir);
        ck_assert_int_eq(mkdir(dirattr, 0700), 0);
        ck_assert_int_eq(sysfs_write_attr(dir, "queue", "none"), -EISDIR);
}
END_TEST

/* A device tree under dir: dir/sys/devices/vmbus0 (subsystem link to ../../bus/LINK, a uevent
 * file where uevent) holding host0/sda. */
static void make_tree(const char *link, bool uevent, char *sda, size_t size) {
        char p[PATH_MAX + 64];
        const char *parts[] = { "sys", "sys/devices", "sys/devices/vmbus0",
                                "sys/devices/vmbus0/host0", "sys/devices/vmbus0/host0/sda" };

        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
                snprintf(p, sizeof(p), "%s/%s", dir, parts[i]);
                ck_assert_int_eq(mkdir(p, 0700), 0);
        }
        snprintf(p, sizeof(p), "%s/sys/devices/vmbus0/subsystem", dir);
        ck_assert_int_eq(symlink(link, p), 0);
        if (uevent) {
                FILE *f;

                snprintf(p, sizeof(p), "%s/sys/devices/vmbus0/uevent", dir);
                f = fopen(p, "w");
                ck_assert_ptr_nonnull(f);
                fclose(f);
        }
        snprintf(sda, size, "%s/sys/devices/vmbus0/host0/sda", dir);
}

/* tmpdir_remove() goes one level deep: the tree's levels, deepest first. */
static void remove_tree(void) {
        char p[PATH_MAX + 64];
        const char *parts[] = { "sys/devices/vmbus0/host0/sda", "sys/devices/vmbus0/host0",
                                "sys/devices/vmbus0/subsystem", "sys/devices/vmbus0/uevent",
                                "sys/devices/vmbus0", "sys/devices", "sys" };

        for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
                snprintf(p, sizeof(p), "%s/%s", dir, parts[i]);
                if (unlink(p) < 0)
                        rmdir(p);
        }
}

static const struct {
        const char *link;
        bool uevent, found;
} walks[] = {
        { "../../bus/vmbus", true, true },
        { "../../bus/vmbus", false, false }, /* no device to libudev without its uevent */
        { "../../bus/vmbus2", true, false },
        { "../../class/scsi_host", true, false },
        { "vmbus", true, false }, /* shorter than /bus/vmbus */
};

START_TEST(walk_to_vmbus) {
        char sda[PATH_MAX];

        make_tree(walks[_i].link, walks[_i].uevent, sda, sizeof(sda));
        ck_assert_msg(sysfs_on_vmbus(sda) == walks[_i].found, "%s, uevent %d", walks[_i].link,
                      walks[_i].uevent);
        /* The disk itself is never its own parent. */
        snprintf(path, sizeof(path), "%s/sys/devices/vmbus0", dir);
        ck_assert(!sysfs_on_vmbus(path));
        remove_tree();
}
END_TEST

START_TEST(walk_too_long) {
        char longpath[PATH_MAX + 8];

        memset(longpath, 'a', sizeof(longpath) - 1);
        longpath[0] = '/';
        longpath[sizeof(longpath) - 1] = '\0';
        ck_assert(!sysfs_on_vmbus(longpath));
        ck_assert(!sysfs_on_vmbus("/sys/block"));
}
END_TEST

Suite *sysfs_suite(void) {
        Suite *s = suite_create("sysfs");
        TCase *tc = tcase_create("files");

        tcase_add_checked_fixture(tc, setup_files, teardown_files);
        tcase_add_test(tc, real_path_refusals);
        tcase_add_test(tc, write_attr);
        tcase_add_test(tc, write_attr_refusals);
        tcase_add_loop_test(tc, walk_to_vmbus, 0, (int) (sizeof(walks) / sizeof(walks[0])));
        tcase_add_test(tc, walk_too_long);
        suite_add_tcase(s, tc);
        return s;
}
