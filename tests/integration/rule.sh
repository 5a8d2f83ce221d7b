# shellcheck shell=bash
# The rule as udev reads it: udevadm test against a fake Hyper-V guest, the shipped rule in a
# private /run, so the machine's rules and devices are untouched. udevadm test shows which rule
# lines match and what udev would RUN; what a rule's ATTR write does to a later rule it does
# not show (from udev 257 it writes nothing), so which rule wins is order.sh's, under a running
# udevd. UDEV_ROOT=DIR reads the rule with another release's udevadm (.ci/udevd-releases.sh).
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# The command the rule runs, less the kernel name.
helper=$(sed -n 's/^RUN+="\(.*\) %k"$/\1/p' "$RULE")

# runs ACTION DEVICE [RULE-FILE...]: true when udev would run the helper for DEVICE.
runs() {
	local action=$1 device=$2
	shift 2
	simulate "$action" "$device" "$@" || return 1
	udev_test_runs "$work/udev" | grep -qxF "$helper $device" ||
		{
			echo "it does not run the helper"
			return 1
		}
}

# starts_nothing ACTION DEVICE [RULE-FILE...]: true when udev read the rule and would not run
# the helper for DEVICE.
starts_nothing() {
	simulate "$@" || return 1
	! udev_test_runs "$work/udev" | grep -F "$helper " || {
		echo "it runs the helper"
		return 1
	}
}

# reads_nothing FILE: udev_test_runs finds no program in FILE.
reads_nothing() {
	local got
	! got=$(udev_test_runs "$1") || {
		echo "udev_test_runs read '$got'"
		return 1
	}
}

# simulate ACTION DEVICE [RULE-FILE...]: udevadm test's output in $work/udev; true when it
# read the rule and handled the event (udev 257 indents the properties).
simulate() {
	local action=$1 device=$2
	shift 2
	udev_test "$tree" "$action" "$device" "$@" >"$work/udev"
	if ! grep -q "^Reading rules file: /run/udev/rules.d/60-hyperv-scheduler.rules" "$work/udev" ||
		! grep -qxE " *ACTION=$action" "$work/udev"; then
		echo "udevadm test failed: $(tail -3 "$work/udev")"
		return 1
	fi
}

if need_mounts "udevadm test with the shipped rule" "/run and /dev"; then
	if ! command -v udevadm >/dev/null; then
		fail "udevadm test with the shipped rule" "udevadm is missing (package udev)"
		finish
		exit
	fi
	tree=$(make_tree azure)
	# sda, sr0: mq-deadline; sdaa: bfq.
	for device in sda sdaa sr0; do
		check "an add event of $device runs the helper" -- runs add "$device"
	done
	# sdb and nvme0n1 are on none already.
	for device in sdb nvme0n1 sda1 nvme0n1p1 loop0 dm-0 md0 zram0; do
		check "an add event of $device starts nothing" -- starts_nothing add "$device"
	done
	for action in change remove; do
		check "a $action event starts nothing" -- starts_nothing "$action" sda
	done
	# The opt-out rule as the README and the man page give it.
	printf '%s\n' 'SUBSYSTEM=="block", KERNEL=="sda", ENV{HYPERV_SCHEDULER}="skip"' \
		>"$work/59-opt-out.rules"
	check "a disk an earlier rule marked HYPERV_SCHEDULER=skip starts nothing" -- \
		starts_nothing add sda "$work/59-opt-out.rules"
	check "the opt-out rule leaves other disks alone" -- runs add sdaa "$work/59-opt-out.rules"

	# The scheduler in use decides: none or noop starts nothing, any other name starts the
	# helper, whatever else the list offers. sdb's file is rewritten for each case.
	sdb_sched=$tree/sys/class/block/sdb/queue/scheduler
	while IFS='|' read -r list want; do
		printf '%s\n' "$list" >"$sdb_sched"
		if [ "$want" = nothing ]; then
			check "a disk on '$list' starts nothing" -- starts_nothing add sdb
		else
			check "a disk on '$list' runs the helper" -- runs add sdb
		fi
	done <<'TABLE'
[none] mq-deadline kyber bfq |nothing
[none]|nothing
[noop] deadline cfq|nothing
[mq-deadline] none|helper
none [mq-deadline] kyber bfq |helper
[bfq]|helper
noop [deadline] cfq|helper
none|helper
TABLE

	# The one reader of udevadm test's output (tests/lib.sh, udev_test_runs), on this
	# udevadm's own: it finds the RUN line (above), and nothing once that line is gone.
	simulate add sda >/dev/null
	udev_version=$(${UDEV_ROOT:+chroot "$UDEV_ROOT"} udevadm --version)
	check "udev_test_runs reads the helper's command from udevadm test of udev $udev_version" -- \
		is "what it reads" "$(udev_test_runs "$work/udev")" "$helper sda"
	grep -vF "$helper sda" "$work/udev" >"$work/udev-no-run"
	check "  and nothing from the same output without that line" -- reads_nothing "$work/udev-no-run"
fi

finish
