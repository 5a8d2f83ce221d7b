/* Device names from the command line and from udev: what is accepted, of which kind, and why the
 * rest is refused (the reason is shown to people). */
#include <errno.h>
#include <string.h>

#include "devname.h"
#include "unit.h"
#include "util.h"

#define HYPERV_SCSI_SYSPATH                                                                        \
        "/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"                               \
        "f8b3781b-1e82-4818-a1c3-63d806ec15bb/host0/target0:0:0/0:0:0:0/block/sda"

static const struct {
        const char *arg;
        enum devname_kind kind;
} accepted[] = {
        { "sda", DEVNAME_KERNEL },
        { "nvme0n1", DEVNAME_KERNEL },
        { "sdaa", DEVNAME_KERNEL },
        { "cciss!c0d0", DEVNAME_KERNEL },
        { "dm-0", DEVNAME_KERNEL },
        { "abcdefghijklmnopqrstuvwxyz01234", DEVNAME_KERNEL }, /* 31 bytes */
        { "/dev/sda", DEVNAME_DEV },
        { "/dev/disk/by-id/scsi-360022480a", DEVNAME_DEV },
        { "/dev/disk/by-path/acpi-VMBUS:00-scsi-0:0:0:0", DEVNAME_DEV },
        { "/sys/block/sda", DEVNAME_SYS },
        { HYPERV_SCSI_SYSPATH, DEVNAME_SYS },
        { "/sys/class/block/nvme0n1/", DEVNAME_SYS },
};

#define WHY_TRAVERSAL "path contains '.' or '..'"
#define WHY_SLASH     "a kernel name has no '/'; give /dev/NAME or a /sys path"
#define WHY_BYTES     "contains a space, a control character or a non-ASCII byte"
#define WHY_KERNEL    "not a kernel device name"
#define WHY_ELSEWHERE "not a path under /dev or /sys"
#define WHY_LONG_NAME "longer than a kernel name can be (31)"

static const struct {
        const char *arg;
        const char *why;
} rejected[] = {
        { "", "empty name" },
        { "../../etc/passwd", WHY_SLASH },
        { "sda/../../x", WHY_SLASH },
        { "/dev/../sda", WHY_TRAVERSAL },
        { "/dev/./sda", WHY_TRAVERSAL },
        { "/sys/block/../../etc", WHY_TRAVERSAL },
        { "/sys/block/sda/..", WHY_TRAVERSAL },
        { "/dev//..//sda", WHY_TRAVERSAL },
        { "abcdefghijklmnopqrstuvwxyz012345", WHY_LONG_NAME }, /* 32 bytes */
        { "sda\n", WHY_BYTES },
        { "sd a", WHY_BYTES },
        { "sda\x01", WHY_BYTES },
        { "sda\x7f", WHY_BYTES },
        { "\xc3\xa9", WHY_BYTES },
        { "/dev/sd\xc3\xa9", WHY_BYTES },
        { "/etc/passwd", WHY_ELSEWHERE },
        { "/devices/sda", WHY_ELSEWHERE },
        { "/dev/", WHY_ELSEWHERE },
        { "/sys/", WHY_ELSEWHERE },
        { "/", WHY_ELSEWHERE },
        { ".", WHY_KERNEL },
        { "..", WHY_KERNEL },
        { "sda*", WHY_KERNEL },
        { "sda;rm", WHY_KERNEL },
        { "$(id)", WHY_KERNEL },
};

START_TEST(device_name_is_accepted) {
        enum devname_kind kind = (enum devname_kind) -1;
        const char *why = NULL;
        int r = devname_check(accepted[_i].arg, &kind, &why);

        ck_assert_msg(r == 0, "'%s' refused: %s", accepted[_i].arg, why ? why : "(no reason)");
        ck_assert_msg(kind == accepted[_i].kind, "'%s': kind %d, expected %d", accepted[_i].arg,
                      kind, accepted[_i].kind);
}
END_TEST

START_TEST(device_name_is_rejected_with_reason) {
        enum devname_kind kind;
        const char *why = NULL;
        int r = devname_check(rejected[_i].arg, &kind, &why);

        ck_assert_msg(r == -EINVAL, "'%s': returned %d, expected -EINVAL", rejected[_i].arg, r);
        ck_assert_ptr_nonnull(why);
        ck_assert_str_eq(why, rejected[_i].why);
}
END_TEST

START_TEST(overlong_names_are_rejected) {
        char arg[301];
        enum devname_kind kind;
        const char *why = NULL;

        memset(arg, 'a', 300);
        arg[300] = '\0';
        ck_assert_int_eq(devname_check(arg, &kind, &why), -EINVAL);
        ck_assert_str_eq(why, WHY_LONG_NAME);

        memcpy(arg, "/dev/", 5);
        why = NULL;
        ck_assert_int_eq(devname_check(arg, &kind, &why), -EINVAL);
        ck_assert_str_eq(why, "path too long");

        arg[DEVICE_PATH_MAX] = '\0';
        why = NULL;
        ck_assert_int_eq(devname_check(arg, &kind, &why), -EINVAL);
        ck_assert_str_eq(why, "path too long");

        arg[DEVICE_PATH_MAX - 1] = '\0'; /* 255 bytes fit */
        ck_assert_int_eq(devname_check(arg, &kind, &why), 0);
        ck_assert_int_eq(kind, DEVNAME_DEV);
}
END_TEST

START_TEST(kernel_name_validity) {
        ck_assert(kernel_name_valid("sda"));
        ck_assert(kernel_name_valid("cciss!c0d0"));
        ck_assert(kernel_name_valid("abcdefghijklmnopqrstuvwxyz01234"));
        ck_assert(!kernel_name_valid("abcdefghijklmnopqrstuvwxyz012345"));
        ck_assert(!kernel_name_valid(""));
        ck_assert(!kernel_name_valid("."));
        ck_assert(!kernel_name_valid(".."));
        ck_assert(kernel_name_valid("..."));
        ck_assert(!kernel_name_valid("sd/a"));
        ck_assert(!kernel_name_valid("sd a"));
}
END_TEST

/* udev's %k spells each '!' as '/': read back only as the last part of the event's syspath. */
static const struct {
        const char *arg, *syspath, *name; /* name NULL: not udev's spelling of that disk */
} udev_spelled[] = {
        { "etherd/e0.0", "/sys/devices/virtual/block/etherd!e0.0", "etherd!e0.0" },
        { "cciss/c0d0", "/sys/devices/pci0000:00/0000:00:03.0/cciss0/cciss!c0d0", "cciss!c0d0" },
        { "sx8/0", "/sys/devices/virtual/block/sx8!0", "sx8!0" },
        { "a/b/c", "/sys/devices/virtual/block/a!b!c", "a!b!c" },
        { "etherd/e0.1", "/sys/devices/virtual/block/etherd!e0.0", NULL },
        { "etherd/e0.0", "/sys/devices/virtual/block/etherd!e0.00", NULL },
        { "etherd/e0.0", "/sys/devices/virtual/block/xetherd!e0.0", NULL },
        { "therd/e0.0", "/sys/devices/virtual/block/etherd!e0.0", NULL },
        { "etherd/e0.0", "/sys/devices/virtual/etherd/e0.0", NULL },
        { "etherd!e0.0", "/sys/devices/virtual/block/etherd!e0.0", NULL }, /* already the kernel's */
        { "sda", "/sys/block/sda", NULL },
        { "/dev/etherd/e0.0", "/sys/devices/virtual/block/etherd!e0.0", NULL },
        { "etherd/e0.0", "etherd!e0.0", NULL },
        { "abcdefghijklmnopqrstuvwxyz/1234", "/sys/block/abcdefghijklmnopqrstuvwxyz!1234", "abcdefghijklmnopqrstuvwxyz!1234" },
        { "abcdefghijklmnopqrstuvwxyz/12345", "/sys/block/abcdefghijklmnopqrstuvwxyz!12345", NULL },
};

START_TEST(udev_spelling_is_read_back) {
        char out[KERNEL_NAME_MAX] = "unchanged";
        bool r = devname_from_udev(udev_spelled[_i].arg, udev_spelled[_i].syspath, out, sizeof(out));

        ck_assert_msg(r == (udev_spelled[_i].name != NULL), "'%s' at '%s': %s", udev_spelled[_i].arg,
                      udev_spelled[_i].syspath, r ? "read back" : "not read back");
        if (r)
                ck_assert_str_eq(out, udev_spelled[_i].name);
}
END_TEST

Suite *devname_suite(void) {
        Suite *s = suite_create("devname");
        TCase *tc;

        tc = tcase_create("accepted");
        tcase_add_loop_test(tc, device_name_is_accepted, 0, ELEMENTSOF(accepted));
        tcase_add_test(tc, kernel_name_validity);
        suite_add_tcase(s, tc);

        tc = tcase_create("rejected");
        tcase_add_loop_test(tc, device_name_is_rejected_with_reason, 0, ELEMENTSOF(rejected));
        tcase_add_test(tc, overlong_names_are_rejected);
        suite_add_tcase(s, tc);

        tc = tcase_create("udev");
        tcase_add_loop_test(tc, udev_spelling_is_read_back, 0, ELEMENTSOF(udev_spelled));
        suite_add_tcase(s, tc);

        return s;
}
