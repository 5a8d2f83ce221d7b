# shellcheck shell=bash
# The real kernel: loop devices whose queue/scheduler the block layer really switches. A loop
# is no VMBus disk on any machine, so mode auto leaves it alone here whatever this machine is;
# the reason given is compared with the machine's own verdict.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

if need_sysfs "real-kernel loop tests"; then
	loop=
	if ! make_loop loop; then
		fail "make a loop device" "losetup failed"
		finish
		exit
	fi
	sched=/sys/block/$loop/queue/scheduler
	syspath=$(cd -P "/sys/block/$loop" && pwd)
	set_sched() { echo "$1" >"$sched"; }
	set_sched mq-deadline

	conf=$(config "mode = auto")
	check "mode auto leaves a loop alone: exit 0" -- exits 0 "$HELPER" -c "$conf" "$loop"
	check "  nothing printed" -- silent
	check "  the loop keeps mq-deadline" -- scheduler_is "$sched" mq-deadline
	check "the dry run of mode auto exits 0" -- exits 0 "$HELPER" -c "$conf" --dry-run --json "$loop"
	if [ "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["machine"]["verdict"])')" = hyperv-guest ]; then
		check "  on this Hyper-V guest the loop is not-vmbus" -- disk_is "$loop" skipped/not-vmbus
	else
		check "  on this machine, no Hyper-V guest, the loop is not-hyperv" -- disk_is "$loop" skipped/not-hyperv
	fi

	conf=$(config "mode = always" "devices = $loop")
	check "a dry run in mode always exits 0" -- exits 0 "$HELPER" -c "$conf" --dry-run --json "$loop"
	check "  says would-change" -- disk_is "$loop" would-change/None
	check "  and writes nothing" -- scheduler_is "$sched" mq-deadline

	check "mode always with devices = the loop sets none: exit 0" -- exits 0 "$HELPER" -c "$conf" "$loop"
	check "  the change line" -- stdout_is "$loop: mq-deadline -> none"
	check "  the kernel reads back none" -- scheduler_is "$sched" none

	check "a disk already on none: exit 0" -- exits 0 "$HELPER" -c "$conf" --json "$loop"
	check "  is left as it is" -- disk_is "$loop" already/None

	set_sched mq-deadline
	check "an exclude glob keeps the disk: exit 0" -- \
		exits 0 "$HELPER" -c "$(config "mode = always" "exclude = loop*")" "$loop"
	check "  on mq-deadline" -- scheduler_is "$sched" mq-deadline

	# An exclude line written the way other tools write lists, or with a byte no kernel name
	# has: the loop it names is never written. Where the intent is plain it is read as meant
	# and the run says how; where it is not, nothing is changed (exit 1) and the run says why.
	read_as="patterns are separated by spaces, without quotes, commas, semicolons or /dev/"
	nbsp=$'\xc2\xa0'
	while IFS='|' read -r what line code want; do
		line=${line//LOOP/$loop}
		line=${line//NBSP/$nbsp}
		conf=$(config "mode = always" "$line")
		want=${want//LOOP/$loop}
		want=${want//READAS/$read_as}
		set_sched mq-deadline
		check "exclude = $what: exit $code" -- exits "$code" "$HELPER" -c "$conf" "$loop"
		check "  the loop keeps mq-deadline" -- scheduler_is "$sched" mq-deadline
		check "  says so" -- stderr_is "hyperv-scheduler: $conf:2: $want"
	done <<'TABLE'
commas|exclude = LOOP, sdz|0|read 'LOOP, sdz' for 'exclude' as 'LOOP sdz': READAS
semicolons|exclude = sdz;LOOP|0|read 'sdz;LOOP' for 'exclude' as 'sdz LOOP': READAS
double quotes|exclude = "LOOP"|0|read '"LOOP"' for 'exclude' as 'LOOP': READAS
single quotes|exclude = 'LOOP'|0|read ''LOOP'' for 'exclude' as 'LOOP': READAS
a /dev/ prefix|exclude = /dev/LOOP|0|read '/dev/LOOP' for 'exclude' as 'LOOP': READAS
a no-break space|exclude = sdzNBSPLOOP|1|bad pattern 'sdz\xc2\xa0LOOP' for 'exclude': a no-break space (U+00A0) where a space belongs, nothing is changed
a bad class|exclude = loop[[:digt:]]*|1|bad pattern 'loop[[:digt:]]*' for 'exclude': no character class '[:digt:]', nothing is changed
TABLE
	# The include list, read as meant, names the loop; one that cannot be read writes nothing.
	check "devices = a list with commas: exit 0" -- \
		exits 0 "$HELPER" -c "$(config "mode = always" "devices = sdz, /dev/$loop")" "$loop"
	check "  sets none" -- scheduler_is "$sched" none
	set_sched mq-deadline
	conf=$(config "mode = always" "devices = $loop sd[[:digt:]]")
	check "devices = a bad class: exit 1" -- exits 1 "$HELPER" -c "$conf" "$loop"
	check "  the loop keeps mq-deadline" -- scheduler_is "$sched" mq-deadline
	check "  says so" -- stderr_is "hyperv-scheduler: $conf:2: bad pattern 'sd[[:digt:]]' for 'devices': no character class '[:digt:]', nothing is changed"
	conf=$(config "mode = always" "devices = $loop")

	check "a /dev path names the same disk" -- exits 0 "$HELPER" -c "$conf" "/dev/$loop"
	check "  and changes it" -- stdout_is "$loop: mq-deadline -> none"
	set_sched mq-deadline
	check "a /sys path names the same disk" -- exits 0 "$HELPER" -c "$conf" "/sys/block/$loop"
	check "  and changes it" -- stdout_is "$loop: mq-deadline -> none"

	set_sched mq-deadline
	check "a preference list: exit 0" -- \
		exits 0 "$HELPER" -c "$(config "mode = always" "scheduler = noop none")" --dry-run --json "$loop"
	check "  the first one the disk offers is the target" -- json_is "$(disk "$loop" target)" none

	# --undo on the real kernel: the write's record, in a private /run, puts the loop back.
	set_sched mq-deadline
	# shellcheck disable=SC2016 # expanded by the inner shell
	check "a write, then --undo: exit 0" -- exits 0 unshare -m -- sh -c \
		'mount -t tmpfs hyperv-scheduler-run /run && "$@" && exec "$@" --undo' sh "$HELPER" -c "$conf" "$loop"
	check "  the change, then the undo" -- stdout_is "$loop: mq-deadline -> none
$loop: none -> mq-deadline (undone)"
	check "  the kernel reads back mq-deadline" -- scheduler_is "$sched" mq-deadline

	# Read-only /sys, in a private namespace: the write fails, the error names path and errno.
	check "a read-only /sys fails the write with exit 1" -- exits 1 unshare -m -- sh -c \
		'mount --bind /sys /sys && mount -o remount,bind,ro /sys && exec "$@"' sh "$HELPER" -c "$conf" "$loop"
	check "  the message names the path and EROFS" -- \
		stderr_is "hyperv-scheduler: cannot write '$syspath/queue/scheduler': Read-only file system"
	check "  the loop keeps mq-deadline" -- scheduler_is "$sched" mq-deadline

	# The rule's event on the real kernel: the event's own disk written without libudev,
	# which the loader never looks for (LD_DEBUG=libs names each library it does, dlopen()'s
	# too), in a private /run (the record) and a private /dev (its lines on stderr).
	# event [--ro] ARGS...: the helper as udev runs it for the loop's event (--ro: under a
	# read-only /sys).
	# shellcheck disable=SC2016 # expanded by the inner shell
	event() {
		local ro=''
		[ "${1:-}" != --ro ] || { ro=ro && shift; }
		rm -f "$work/ld".*
		unshare -m -- sh -c 'ro=$1
			shift
			mount -t tmpfs hyperv-scheduler-run /run || exit 125
			[ -z "$ro" ] || { mount --bind /sys /sys && mount -o remount,bind,ro /sys; } || exit 125
			exec "$@"' sh "$ro" \
			"${log_ns[@]}" none env LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/ld" DEVPATH="${syspath#/sys}" \
			DEVTYPE=disk "$HELPER" -c "$conf" --udev "$@" "$loop"
	}
	libudev_looked_for() { cat "$work/ld".* | grep -c 'find library=libudev'; }
	if need_mounts "real-kernel events: a private /run and /dev" /dev; then
		set_sched mq-deadline
		check "an event for the loop, mode always: exit 0" -- exits 0 event
		check "  the helper's exit 0" -- stdout_is "exit 0"
		check "  on stderr, where there is no log" -- stderr_is "hyperv-scheduler: $loop: mq-deadline -> none"
		check "  the kernel reads back none" -- scheduler_is "$sched" none
		check "  libudev never looked for" -- is "lookups of libudev" "$(libudev_looked_for)" 0
		check "an event for the loop, already on none: exit 0" -- exits 0 event
		check "  nothing said" -- stderr_is ""
		check "  libudev never looked for" -- is "lookups of libudev" "$(libudev_looked_for)" 0
		check "an event with --verbose, a report's reasons: exit 0" -- exits 0 event --verbose
		check "  libudev looked for" -- is "lookups of libudev" "$(libudev_looked_for)" 1
		set_sched mq-deadline
		check "an event, a read-only /sys: exit 0" -- exits 0 event --ro
		check "  the error names the path and EROFS" -- stderr_is \
			"hyperv-scheduler: cannot write '$syspath/queue/scheduler': Read-only file system"
		check "  the helper's exit 1" -- stdout_is "exit 1"
		check "  the loop keeps mq-deadline" -- scheduler_is "$sched" mq-deadline
	fi

	if need_nobody "unprivileged runs" "$HELPER"; then
		nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
		check "--dry-run works as an unprivileged user" -- \
			exits 0 "${nobody[@]}" "$HELPER" -c "$conf" --dry-run --json "$loop"
		check "  and says would-change" -- disk_is "$loop" would-change/None
		check "an unprivileged write fails with exit 1" -- exits 1 "${nobody[@]}" "$HELPER" -c "$conf" "$loop"
		check "  the message names the path and EACCES" -- \
			stderr_is "hyperv-scheduler: cannot write '$syspath/queue/scheduler': Permission denied"
		check "  the unprivileged runs wrote nothing" -- scheduler_is "$sched" mq-deadline
	fi

	# A loop node keeps its scheduler after it is detached, and the next run that gets the
	# node borrows it: tests/lib.sh puts back the one the node had. A script that makes a
	# loop and switches it prints the node and what it had; after it exits, the node has that.
	# shellcheck disable=SC2016 # expanded by the inner shell
	borrowed=$(lib_name=restore bash -c '
                . "$1"
                make_loop l || exit 1
                s=/sys/block/$l/queue/scheduler
                had=$(sed -n "s/.*\[\(.*\)\].*/\1/p" "$s")
                if [ "$had" = none ]; then echo mq-deadline >"$s"; else echo none >"$s"; fi
                echo "$l $had"' sh "$top/tests/lib.sh")
	borrowed_had=${borrowed#* } borrowed=${borrowed%% *}
	check "tests/lib.sh gives a loop node back on the scheduler it had" -- \
		scheduler_is "/sys/block/$borrowed/queue/scheduler" "$borrowed_had"
fi

finish
