# The rule as udev reads it: udevadm test against a fake Hyper-V guest, the shipped rule in a
# private /run, so the machine's rules and devices are untouched.
. "$(dirname "$0")/../lib.sh"

helper=$(sed -n 's/^RUN+="\([^ ]*\) %k"$/\1/p' "$RULE")

# runs ACTION DEVICE [RULE-FILE...]: 0 when udev would run the helper for DEVICE, 1 when it
# read the rule and would not, 2 when the simulation itself failed.
runs() {
        local action=$1 device=$2
        shift 2
        udev_test "$tree" "$action" "$device" "$@" >"$work/udev"
        grep -q "^Reading rules file: /run/udev/rules.d/60-hyperv-scheduler.rules" "$work/udev" &&
                grep -qx "ACTION=$action" "$work/udev" || return 2
        grep -qx "run: '$helper $device'" "$work/udev"
}

# starts_nothing NAME ACTION DEVICE [RULE-FILE...]
starts_nothing() {
        local name=$1
        shift
        runs "$@"
        case $? in
        0) fail "$name" "it runs the helper" ;;
        1) pass "$name" ;;
        *) fail "$name" "udevadm test failed: $(tail -3 "$work/udev")" ;;
        esac
}

if need_root "udevadm test with the shipped rule"; then
        if ! command -v udevadm >/dev/null; then
                fail "udevadm test with the shipped rule" "udevadm is missing (package udev)"
                finish
                exit
        fi
        tree=$(make_tree azure)
        for device in sda sdb sdaa nvme0n1 sr0; do
                runs add "$device" && pass "an add event of $device runs the helper" ||
                        fail "an add event of $device runs the helper" "$(tail -5 "$work/udev")"
        done
        for device in sda1 nvme0n1p1 loop0 dm-0 md0 zram0; do
                starts_nothing "an add event of $device starts nothing" add "$device"
        done
        for action in change remove; do
                starts_nothing "a $action event starts nothing" "$action" sda
        done
        # The opt-out rule as the README and the man page give it.
        printf '%s\n' 'SUBSYSTEM=="block", KERNEL=="sdb", ENV{HYPERV_SCHEDULER}="skip"' \
                >"$work/59-opt-out.rules"
        starts_nothing "a disk an earlier rule marked HYPERV_SCHEDULER=skip starts nothing" \
                add sdb "$work/59-opt-out.rules"
        runs add sda "$work/59-opt-out.rules" && pass "the opt-out rule leaves other disks alone" ||
                fail "the opt-out rule leaves other disks alone" "$(tail -5 "$work/udev")"
fi

finish
