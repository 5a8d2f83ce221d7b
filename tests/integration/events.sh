# shellcheck shell=bash
# The event's own disk, as udev names it: a kernel name with '!' (AoE's etherd!e0.0), which
# udev's %k spells with '/'; and the read without libudev, which must decide as the run with it
# (--verbose only adds output): DEVPATH in any form that names the disk, and a /sys path too
# long for an attribute's path to fit.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

if need_tree "fake guests: the event's disk" && need_mounts "fake guests: messages under udev" /dev; then
	azure=$(make_tree azure)
	printf '[none] mq-deadline kyber bfq\n' >"$work/on-none"
	auto=$(config "mode = auto") always=$(config "mode = always")
	# event TREE DEVPATH CONF VAR=VALUE... ARGS...: an add event on TREE with KVM's CPUID (no
	# Hyper-V guest: mode auto changes nothing), what reached syslog on stdout.
	event() {
		local tree=$1 devpath=$2 conf=$3 vars=()
		shift 3
		while [[ $1 == *=* ]]; do
			vars+=("$1")
			shift
		done
		on kvm "$tree" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" DEVPATH="$devpath" \
			DEVTYPE=disk "${vars[@]}" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" "$@"
	}
	# first4 FILE WANT: the first 4 bytes of a scheduler file, "none" once written.
	first4() { is "$1, first 4 bytes" "$(head -c 4 "$1")" "$2"; }

	# An AoE disk: the kernel names it etherd/e0.0 (drivers/block/aoe/aoeblk.c) and sysfs
	# etherd!e0.0 (lib/kobject.c); a virtual block device, as AoE's has no parent.
	aoe=$work/aoe name='etherd!e0.0'
	cp -a "$azure" "$aoe"
	dir=$aoe/sys/devices/virtual/block/$name
	cp -a "$aoe/sys/devices/virtual/block/loop0" "$dir"
	printf 'MAJOR=152\nMINOR=0\nDEVNAME=etherd/e0.0\nDEVTYPE=disk\n' >"$dir/uevent"
	echo 152:0 >"$dir/dev"
	ln -s "../../devices/virtual/block/$name" "$aoe/sys/class/block/$name"
	ln -s "../devices/virtual/block/$name" "$aoe/sys/block/$name"
	ln -s "../../devices/virtual/block/$name" "$aoe/sys/dev/block/152:0"
	aoe_sched=$dir/queue/scheduler
	aoe_path=/devices/virtual/block/$name
	printf '[mq-deadline] none kyber bfq\n' >"$work/aoe-sched"

	# What udev runs for it: %k is sd-device's sysname, with each '!' of the kernel's name
	# turned into '/'. A loop device cannot be named so: a fake tree, under udevadm test.
	cp "$work/aoe-sched" "$aoe_sched"
	if ! command -v udevadm >/dev/null; then
		skip "udev runs the helper for $name" "no udevadm (package udev)"
	elif udev_test "$aoe" add "$name" >"$work/udev" && udev_test_runs "$work/udev" >"$work/runs"; then
		check "udev runs the helper for $name with udev's spelling, etherd/e0.0" -- \
			is "what udev runs" "$(sed 's/.* --udev //' "$work/runs")" etherd/e0.0
	else
		fail "udev runs the helper for $name" "udevadm test ran nothing: $(tail -3 "$work/udev")"
	fi
	check "udev's etherd/e0.0 for $name, mode auto, not Hyper-V: exit 0" -- \
		exits 0 event "$aoe" "$aoe_path" "$auto" --udev etherd/e0.0
	check "  nothing logged" -- stdout_is "exit 0"
	check "  nothing written" -- first4 "$aoe_sched" "[mq-"
	check "udev's etherd/e0.0, mode always: exit 0" -- \
		exits 0 event "$aoe" "$aoe_path" "$always" --udev etherd/e0.0
	check "  the change logged by the kernel's name" -- \
		stdout_is "syslog <30> $name: mq-deadline -> none
exit 0"
	check "  written" -- first4 "$aoe_sched" none
	cp "$work/aoe-sched" "$aoe_sched"
	check "udev's etherd/e0.0, mode always, --verbose: exit 0" -- \
		exits 0 event "$aoe" "$aoe_path" "$always" --udev --verbose etherd/e0.0
	check "  written" -- first4 "$aoe_sched" none
	cp "$work/aoe-sched" "$aoe_sched"
	check "a name with '/' that DEVPATH does not end in: exit 0" -- \
		exits 0 event "$aoe" "$aoe_path" "$always" --udev etherd/e0.1
	check "  refused, exit 2" -- stdout_is "syslog <27> cannot use 'etherd/e0.1': a kernel name has no '/'; give /dev/NAME or a /sys path
exit 2"
	check "  nothing written" -- first4 "$aoe_sched" "[mq-"
	check "udev's spelling of another disk's name: exit 0" -- \
		exits 0 event "$aoe" /devices/virtual/block/loop0 "$always" --udev etherd/e0.0
	check "  refused, exit 2" -- stdout_is "syslog <27> cannot use 'etherd/e0.0': a kernel name has no '/'; give /dev/NAME or a /sys path
exit 2"
	check "by hand, $name: exit 0" -- \
		exits 0 on kvm "$aoe" "$TESTFACTS" -c "$always" --dry-run --json "$name"
	check "  would change" -- disk_is "$name" would-change/None
	check "by hand, etherd/e0.0 is no kernel name: exit 2" -- \
		exits 2 on kvm "$aoe" env DEVPATH="$aoe_path" "$TESTFACTS" -c "$always" --dry-run etherd/e0.0
	check "  and says so" -- stderr_is "hyperv-scheduler: cannot use 'etherd/e0.0': a kernel name has no '/'; give /dev/NAME or a /sys path"

	# DEVPATH in another form than the kernel's still names the event's disk: the read
	# without libudev and the run with it (--verbose) both take its HYPERV_SCHEDULER.
	sda=$(cd -P "$azure/sys/class/block/sda" && pwd)
	sda=${sda#"$azure/sys"}
	forms=$work/forms
	cp -a "$azure" "$forms"
	sda_sched=$forms/sys$sda/queue/scheduler
	printf '[mq-deadline] none kyber bfq\n' >"$work/sda-sched"
	for devpath in "${sda/\/devices\//\/devices\/\/}" "${sda/\/devices\//\/devices\/.\/}" /block/sda "$sda"; do
		for v in '' --verbose; do
			cp "$work/sda-sched" "$sda_sched"
			check "DEVPATH $devpath${v:+ $v}, opted out, mode always: exit 0" -- \
				exits 0 event "$forms" "$devpath" "$always" HYPERV_SCHEDULER=skip --udev $v sda
			check "  the opt-out holds" -- first4 "$sda_sched" "[mq-"
		done
	done

	# deep SRC DST LEN: a copy of the tree SRC in DST with a disk sdx on mq-deadline whose
	# /sys path is LEN bytes long; sets deep_path to its DEVPATH. Made a directory at a time:
	# the whole path is longer than a path may be outside the tree.
	deep() {
		local src=$1 dst=$2 len=$3 dirs=() d n left
		deep_path=/devices
		cp -a "$src" "$dst" || return
		left=$((len - ${#deep_path} - 4 - 10)) # /sys, /block/sdx
		while [ "$left" -gt 0 ]; do
			n=$((left > 201 ? 200 : left - 1))
			printf -v d "%${n}s" ''
			dirs+=("${d// /d}")
			deep_path+=/${d// /d}
			left=$((left - n - 1))
		done
		deep_path+=/block/sdx
		(
			cd "$dst/sys/devices" || exit
			for d in "${dirs[@]}"; do mkdir "$d" && cd "$d" || exit; done
			mkdir -p block/sdx/queue && cd block/sdx || exit
			printf 'MAJOR=8\nMINOR=240\nDEVNAME=sdx\nDEVTYPE=disk\n' >uevent
			echo 8:240 >dev
			echo none >queue/zoned
			printf -v d '../%.0s' "${dirs[@]}" 1 2 3
			ln -s "${d}class/block" subsystem
		) || return
		ln -s "../..$deep_path" "$dst/sys/class/block/sdx"
		ln -s "../..$deep_path" "$dst/sys/dev/block/8:240"
	}
	# 4079 bytes: queue/scheduler's path just fits; 4080 to 4085: it does not, the
	# subsystem link's does; 4086: neither does.
	for len in 4079 4080 4085 4086; do
		deep "$azure" "$work/deep-$len" "$len"
		deep_sched=$work/deep-$len/sys/class/block/sdx/queue/scheduler
		for v in '' --verbose; do
			printf '[mq-deadline] none kyber bfq\n' >"$deep_sched"
			case $len in
			4079)
				check "a /sys path of $len bytes${v:+, $v}: exit 0" -- \
					exits 0 event "$work/deep-$len" "$deep_path" "$always" --udev $v sdx
				check "  written" -- first4 "$deep_sched" none
				;;
			4086)
				check "a /sys path of $len bytes${v:+, $v}: exit 0" -- \
					exits 0 event "$work/deep-$len" "$deep_path" "$always" --udev $v sdx
				syspath=/sys$deep_path
				check "  no subsystem link to read: not a block device, exit 2" -- \
					stdout_is "syslog <27> cannot find '${syspath:0:92}...': not a block device
exit 2"
				check "  nothing written" -- first4 "$deep_sched" "[mq-"
				;;
			*)
				check "a /sys path of $len bytes${v:+, $v}: exit 0" -- \
					exits 0 event "$work/deep-$len" "$deep_path" "$always" --udev $v sdx
				# The path shown is cut to the message's room (escape_text()).
				syspath=/sys$deep_path
				check "  cannot be read: said, exit 1" -- \
					stdout_is "syslog <27> cannot read '${syspath:0:156}...': File name too long
exit 1"
				check "  nothing written" -- first4 "$deep_sched" "[mq-"
				;;
			esac
		done
	done
fi

finish
