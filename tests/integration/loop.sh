# The real kernel: loop devices whose queue/scheduler the block layer really switches.
. "$(dirname "$0")/../lib.sh"

scheduler() { cat "/sys/block/$1/queue/scheduler"; }

if need_root "real-kernel loop tests"; then
        make_loop loop || { fail "make a loop device" "losetup failed"; finish; exit; }
        echo mq-deadline >"/sys/block/$loop/queue/scheduler"

        conf=$(config "mode = auto")
        capture "$HELPER" -c "$conf" "$loop"
        expect "mode auto on a machine that is not Hyper-V changes nothing" 0
        [[ $(scheduler "$loop") == *"[mq-deadline]"* ]] && pass "the loop keeps mq-deadline in mode auto" ||
                fail "the loop keeps mq-deadline in mode auto" "$(scheduler "$loop")"
        [ -z "$out$err" ] && pass "mode auto prints nothing when nothing changed" ||
                fail "mode auto prints nothing when nothing changed" "$out$err"

        capture "$HELPER" -c "$conf" --dry-run --json "$loop"
        expect "the dry run names not-hyperv for the loop" 0 '"reason": "not-hyperv"'

        conf=$(config "mode = always" "devices = $loop")
        capture "$HELPER" -c "$conf" --dry-run "$loop"
        expect "a dry run in mode always says would-change" 0 "would-change"
        [[ $(scheduler "$loop") == *"[mq-deadline]"* ]] && pass "a dry run writes nothing" ||
                fail "a dry run writes nothing" "$(scheduler "$loop")"

        capture "$HELPER" -c "$conf" "$loop"
        expect "mode always with devices = the loop sets none" 0 "$loop: mq-deadline -> none"
        [[ $(scheduler "$loop") == *"[none]"* ]] && pass "the kernel reads back none" ||
                fail "the kernel reads back none" "$(scheduler "$loop")"

        capture "$HELPER" -c "$conf" --json "$loop"
        expect "a disk already on none is left as it is" 0 '"action": "already"'

        echo mq-deadline >"/sys/block/$loop/queue/scheduler"
        capture "$HELPER" -c "$(config "mode = always" "exclude = loop*")" "$loop"
        [[ $(scheduler "$loop") == *"[mq-deadline]"* ]] && pass "an exclude glob keeps the disk" ||
                fail "an exclude glob keeps the disk" "$(scheduler "$loop")"

        capture "$HELPER" -c "$conf" "/dev/$loop"
        expect "a /dev path names the same disk" 0 "$loop: mq-deadline -> none"

        echo mq-deadline >"/sys/block/$loop/queue/scheduler"
        capture "$HELPER" -c "$conf" "/sys/block/$loop"
        expect "a /sys path names the same disk" 0 "$loop: mq-deadline -> none"

        echo mq-deadline >"/sys/block/$loop/queue/scheduler"
        capture "$HELPER" -c "$(config "mode = always" "scheduler = bfq-nonexistent none")" --json "$loop"
        expect "the first preferred scheduler the disk offers is chosen" 0 '"target": "none"'

        # Read-only /sys, in a private namespace: the write fails, the error names path and errno.
        echo mq-deadline >"/sys/block/$loop/queue/scheduler"
        capture unshare -m -- sh -c 'mount --bind /sys /sys && mount -o remount,bind,ro /sys && exec "$@"' \
                sh "$HELPER" -c "$conf" "$loop"
        expect "a read-only /sys fails the write with EROFS and exit 1" 1 "" \
                "cannot write 'none' to '/sys/devices/virtual/block/$loop/queue/scheduler': Read-only file system"

        if command -v setpriv >/dev/null; then
                chmod 0755 "$work"
                chmod 0644 "$conf"
                capture setpriv --reuid=nobody --regid=nogroup --clear-groups "$HELPER" -c "$conf" --dry-run "$loop"
                expect "--dry-run works as an unprivileged user" 0 "would-change"
                capture setpriv --reuid=nobody --regid=nogroup --clear-groups "$HELPER" -c "$conf" "$loop"
                expect "an unprivileged write fails with EACCES and exit 1" 1 "" "Permission denied"
                [[ $(scheduler "$loop") == *"[mq-deadline]"* ]] && pass "the unprivileged runs wrote nothing" ||
                        fail "the unprivileged runs wrote nothing" "$(scheduler "$loop")"
        else
                skip "unprivileged runs" "setpriv is missing"
        fi
fi

finish
