# shellcheck shell=bash
# End to end under a running systemd-udevd: real add events for real loop devices. The test's
# own udevd runs in a private mount namespace (its own /run, /dev and rule directories), so the
# machine's rules, udev database and device nodes are untouched.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

UDEVD=${UDEVD:-/lib/systemd/systemd-udevd}
storm_size=200
# Under valgrind each helper run takes a second or more, and a storm runs 200 of them.
settle_timeout=$([ "${MEMCHECK:-}" = 1 ] && echo 900 || echo 120)
udevd='' udevd_status='' sink_pid='' sink=''

scheduler() { cat "/sys/block/$1/queue/scheduler"; }

# Stands in for a syslog daemon and for systemd's notification socket: prints each datagram as
# one line, "log TEXT" or "notify TEXT", after "ready" once both sockets are bound.
sink_py='
import select, socket, sys
socks = {}
for tag, path in (("log", sys.argv[1]), ("notify", sys.argv[2])):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    socks[s] = tag
print("ready", flush=True)
while True:
    for s in select.select(list(socks), [], [])[0]:
        print(socks[s], s.recv(65536).decode(errors="replace").strip().replace("\n", " "), flush=True)
'

# Through a FIFO, so that a read waits for the next line: udevd's READY=1, or a marker sent
# after the helper's lines. The sink gets SIGTERM if this shell dies.
start_sink() {
        mkfifo "$work/sink" || return 1
        setpriv --pdeathsig TERM python3 -c "$sink_py" "$work/log.sock" "$work/notify.sock" \
                >"$work/sink" 2>"$work/sink.err" &
        sink_pid=$!
        exec {sink}<"$work/sink"
        local line
        read -r -t 30 -u "$sink" line && [ "$line" = ready ]
}

# The namespace: a tmpfs /run holds udevd's control socket, queue and database and the test
# rule; empty tmpfs mounts hide the machine's rule directories, which would otherwise run for
# the loops too; /dev is a tmpfs with /dev/null (stdin of the programs udevd runs), the test's
# loop device nodes and /dev/log, the sink's socket. udevd says when it is ready on
# NOTIFY_SOCKET, and gets SIGTERM if this shell dies. It starts with --debug so that its log
# names the rule files it read.
start_udevd() {
        local l nodes=()
        for l in "${ours[@]}"; do
                nodes+=("$l" "$(cat "/sys/block/$l/dev")")
        done
        # shellcheck disable=SC2016 # expanded by the inner shell
        unshare -m -- sh -c '
                set -e
                rule=$1 log=$2 notify=$3 udevd=$4
                shift 4
                mount -t tmpfs tmpfs /run
                mkdir -p /run/udev/rules.d
                cp "$rule" /run/udev/rules.d/
                # /lib may be /usr/lib: hiding a directory twice does no harm.
                for d in /etc/udev/rules.d /usr/local/lib/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d; do
                        [ ! -d "$d" ] || mount -t tmpfs tmpfs "$d"
                done
                mount -t tmpfs -o mode=0755 tmpfs /dev
                mknod -m 0666 /dev/null c 1 3
                ln -s "$log" /dev/log
                while [ $# -gt 0 ]; do
                        mknod -m 0660 "/dev/$1" b "${2%:*}" "${2#*:}"
                        shift 2
                done
                exec env NOTIFY_SOCKET="$notify" setpriv --pdeathsig TERM \
                        "$udevd" --debug --resolve-names=never' \
                sh "$work/rules.d/60-hyperv-scheduler.rules" "$work/log.sock" "$work/notify.sock" \
                "$UDEVD" "${nodes[@]}" >"$work/udevd.log" 2>&1 &
        udevd=$!
        local tag line waited=0
        while [ $waited -lt 30 ]; do
                if read -r -t 1 -u "$sink" tag line; then
                        [ "$tag" = notify ] && [[ $line == *READY=1* ]] && return 0
                else
                        kill -0 "$udevd" 2>/dev/null || return 1
                        waited=$((waited + 1))
                fi
        done
        return 1
}

stop_udevd() {
        [ -n "$udevd" ] || return 0
        kill "$udevd" 2>/dev/null
        wait "$udevd"
        udevd_status=$?
        udevd=
}

stop_sink() {
        [ -n "$sink_pid" ] || return 0
        kill "$sink_pid" 2>/dev/null
        wait "$sink_pid"
        [ -z "$sink" ] || exec {sink}<&-
        sink_pid=
}

at_exit+=(stop_sink stop_udevd)

# --root: entering a mount namespace puts the caller at that namespace's own root, which in a
# chroot is not the chroot's; udevd's /run is under the chroot's.
udevadm_ns() { nsenter --mount --root --target "$udevd" udevadm "$@"; }

# events LOOP...: an add event for each loop at once, then waits for udevd to finish them all;
# the time that took goes into $ms.
events() {
        local l matches=() t0 t1
        for l; do
                matches+=("--sysname-match=$l")
        done
        t0=$(date +%s%N)
        udevadm_ns trigger --action=add --subsystem-match=block "${matches[@]}" &&
                udevadm_ns settle --timeout="$settle_timeout" || return 1
        t1=$(date +%s%N)
        ms=$(((t1 - t0) / 1000000))
}

# drain FILE: the syslog lines the sink got since the last drain go into FILE. A marker sent
# now comes back after them: datagrams on one socket keep their order.
marker=0
drain() {
        local tag line
        marker=$((marker + 1))
        : >"$1"
        logger --socket "$work/log.sock" -- "udevd.sh marker $marker" || return 1
        while read -r -t 30 -u "$sink" tag line; do
                [ "$tag" = log ] || continue
                [[ $line == *"udevd.sh marker $marker" ]] && return 0
                printf '%s\n' "$line" >>"$1"
        done
        return 1
}

# changed FILE: the disks the syslog lines in FILE report as changed, sorted. The priority is
# <30>, daemon.info.
changed() {
        sed -n 's/^<30>[A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]\{8\} hyperv-scheduler\[[0-9]*\]: \(loop[0-9]*\): mq-deadline -> none$/\1/p' "$1" |
                sort
}

# loops_on SCHEDULER LOOP...: the loops whose current scheduler is SCHEDULER.
loops_on() {
        local want=$1 l
        shift
        for l; do
                [[ $(scheduler "$l") == *"[$want]"* ]] && echo "$l"
        done
}

# The checks, each true or saying what it found.
only_one_on_none() { is "the loops on none" "$(loops_on none "${storm[@]}" | xargs)" "$1"; }
all_on_none() {
        local left
        left=$(loops_on mq-deadline "${storm[@]}" | wc -l)
        [ "$left" = 0 ] || { echo "$left still on mq-deadline"; return 1; }
}
# logged FILE LOOP...: FILE holds one changed line per LOOP and nothing else.
logged() {
        local file=$1
        shift
        is "the syslog lines" "$(wc -l <"$file") lines: $(changed "$file" | xargs)" "$# lines: $(printf '%s\n' "$@" | sort | xargs)"
}
ran_and_succeeded() {
        grep -qxF "$1: Process '$2' succeeded." "$work/udevd-auto.log" ||
                { grep -F "$1" "$work/udevd-auto.log" | tail -5; return 1; }
}
printed_nothing() { ! grep -F "'$1'(" "$work/udevd-auto.log"; }
# ran_for LOOP...: the count-helper wrapper ran once for each LOOP and for nothing else.
ran_for() {
        is "the disks the helper ran for" "$(sort "$runs" | xargs)" "$(printf '%s\n' "$@" | sort | xargs)"
}

if need_sysfs "systemd-udevd with the rule"; then
        if [ ! -x "$UDEVD" ]; then
                fail "systemd-udevd with the rule" "$UDEVD is missing (package udev)"
                finish
                exit
        fi
        if ! command -v python3 >/dev/null; then
                skip "systemd-udevd with the rule" "python3 is missing"
                finish
                exit
        fi
        # udevd reads its limits there, and says so on each program's stderr when it cannot.
        if [ ! -d /proc/sys ]; then
                skip "systemd-udevd with the rule" "no /proc/sys"
                finish
                exit
        fi

        ours=() l=
        for _ in $(seq "$storm_size"); do
                make_loop l || break
                ours+=("$l")
        done
        if [ ${#ours[@]} = 0 ]; then
                fail "make loop devices" "losetup failed"
                finish
                exit
        fi

        # The config's devices key must match these loops and no other disk: this udevd sees
        # every add event of the machine, and loops of other users would be changed too. One
        # exact pattern per group of ten (loop12[0134]), as many groups as the config takes.
        declare -A digits=()
        storm=()
        for l in "${ours[@]}"; do
                n=${l#loop}
                group=loop${n%?}
                [ -z "${digits[$group]+set}" ] && [ ${#digits[@]} = 32 ] && continue
                digits[$group]+=${n: -1}
                storm+=("$l")
        done
        devices=
        for group in "${!digits[@]}"; do
                devices+=" ${group}[${digits[$group]}]"
        done
        if [ ${#ours[@]} -lt "$storm_size" ]; then
                skip "an event storm of $storm_size loops" "losetup made ${#ours[@]} loop devices; the storm has ${#storm[@]}"
        elif [ ${#storm[@]} -lt "$storm_size" ]; then
                skip "an event storm of $storm_size loops" "32 device patterns cover ${#storm[@]} of the loops; the storm has ${#storm[@]}"
        fi

        for l in "${storm[@]}"; do
                echo mq-deadline >"/sys/block/$l/queue/scheduler"
        done

        conf=$work/udevd.conf
        printf '%s\n' "mode = always" "devices =$devices" >"$conf"
        check "the test config reads without a warning" -- exits 0 "$HELPER" -c "$conf" --dry-run "${storm[0]}"
        if [ -n "$err" ]; then
                fail "the test config reads without a warning" "$err"
                finish
                exit
        fi

        # The test rule: the shipped one with the helper at this build's path (as SBINDIR
        # would put it) behind a wrapper that counts its runs (one line with the disk's name
        # each, in $work/runs), the test's config, and loops let through.
        runs=$work/runs
        counter=$work/count-helper
        # shellcheck disable=SC2016 # expanded by that sh
        printf '#!/bin/sh\nfor disk; do :; done\necho "$disk" >>"%s"\nexec "%s" "$@"\n' "$runs" "$HELPER" >"$counter"
        chmod 0755 "$counter"
        : >"$runs"
        shipped_run=$(grep '^RUN+="' "$RULE")
        prog=${shipped_run#RUN+=\"}
        prog=${prog%% *}
        test_run="RUN+=\"$counter --config $conf ${shipped_run#RUN+=\""$prog" }"
        guard=$(grep '^KERNEL=="loop\*|' "$RULE")
        mkdir "$work/rules.d"
        sed -e 's/^KERNEL=="loop\*|/KERNEL=="/' -e "s|^RUN+=\"$prog |RUN+=\"$counter --config $conf |" \
                "$RULE" >"$work/rules.d/60-hyperv-scheduler.rules"
        check "the test rule differs from the shipped one in the loop guard and the helper only" -- \
                is "the difference" "$(diff --unchanged-line-format= --old-line-format='-%L' --new-line-format='+%L' \
                "$RULE" "$work/rules.d/60-hyperv-scheduler.rules")" "-$guard
+${guard/loop\*|/}
-$shipped_run
+$test_run"
        # What udevd logs it ran for a loop: the command less %k.
        cmd=${test_run#RUN+=\"}
        cmd=${cmd% %k\"}

        if ! start_sink; then
                fail "start a syslog socket" "$(cat "$work/sink.err")"
                finish
                exit
        fi
        if ! start_udevd; then
                fail "systemd-udevd starts in a private namespace" "not ready; its log: $(tail -5 "$work/udevd.log")"
                finish
                exit
        fi
        pass "systemd-udevd starts in a private namespace"
        check "udevd reads the test rule and none of the machine's" -- is "the rule files read" \
                "$(sed -n 's/^Reading rules file: //p' "$work/udevd.log")" /run/udev/rules.d/60-hyperv-scheduler.rules
        udevadm_ns control --log-level=info

        one=${storm[0]}
        check "mode always: an add event is handled" -- events "$one"
        check "  it puts its loop on none, and no other" -- only_one_on_none "$one"
        check "  syslog answers" -- drain "$work/syslog-always"
        check "  and holds one line for it, at daemon.info" -- logged "$work/syslog-always" "$one"

        # At debug level udevd's log shows that it ran the helper, and what the helper printed.
        echo mq-deadline >"/sys/block/$one/queue/scheduler"
        printf '%s\n' "mode = auto" "devices =$devices" >"$conf"
        udevadm_ns control --log-level=debug
        from=$(($(wc -l <"$work/udevd.log") + 1))
        check "mode auto: an add event is handled" -- events "$one"
        udevadm_ns control --log-level=info
        tail -n +"$from" "$work/udevd.log" >"$work/udevd-auto.log"
        check "  udevd ran the helper for the loop and it exited 0" -- ran_and_succeeded "$one" "$cmd $one"
        check "  the helper printed nothing" -- printed_nothing "$cmd $one"
        # A loop is no VMBus disk, on this machine whatever it is.
        check "  the loop, no VMBus disk, keeps mq-deadline" -- scheduler_is "/sys/block/$one/queue/scheduler" mq-deadline
        check "  syslog answers" -- drain "$work/syslog-auto"
        check "  and holds nothing" -- logged "$work/syslog-auto"

        printf '%s\n' "mode = always" "devices =$devices" >"$conf"
        : >"$runs"
        ms=
        check "a storm of ${#storm[@]} add events is handled" -- events "${storm[@]}"
        [ -z "$ms" ] || echo "udevd: ${#storm[@]} events settled in $ms ms"
        check "  every loop is on none" -- all_on_none
        check "  syslog answers" -- drain "$work/syslog-storm"
        check "  and holds one line per loop" -- logged "$work/syslog-storm" "${storm[@]}"
        check "  the helper ran once for each loop" -- ran_for "${storm[@]}"

        # Half the loops on none, half on mq-deadline: the rule starts the helper for the
        # second half only.
        on_none=() on_deadline=()
        for i in "${!storm[@]}"; do
                if [ $((i % 2)) = 0 ]; then
                        on_none+=("${storm[$i]}")
                else
                        echo mq-deadline >"/sys/block/${storm[$i]}/queue/scheduler"
                        on_deadline+=("${storm[$i]}")
                fi
        done
        : >"$runs"
        ms=
        check "a storm of ${#storm[@]} add events, ${#on_none[@]} loops on none, ${#on_deadline[@]} on mq-deadline, is handled" -- \
                events "${storm[@]}"
        [ -z "$ms" ] || echo "udevd: ${#storm[@]} events, half of them already on none, settled in $ms ms"
        check "  the helper ran once for each loop on mq-deadline and for no other" -- ran_for "${on_deadline[@]}"
        check "  every loop is on none" -- all_on_none
        check "  syslog answers" -- drain "$work/syslog-half"
        check "  and holds one line per loop that was on mq-deadline" -- logged "$work/syslog-half" "${on_deadline[@]}"

        stop_udevd
        check "udevd stops on SIGTERM" -- is "its exit status" "$udevd_status" 0
fi

finish
