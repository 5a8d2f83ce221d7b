# shellcheck shell=bash
# The rule as udev reads it: udevadm test against a fake Hyper-V guest, the shipped rule in a
# private /run, so the machine's rules and devices are untouched.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# The command the rule runs, less the kernel name.
helper=$(sed -n 's/^RUN+="\(.*\) %k"$/\1/p' "$RULE")

# udevadm test names what it would run as "run: 'CMD'" up to udev 256 and as
# "  RUN{program} : CMD" from 257 (Debian 13).
# runs ACTION DEVICE [RULE-FILE...]: true when udev would run the helper for DEVICE.
runs() {
        local action=$1 device=$2
        shift 2
        simulate "$action" "$device" "$@" || return 1
        grep -qxF -e "run: '$helper $device'" -e "  RUN{program} : $helper $device" "$work/udev" ||
                { echo "it does not run the helper"; return 1; }
}

# starts_nothing ACTION DEVICE [RULE-FILE...]: true when udev read the rule and would not run
# the helper for DEVICE.
starts_nothing() {
        simulate "$@" || return 1
        ! grep -F -e "run: '$helper " -e "RUN{program} : $helper " "$work/udev" || { echo "it runs the helper"; return 1; }
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
        # An earlier rule file that sets bfq on a disk the kernel put on none. udev 252 reads
        # the attribute again after that write, so the helper runs and sets none again; udev
        # 257 (Debian 13) matches the value it had before the write, so that rule wins there
        # (hyperv-scheduler(8), DESCRIPTION).
        printf '%s\n' '[none] mq-deadline kyber bfq ' >"$sdb_sched"
        printf '%s\n' 'SUBSYSTEM=="block", KERNEL=="sdb", ATTR{queue/scheduler}="bfq"' >"$work/59-bfq.rules"
        udev_version=$(udevadm --version)
        if [ "${udev_version%%[!0-9]*}" -lt 257 ]; then
                check "a disk on none that a 59-* rule sets to bfq runs the helper (udev $udev_version)" -- \
                        runs add sdb "$work/59-bfq.rules"
        else
                check "a disk on none that a 59-* rule sets to bfq starts nothing (udev $udev_version)" -- \
                        starts_nothing add sdb "$work/59-bfq.rules"
        fi
        check "  the 59-* rule's write reached the disk's file" -- \
                has "sdb's scheduler file" "$(cat "$sdb_sched")" bfq
        printf '%s\n' '[none] mq-deadline kyber bfq ' >"$sdb_sched"
fi

finish
