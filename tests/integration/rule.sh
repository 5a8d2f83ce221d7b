# shellcheck shell=bash
# The rule as udev reads it: udevadm test against a fake Hyper-V guest, the shipped rule in a
# private /run, so the machine's rules and devices are untouched.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# The command the rule runs, less the kernel name.
helper=$(sed -n 's/^RUN+="\(.*\) %k"$/\1/p' "$RULE")

# runs ACTION DEVICE [RULE-FILE...]: true when udev would run the helper for DEVICE.
runs() {
        local action=$1 device=$2
        shift 2
        simulate "$action" "$device" "$@" || return 1
        grep -qx "run: '$helper $device'" "$work/udev" || { echo "it does not run the helper"; return 1; }
}

# starts_nothing ACTION DEVICE [RULE-FILE...]: true when udev read the rule and would not run
# the helper for DEVICE.
starts_nothing() {
        simulate "$@" || return 1
        ! grep -q "^run: '$helper " "$work/udev" || { echo "it runs the helper"; return 1; }
}

# simulate ACTION DEVICE [RULE-FILE...]: udevadm test's output in $work/udev; true when it
# read the rule and handled the event.
simulate() {
        local action=$1 device=$2
        shift 2
        udev_test "$tree" "$action" "$device" "$@" >"$work/udev"
        if ! grep -q "^Reading rules file: /run/udev/rules.d/60-hyperv-scheduler.rules" "$work/udev" ||
                ! grep -qx "ACTION=$action" "$work/udev"; then
                echo "udevadm test failed: $(tail -3 "$work/udev")"
                return 1
        fi
}

if need_mounts "udevadm test with the shipped rule"; then
        if ! command -v udevadm >/dev/null; then
                fail "udevadm test with the shipped rule" "udevadm is missing (package udev)"
                finish
                exit
        fi
        tree=$(make_tree azure)
        for device in sda sdb sdaa nvme0n1 sr0; do
                check "an add event of $device runs the helper" -- runs add "$device"
        done
        for device in sda1 nvme0n1p1 loop0 dm-0 md0 zram0; do
                check "an add event of $device starts nothing" -- starts_nothing add "$device"
        done
        for action in change remove; do
                check "a $action event starts nothing" -- starts_nothing "$action" sda
        done
        # The opt-out rule as the README and the man page give it.
        printf '%s\n' 'SUBSYSTEM=="block", KERNEL=="sdb", ENV{HYPERV_SCHEDULER}="skip"' \
                >"$work/59-opt-out.rules"
        check "a disk an earlier rule marked HYPERV_SCHEDULER=skip starts nothing" -- \
                starts_nothing add sdb "$work/59-opt-out.rules"
        check "the opt-out rule leaves other disks alone" -- runs add sda "$work/59-opt-out.rules"
fi

finish
