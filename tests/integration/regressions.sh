# shellcheck shell=bash
# Defects that show only through the binary, one case each: a report that changes a real
# disk stays valid JSON, the change line names the old scheduler, udev's facts count only
# with --udev and only for the event's own device, the last hyperv_scheduler= wins, a disk
# offering only [none] is already on none, and a failed enumeration names the real errno.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

if need_sysfs "a report that switches a real loop device"; then
	loop=
	if make_loop loop; then
		sched=/sys/block/$loop/queue/scheduler
		conf=$(config "mode = always" "devices = $loop")
		echo mq-deadline >"$sched"
		check "--json on a loop it switches: exit 0" -- exits 0 "$HELPER" -c "$conf" --json "$loop"
		check "  stdout is one JSON report, the loop changed" -- \
			json_is "[(x['name'], x['action'], x['current']) for x in d['devices']]" \
			"[('$loop', 'changed', 'none')]"
		check "  the change line is on stderr" -- stderr_is "$loop: mq-deadline -> none"
		check "  and the kernel has none" -- scheduler_is "$sched" none

		# Each scheduler the kernel lists after the switch at another place than before.
		for old in mq-deadline kyber bfq; do
			echo "$old" >"$sched" 2>/dev/null || continue
			check "the change line names the old scheduler, $old: exit 0" -- exits 0 "$HELPER" -c "$conf" "$loop"
			check "  $loop: $old -> none" -- stdout_is "$loop: $old -> none"
		done

		# ACTION exported by a script that runs the helper is no udev event.
		echo mq-deadline >"$sched"
		check "ACTION, DEVTYPE and HYPERV_SCHEDULER without --udev: exit 0" -- \
			exits 0 env ACTION=add DEVTYPE=partition HYPERV_SCHEDULER=skip "$HELPER" -c "$conf" "$loop"
		check "  the disk is changed as for a person" -- stdout_is "$loop: mq-deadline -> none"
	else
		fail "make a loop device" "losetup failed"
	fi
fi

check "ACTION in the environment without --udev: a missing disk exits 2" -- \
	exits 2 env ACTION=add "$HELPER" -c /dev/null nosuchdisk0
check "  and says so" -- stderr_is "hyperv-scheduler: cannot find 'nosuchdisk0': No such device"
check "with --udev a disk that vanished is no failure" -- exits 0 "$HELPER" -c /dev/null --udev nosuchdisk0
check "  and prints nothing" -- silent

if need_tree "fake guests"; then
	azure=$(make_tree azure)
	conf=$(config "mode = auto")
	sda=$(cd -P "$azure/sys/class/block/sda" && pwd)
	sda=${sda#"$azure/sys"}
	# guest [VAR=VALUE...] ARGS...: a report on the fake guest with VARs in its environment.
	guest() {
		local vars=()
		while [[ $1 == *=* ]]; do
			vars+=("$1")
			shift
		done
		on hyperv-guest "$azure" env "${vars[@]}" "$TESTFACTS" -c "$conf" --dry-run --json "$@"
	}

	# udev's facts come from its environment only for the event's device, /sys$DEVPATH.
	check "--udev, the event's disk opted out: exit 0" -- exits 0 \
		guest DEVPATH="$sda" DEVTYPE=disk HYPERV_SCHEDULER=skip --udev sda sdaa
	check "  sda, the event's disk, is opted out" -- disk_is sda skipped/opted-out
	check "  sdaa, another disk, is not" -- disk_is sdaa would-change/None
	check "--udev, the event's device a partition: exit 0" -- exits 0 \
		guest DEVPATH="$sda" DEVTYPE=partition --udev sda sdaa
	check "  sda is taken for a partition" -- disk_is sda skipped/partition
	check "  sdaa still for a disk" -- disk_is sdaa would-change/None
	check "--udev, the event's disk without DEVTYPE: exit 0" -- exits 0 \
		guest DEVPATH="$sda" --udev sda
	check "  sda is read from sysfs: a disk to change" -- disk_is sda would-change/None
	check "--udev, the event of another device: exit 0" -- exits 0 \
		guest DEVPATH=/devices/virtual/block/loop0 DEVTYPE=partition HYPERV_SCHEDULER=skip --udev sda
	check "  sda is read from sysfs" -- disk_is sda would-change/None
	check "the same environment without --udev: exit 0" -- exits 0 \
		guest ACTION=add DEVPATH="$sda" DEVTYPE=partition HYPERV_SCHEDULER=skip sda
	check "  is not udev's: sda is a disk to change" -- disk_is sda would-change/None

	# The kernel command line, bind-mounted over /proc/cmdline: the last value wins, and
	# quotes around the value or the whole parameter are the kernel's, not the value's.
	if [ ! -e /proc/cmdline ]; then
		skip "the last hyperv_scheduler= wins" "no /proc/cmdline to mount over"
	elif need_mounts "the last hyperv_scheduler= wins" /proc; then
		while IFS='|' read -r line want; do
			echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 $line" >"$work/cmdline"
			check "cmdline '$line': exit 0" -- exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
				env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" \
				"$TESTFACTS" -c "$conf" --dry-run --json sda
			check "  mode ${want% *}, from the command line: ${want#* }" -- \
				json_is "d['policy']['mode'] + ' ' + str(d['policy']['mode_from_cmdline'])" "$want"
		done <<'TABLE'
hyperv_scheduler=offf hyperv_scheduler=off|off True
hyperv_scheduler=off quiet hyperv_scheduler=always|always True
hyperv_scheduler=always hyperv_scheduler=off|off True
hyperv_scheduler="off"|off True
"hyperv_scheduler=off"|off True
hyperv_scheduler=off "hyperv_scheduler=always"|always True
hyperv-scheduler=off|off True
hyperv_scheduler=always hyperv-scheduler=off|off True
hyperv_scheduler=off hyperv_scheduler=offf|auto False
TABLE
		check "  a bad last value is named" -- stderr_is \
			"hyperv-scheduler: cannot use '/proc/cmdline': the last hyperv_scheduler= is not auto, always or off, the configured mode applies"
	fi

	# Only [none]: mq-deadline built as a module and not loaded (Debian 13's cloud kernel).
	cp -a "$azure" "$work/only-none"
	printf '[none] \n' >"$work/only-none/sys/class/block/sda/queue/scheduler"
	check "a disk offering only [none]: exit 0" -- \
		exits 0 on hyperv-guest "$work/only-none" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "  is already on none" -- disk_is sda already/None
	check "  its target is none" -- json_is "$(disk sda target)" none
	check "  the kernel started it on none, in JSON" -- json_is "$(disk sda kernel_default)" none
	check "  and in text, from its own facts" -- \
		exits 0 on hyperv-guest "$work/only-none" "$TESTFACTS" -c "$conf" --dry-run sda
	check "  the footer says why" -- stdout_has "sda: 1 hardware queue, but no mq-deadline offered (a module not loaded): the kernel starts it on none"
	check "  and nothing generic" -- is "a generic sentence" "$(grep -c 'A disk with 1 hardware queue' <<<"$out")" 0

	# Under udev with no report, the event's own disk is decided, and written, from /sys,
	# CPUID and DMI, libudev never opened (src/udevlib.c): only what the event cannot
	# settle so opens it (run.c, run()). The
	# dynamic loader names each library it looks for with LD_DEBUG=libs, dlopen()'s too;
	# umockdev's preload library links libudev itself, so there only the outcome counts.
	# Each case starts from sda on mq-deadline, as the fixture has it (the first 4 bytes
	# of its file show a write of none, robust.sh says why); sdb is already on none.
	cp -a "$azure" "$work/event"
	event_sched=$work/event/sys$sda/queue/scheduler
	cp "$event_sched" "$work/event-sched"
	printf '[none] mq-deadline kyber bfq\n' >"$work/event-none"
	sdb=$(cd -P "$azure/sys/class/block/sdb" && pwd)
	sdb=${sdb#"$azure/sys"}
	event() { # CPUID DEVPATH ARGS...: a udev event on the copy, its libraries logged
		local cpuid=$1 devpath=$2
		shift 2
		cp "$work/event-sched" "$event_sched"
		rm -f "$work/leaves"
		on "$cpuid" "$work/event" env LD_DEBUG=libs HYPERV_SCHEDULER_TEST_CPUID_LOG="$work/leaves" \
			HYPERV_SCHEDULER_TEST_READBACK="$work/event-none" DEVPATH="$devpath" DEVTYPE=disk \
			"$TESTFACTS" -c "${event_conf:-$conf}" "$@"
	}
	udev_loaded() { # yes|no: whether the last run looked for libudev
		local got=no
		[[ $err != *"find library=libudev.so.1"* ]] || got=yes
		is "libudev looked for" "$got" "$1"
	}
	# libudev_check NAME yes|no: that check, or a SKIP under umockdev.
	libudev_check() {
		if [ "$ns_mounts" = no ]; then
			skip "$1" "umockdev's preload library links libudev"
		else
			check "$1" -- udev_loaded "$2"
		fi
	}
	sda_first() { is "sda's scheduler file, first 4 bytes" "$(head -c 4 "$event_sched")" "$1"; }
	check "an event on KVM, sda to change in mode auto: exit 0" -- exits 0 event kvm "$sda" --udev sda
	check "  sda keeps its scheduler" -- sda_first "$(head -c 4 "$work/event-sched")"
	libudev_check "  libudev is never opened" no
	check "  CPUID leaves 1 and 0x40000000 only" -- is "the leaves asked" "$(paste -sd' ' "$work/leaves")" "0x00000001 0x40000000"
	check "an event on a Hyper-V guest, sda on VMBus: exit 0" -- exits 0 event hyperv-guest "$sda" --udev sda
	check "  sda is written" -- sda_first none
	libudev_check "  without libudev" no
	check "an event on a Hyper-V guest, sdb already on none: exit 0" -- exits 0 event hyperv-guest "$sdb" --udev sdb
	libudev_check "  without libudev" no
	check "  and without CPUID" -- is "the leaves asked" "$(cat "$work/leaves" 2>/dev/null)" ""
	rm -f "$work/leaves"
	check "the same through libudev (no DEVPATH: sdb looked up): exit 0" -- exits 0 \
		on hyperv-guest "$work/event" env HYPERV_SCHEDULER_TEST_CPUID_LOG="$work/leaves" "$TESTFACTS" -c "$conf" --udev sdb
	check "  without CPUID either" -- is "the leaves asked" "$(cat "$work/leaves" 2>/dev/null)" ""
	event_conf=$(config "mode = always")
	check "mode always, an event on KVM, sda to change: exit 0" -- exits 0 event kvm "$sda" --udev sda
	check "  sda is written" -- sda_first none
	libudev_check "  without libudev" no
	check "mode always, an event for sdb, already on none: exit 0" -- exits 0 event kvm "$sdb" --udev sdb
	libudev_check "  without libudev" no
	event_conf=
	check "--udev --verbose on KVM: exit 0" -- exits 0 event kvm "$sda" --udev --verbose sda
	libudev_check "  the reasons need libudev" yes
	check "  sda keeps its scheduler as before" -- sda_first "$(head -c 4 "$work/event-sched")"
	# ev VAR=VALUE... ARGS...: an event on KVM with only the variables given.
	ev() {
		cp "$work/event-sched" "$event_sched"
		on kvm "$work/event" env LD_DEBUG=libs "$@"
	}
	# Read early only as udev gives it: one disk by its kernel name, at a DEVPATH that
	# names a block device; anything else is libudev's, which tells.
	check "two disks named under udev: exit 0" -- \
		exits 0 ev DEVPATH="$sda" DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev sda sdb
	libudev_check "  through libudev" yes
	check "the event's disk named by its /dev path: exit 0" -- \
		exits 0 ev DEVPATH="$sda" DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev /dev/sda
	libudev_check "  through libudev" yes
	check "a DEVPATH that names nothing: exit 0" -- \
		exits 0 ev DEVPATH=/devices/gone/block/sda DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev sda
	libudev_check "  through libudev" yes
	# Those two are lookup errors (exit 2), as they were before the early read.
	check "a DEVPATH of another subsystem: exit 2" -- \
		exits 2 ev DEVPATH=/devices/virtual/dmi/id DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev id
	libudev_check "  through libudev" yes
	long=/$(head -c 4080 /dev/zero | tr '\0' x)/sda
	check "a DEVPATH too long for its subsystem link's path: exit 2" -- \
		exits 2 ev DEVPATH="$long" DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev sda
	libudev_check "  through libudev" yes
	# Read early: a partition's event, and an event without DEVTYPE (then the partition
	# attribute tells, as disk_gather() reads it).
	check "a partition's event: exit 0" -- \
		exits 0 ev DEVPATH="$sda" DEVTYPE=partition "$TESTFACTS" -c "$conf" --udev sda
	libudev_check "  without libudev" no
	check "an event without DEVTYPE, on KVM: exit 0" -- \
		exits 0 ev DEVPATH="$sda" "$TESTFACTS" -c "$conf" --udev sda
	libudev_check "  without libudev" no
	check "  sda keeps its scheduler" -- sda_first "$(head -c 4 "$work/event-sched")"

	# A /sys/class/block that cannot be read: the error is the real one.
	cp -a "$azure" "$work/loop-link"
	rm -rf "$work/loop-link/sys/class/block"
	ln -s block "$work/loop-link/sys/class/block"
	check "an unreadable /sys/class/block: exit 1" -- \
		exits 1 on hyperv-guest "$work/loop-link" "$TESTFACTS" -c "$conf" --dry-run
	check "  naming the path and the errno" -- \
		stderr_is "hyperv-scheduler: cannot enumerate '/sys/class/block': Too many levels of symbolic links"
fi

finish
