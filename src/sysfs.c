#include "sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int sysfs_real_path(const char *path, char *buf, size_t size) {
        /* realpath() wants PATH_MAX bytes. */
        if (size < PATH_MAX)
                return -ENOBUFS;
        if (!realpath(path, buf))
                return -errno;
        /* libudev takes no device outside /sys either. */
        if (strncmp(buf, "/sys/", 5) != 0)
                return -EXDEV;
        return 0;
}

/* Whether the directory path, n bytes long in a buffer of PATH_MAX, is a device on the vmbus
 * bus: its subsystem link ends in bus/vmbus, and it is a device to libudev (a directory under
 * /sys/devices with a uevent file). path is given back as it came. */
static bool on_vmbus(char *path, size_t n) {
        static const char subsystem[] = "/subsystem", uevent[] = "/uevent", bus[] = "/bus/vmbus";
        char link[PATH_MAX];
        ssize_t len;
        bool found = false;

        if (n + sizeof(subsystem) > PATH_MAX)
                return false;
        memcpy(path + n, subsystem, sizeof(subsystem));
        len = readlink(path, link, sizeof(link) - 1);
        if (len >= (ssize_t) sizeof(bus) - 1 &&
            memcmp(link + len - (sizeof(bus) - 1), bus, sizeof(bus) - 1) == 0) {
                memcpy(path + n, uevent, sizeof(uevent));
                found = access(path, F_OK) == 0;
        }
        path[n] = '\0';
        return found;
}

/* libudev climbs a path's parents, dropping the last part each time, until only /sys is left;
 * each parent's subsystem is its subsystem link's last part. No bus is named vmbus but
 * Hyper-V's, and no class is. */
bool sysfs_on_vmbus(const char *syspath) {
        char path[PATH_MAX];
        size_t n = strlen(syspath);

        if (!copy_string(path, syspath, sizeof(path)))
                return false;
        for (;;) {
                while (n > 0 && path[n - 1] != '/')
                        n--;
                while (n > 0 && path[n - 1] == '/')
                        n--;
                path[n] = '\0';
                if (n <= sizeof("/sys") - 1)
                        return false;
                if (on_vmbus(path, n))
                        return true;
        }
}

int sysfs_write_attr(const char *syspath, const char *attr, const char *value) {
        char path[PATH_MAX], text[64];
        size_t len = strlen(value), done = 0;
        int fd, r = 0;

        if (len + 1 >= sizeof(text))
                return -EINVAL;
        if (!path_join(path, sizeof(path), syspath, attr))
                return -ENAMETOOLONG;
        /* The value and its newline in one write(), as libudev sends them (systemd's
         * write_string_file() without a buffer): the kernel takes a sysfs write whole. */
        memcpy(text, value, len);
        text[len++] = '\n';
        /* Never blocking: a FIFO put in a fake tree's attribute's place is no sysfs file. */
        fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        while (done < len) {
                ssize_t n = write(fd, text + done, len - done);

                if (n < 0 && errno == EINTR)
                        continue;
                /* A write of nothing would be tried again forever. */
                if (n <= 0) {
                        r = n < 0 ? -errno : -EIO;
                        break;
                }
                done += (size_t) n;
        }
        close(fd);
        return r;
}
