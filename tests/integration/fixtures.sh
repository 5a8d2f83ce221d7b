# Fake sysfs trees (tests/fixtures/mktree) under the real libudev, in private mount namespaces.
# The nocpuid build decides as on arm64, from VMBus and DMI, so a tree stands for a whole
# Hyper-V guest; the real build still reads this machine's CPUID.
. "$(dirname "$0")/../lib.sh"

# json EXPR: evaluates a Python expression over the last JSON report ($work/out), `d`.
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$work/out" 2>/dev/null; }

# device NAME FIELD: a field of one device in the last JSON report.
device() { json "[x['$2'] for x in d['devices'] if x['name']=='$1'][0]"; }

# expect_devices NAME=ACTION/REASON...: each device's action and reason in the last report.
expect_devices() {
        local what=$1 pair name want got
        shift
        for pair; do
                name=${pair%%=*} want=${pair#*=}
                got="$(device "$name" action)/$(device "$name" reason)"
                [ "$got" = "$want" ] && pass "$what: $name is $want" ||
                        fail "$what: $name is $want" "got $got"
        done
}

scheduler_of() { cat "$1/sys/class/block/$2/queue/scheduler"; }

if need_root "fake sysfs trees"; then
        conf=$(config "mode = auto")
        azure=$(make_tree azure) || fail "build the azure tree" "mktree failed"
        before=$(tree_sum "$azure")

        capture in_tree "$azure" "$NOCPUID" -c "$conf" --json
        expect "the azure tree reports as a Hyper-V guest" 0 '"verdict": "hyperv-guest"'
        [ "$(json "d['machine']['flavour']")" = "['azure', 'gen2']" ] &&
                pass "the azure tree's flavour is azure, gen2" ||
                fail "the azure tree's flavour is azure, gen2" "$(json "d['machine']['flavour']")"
        expect_devices "azure" sda=would-change/None sdb=already/None sdaa=would-change/None \
                sr0=would-change/None nvme0n1=already/None loop0=skipped/not-vmbus \
                dm-0=skipped/not-configurable md0=skipped/not-configurable \
                zram0=skipped/not-configurable
        [ "$(device sda target)" = none ] && [ "$(device sda current)" = mq-deadline ] &&
                pass "sda: mq-deadline, target none" || fail "sda: mq-deadline, target none" "$out"
        [ "$(device sda queues)" = 1 ] && [ "$(device sdb queues)" = 2 ] &&
                pass "the report counts hardware queues" || fail "the report counts hardware queues" "$out"
        [ "$(tree_sum "$azure")" = "$before" ] && pass "the report wrote nothing" ||
                fail "the report wrote nothing" "the tree changed"

        capture in_tree "$azure" "$NOCPUID" -c "$conf" --json sda1 nvme0n1p1
        expect_devices "named partitions" sda1=skipped/partition nvme0n1p1=skipped/partition

        capture in_tree "$azure" "$HELPER" -c "$conf" --json
        [ "$status" = 0 ] && [[ "$out" != *'"verdict": "hyperv-guest"'* ]] &&
                pass "this machine's CPUID outweighs the tree: not Hyper-V" ||
                fail "this machine's CPUID outweighs the tree: not Hyper-V" "$out"
        expect_devices "not Hyper-V" sda=skipped/not-hyperv nvme0n1=skipped/not-hyperv

        capture in_tree "$azure" "$HELPER" -c "$(config "mode = always")" --json
        expect_devices "mode always" sda=would-change/None loop0=already/None

        capture in_tree "$azure" "$NOCPUID" -c "$(config "exclude = sd[a-z]")" --json
        expect_devices "exclude glob" sda=skipped/excluded sdaa=would-change/None
        capture in_tree "$azure" "$NOCPUID" -c "$(config "devices = nvme*")" --json
        expect_devices "include list" sda=skipped/excluded nvme0n1=already/None
        capture in_tree "$azure" "$NOCPUID" -c "$(config "mode = off")" --json
        expect_devices "mode off" sda=skipped/disabled
        capture in_tree "$azure" "$NOCPUID" -c "$(config "scheduler = kyber")" --json
        expect_devices "preference kyber" sda=would-change/None
        [ "$(device sda target)" = kyber ] && pass "the configured preference is the target" ||
                fail "the configured preference is the target" "$(device sda target)"

        HYPERV_SCHEDULER=skip ACTION=add DEVTYPE=disk capture in_tree "$azure" "$NOCPUID" -c "$conf" --json sda
        expect_devices "under udev, HYPERV_SCHEDULER=skip" sda=skipped/opted-out

        # A write the fake file takes but that does not read back as selected: only the
        # read-back counts. The tree's other files stay as they were.
        sda_sched="$azure/sys/class/block/sda/queue/scheduler"
        cp "$sda_sched" "$work/sda_sched"
        capture in_tree "$azure" "$NOCPUID" -c "$conf" sda
        expect "a write that does not read back as selected fails with exit 1" 1 "" \
                "wrote 'none' to '/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/"
        [[ "$err" == *"/block/sda/queue/scheduler' but it reads back 'none\\n"* ]] &&
                pass "the read-back message names the path and what it read" ||
                fail "the read-back message names the path and what it read" "$err"
        cp "$work/sda_sched" "$sda_sched"
        [ "$(tree_sum "$azure")" = "$before" ] && pass "nothing but sda's scheduler was written" ||
                fail "nothing but sda's scheduler was written" "the tree changed"

        # Odd scheduler files: a clear outcome, never a crash, nothing written.
        while IFS='|' read -r what content want; do
                printf '%b' "$content" >"$sda_sched"
                capture in_tree "$azure" "$NOCPUID" -c "$conf" --dry-run --json sda
                if [ "$status" != 0 ]; then
                        fail "scheduler file with $what" "exit $status: $err"
                        continue
                fi
                expect_devices "scheduler file with $what" "sda=$want"
        done <<'TABLE'
garbage|%%$#@!\n|skipped/no-suitable-scheduler
no brackets|none mq-deadline\n|would-change/None
two brackets|[none] [mq-deadline]\n|skipped/no-suitable-scheduler
only bfq|[bfq] mq-deadline\n|skipped/no-suitable-scheduler
empty|\n|skipped/not-configurable
a NUL byte|none\0[mq-deadline]\n|skipped/not-configurable
TABLE
        head -c 4096 /dev/zero | tr '\0' 'x' >"$sda_sched"
        capture in_tree "$azure" "$NOCPUID" -c "$conf" --dry-run --json sda
        expect_devices "scheduler file of 4 KiB" sda=skipped/no-suitable-scheduler
        cp "$work/sda_sched" "$sda_sched"
        [ "$(tree_sum "$azure")" = "$before" ] && pass "the odd-input runs wrote nothing" ||
                fail "the odd-input runs wrote nothing" "the tree changed"

        # DMI with non-UTF-8 bytes and 64 KiB of text: escaped in text, valid JSON.
        dmi="$azure/sys/class/dmi/id"
        cp "$dmi/sys_vendor" "$work/sys_vendor"
        printf 'Micro\377soft \001Corp\n' >"$dmi/sys_vendor"
        head -c 65536 /dev/zero | tr '\0' 'A' >"$dmi/product_name"
        capture in_tree "$azure" "$NOCPUID" -c "$conf" --json
        expect "odd DMI strings still give a report" 0 '"verdict": "hyperv-guest"'
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/out" &&
                pass "odd DMI strings give valid JSON" || fail "odd DMI strings give valid JSON" "$out"
        cp "$work/sys_vendor" "$dmi/sys_vendor"
        printf 'Virtual Machine\n' >"$dmi/product_name"

        # The device goes away between the lookup and the write (a hot-removed disk): the
        # debugger removes it right when the helper is about to write.
        if [ "${MEMCHECK:-}" = 1 ]; then
                skip "a disk removed before the write" "the debugger cannot drive valgrind"
        elif command -v gdb >/dev/null; then
                for who in udev person; do
                        rm -rf "$work/vanish"
                        cp -a "$azure" "$work/vanish"
                        dir=$(readlink -f "$work/vanish/sys/class/block/sda")
                        # LeakSanitizer refuses to run under a debugger.
                        set -- env ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -ex "break disk_write_scheduler" -ex run \
                                -ex "shell rm -rf '$dir'" -ex continue \
                                --args "$NOCPUID" -c "$conf" sda
                        if [ $who = udev ]; then
                                ACTION=add DEVTYPE=disk capture in_tree "$work/vanish" "$@"
                                expect "under udev a disk removed before the write is no failure" 0 \
                                        "exited normally"
                        else
                                capture in_tree "$work/vanish" "$@"
                                expect "for a person a disk removed before the write fails" 0 \
                                        "exited with code 01"
                                [[ "$out$err" == *"/block/sda/queue/scheduler': No such file or directory"* ]] &&
                                        pass "the vanished write names path and errno" ||
                                        fail "the vanished write names path and errno" "$out$err"
                        fi
                done
        else
                skip "a disk removed before the write" "gdb is missing"
        fi

        # Odd config files: documented behaviour, exit 0, the message it names (none for a
        # file that is fine), and nothing written under /sys (sdb is already on none, so a run
        # with a good config writes nothing either).
        cfg="$work/odd.conf"
        while IFS='@' read -r what make want; do
                rm -f "$cfg"
                eval "$make"
                before=$(tree_sum "$azure")
                capture in_tree "$azure" "$NOCPUID" -c "$cfg" sdb
                # An empty expectation means no message at all.
                if [ -z "$want" ]; then
                        said=$([ -z "$err" ] && echo y)
                else
                        said=$([[ "$err" == *"$want"* ]] && echo y)
                fi
                if [ "$status" = 0 ] && [ "$said" = y ] && [ "$(tree_sum "$azure")" = "$before" ]; then
                        pass "config $what: exit 0, says so, writes nothing"
                else
                        fail "config $what: exit 0, says so, writes nothing" "exit $status: $err"
                fi
        done <<'TABLE'
missing@:@cannot open '
empty@: >"$cfg"@
of 1 MiB@head -c 1048576 /dev/zero | tr '\0' '#' >"$cfg"@more than 64 KiB), defaults apply
binary@printf 'mode = always\n\0\1\2' >"$cfg"@binary file (NUL bytes), defaults apply
unknown keys@printf 'colour = blue\nmode = auto\n' >"$cfg"@:1: unknown key 'colour'
bad values@printf 'mode = sometimes\nscheduler = [none]\n' >"$cfg"@:2: bad value '[none]' for 'scheduler'
duplicate keys@printf 'mode = off\nmode = auto\n' >"$cfg"@:2: 'mode' repeated: this line overrides line 1
CRLF endings@printf 'mode = auto\r\nexclude = sdz\r\n' >"$cfg"@
a line of 10,000 characters@{ head -c 10000 /dev/zero | tr '\0' x; printf '\nmode = auto\n'; } >"$cfg"@:1: line longer than 1024 bytes, ignored
TABLE
        # Unreadable: root's 0600 file, the helper run as nobody.
        printf 'mode = always\n' >"$cfg"
        chmod 0600 "$cfg"
        chmod 0755 "$work"
        capture in_tree "$azure" setpriv --reuid=nobody --regid=nogroup --clear-groups \
                "$NOCPUID" -c "$cfg" --dry-run --json sdb
        expect "an unreadable config is reported, defaults apply" 0 '"mode": "auto"' \
                "cannot read: Permission denied, defaults apply"

        legacy=$(make_tree legacy)
        capture in_tree "$legacy" "$NOCPUID" -c "$conf" --json
        expect_devices "pre-5.0 kernel" sda=would-change/None
        [ "$(device sda target)" = noop ] && [ "$(device sda current)" = cfq ] &&
                pass "pre-5.0 kernel: cfq goes to noop" || fail "pre-5.0 kernel: cfq goes to noop" "$out"
        [ "$(json "d['machine']['flavour']")" = "['gen1']" ] && pass "legacy tree is Generation 1" ||
                fail "legacy tree is Generation 1" "$(json "d['machine']['flavour']")"

        capture in_tree "$(make_tree zoned)" "$NOCPUID" -c "$conf" --json
        expect_devices "zoned disk" sda=skipped/zoned
        capture in_tree "$(make_tree barenone)" "$NOCPUID" -c "$conf" --json
        expect_devices "bare none" sda=skipped/not-configurable

        capture in_tree "$azure" "$NOCPUID" -c "$conf"
        expect "the text report heads with the verdict and flavour" 0 "Hyper-V guest (Azure, Gen 2):"
fi

finish
