#!/bin/bash
# A loop device with "mode = always" in a temporary config goes to none: the installed helper
# writes the scheduler and the kernel keeps it. "scheduler = mq-deadline" is refused with a
# warning and the default, none, applies again. The loop device's first scheduler is put back
# and the device detached at exit (tests/lib.sh's make_loop).
set -euo pipefail
cd "$(dirname "$0")/../.."
# A build chroot (no /sys) or a container has no loop device to give: skip, saying why.
if [ ! -w /sys/block ]; then
	echo "SKIP: no writable /sys/block here (a chroot or container?), so no loop device"
	exit 77
fi
HELPER=/usr/sbin/hyperv-scheduler
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=loop-scheduler
# shellcheck source=tests/lib.sh
. tests/lib.sh
name=
make_loop name || {
	echo "FAIL: cannot attach a loop device"
	exit 1
}
sched=/sys/block/$name/queue/scheduler

current() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched"; }
grep -qw mq-deadline "$sched" || {
	echo "FAIL: $name offers no mq-deadline: $(cat "$sched")"
	exit 1
}

echo mq-deadline >"$sched"
printf 'mode = always\n' >"$work/none.conf"
"$HELPER" -c "$work/none.conf" "$name"
[ "$(current)" = none ] || {
	echo "FAIL: $name is on $(current), not none"
	exit 1
}
echo "$name: mq-deadline -> none"

echo mq-deadline >"$sched"
printf 'mode = always\nscheduler = mq-deadline\n' >"$work/back.conf"
"$HELPER" -c "$work/back.conf" "$name" 2>"$work/back.err"
want="hyperv-scheduler: $work/back.conf:2: bad value 'mq-deadline' for 'scheduler': expected none, noop, or both in either order"
[ "$(cat "$work/back.err")" = "$want" ] || {
	echo "FAIL: the warning is '$(cat "$work/back.err")', expected '$want'"
	exit 1
}
[ "$(current)" = none ] || {
	echo "FAIL: $name is on $(current), not none"
	exit 1
}
echo "$name: scheduler = mq-deadline refused, mq-deadline -> none"
