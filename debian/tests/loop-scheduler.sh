#!/bin/sh
# A loop device with "mode = always" in a temporary config goes to none: the installed helper
# writes the scheduler and the kernel keeps it. "scheduler = mq-deadline" is refused with a
# warning and the default, none, applies again. The loop device's first scheduler is put back
# and the device detached at exit.
set -eu
tmp=${AUTOPKGTEST_TMP:-$(mktemp -d)}
# A build chroot (no /sys) or a container has no loop device to give: skip, saying why.
if [ ! -w /sys/block ]; then
	echo "SKIP: no writable /sys/block here (a chroot or container?), so no loop device"
	exit 77
fi
truncate -s 16M "$tmp/disk.img"
dev=$(losetup -f --show "$tmp/disk.img")
name=${dev#/dev/}
sched=/sys/block/$name/queue/scheduler
first=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
trap 'echo "$first" >"$sched"; losetup -d "$dev"' EXIT

current() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched"; }
grep -qw mq-deadline "$sched" || { echo "FAIL: $name offers no mq-deadline: $(cat "$sched")"; exit 1; }

echo mq-deadline >"$sched"
printf 'mode = always\n' >"$tmp/none.conf"
/usr/sbin/hyperv-scheduler -c "$tmp/none.conf" "$name"
[ "$(current)" = none ] || { echo "FAIL: $name is on $(current), not none"; exit 1; }
echo "$name: mq-deadline -> none"

echo mq-deadline >"$sched"
printf 'mode = always\nscheduler = mq-deadline\n' >"$tmp/back.conf"
/usr/sbin/hyperv-scheduler -c "$tmp/back.conf" "$name" 2>"$tmp/back.err"
want="hyperv-scheduler: $tmp/back.conf:2: bad value 'mq-deadline' for 'scheduler': expected none, noop, or both in either order"
[ "$(cat "$tmp/back.err")" = "$want" ] || { echo "FAIL: the warning is '$(cat "$tmp/back.err")', expected '$want'"; exit 1; }
[ "$(current)" = none ] || { echo "FAIL: $name is on $(current), not none"; exit 1; }
echo "$name: scheduler = mq-deadline refused, mq-deadline -> none"
