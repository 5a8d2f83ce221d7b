# End to end under a running systemd-udevd: real add events for real loop devices. The test's
# own udevd runs in a private mount namespace (its own /run, /dev and rule directories), so the
# machine's rules, udev database and device nodes are untouched.
. "$(dirname "$0")/../lib.sh"

UDEVD=${UDEVD:-/lib/systemd/systemd-udevd}
storm_size=200
udevd= udevd_status= sink_pid= sink=

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

trap 'stop_udevd; stop_sink; cleanup' EXIT

udevadm_ns() { nsenter --mount --target "$udevd" udevadm "$@"; }

# events LOOP...: an add event for each loop at once, then waits for udevd to finish them all;
# the time that took goes into $ms.
events() {
        local l matches=() t0 t1
        for l; do
                matches+=("--sysname-match=$l")
        done
        t0=$(date +%s%N)
        udevadm_ns trigger --action=add --subsystem-match=block "${matches[@]}" &&
                udevadm_ns settle --timeout=120 || return 1
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

# on SCHEDULER LOOP...: the loops whose current scheduler is SCHEDULER.
on() {
        local want=$1 l
        shift
        for l; do
                [[ $(scheduler "$l") == *"[$want]"* ]] && echo "$l"
        done
}

if need_root "systemd-udevd with the rule"; then
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

        ours=()
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
                devices+=" $group[${digits[$group]}]"
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
        capture "$HELPER" -c "$conf" --dry-run "${storm[0]}"
        if [ -n "$err" ]; then
                fail "the test config reads without a warning" "$err"
                finish
                exit
        fi

        # The test rule: the shipped one with the helper at this build's path (as SBINDIR
        # would put it), loops let through, and the test's config.
        helper=$(sed -n 's/^RUN+="\([^ ]*\) %k"$/\1/p' "$RULE")
        mkdir "$work/rules.d"
        sed "s|^RUN+=\"$helper |RUN+=\"$HELPER |" "$RULE" >"$work/shipped.rules"
        sed -e 's/^KERNEL=="loop\*|/KERNEL=="/' -e "s|^RUN+=\"$HELPER %k\"$|RUN+=\"$HELPER --config $conf %k\"|" \
                "$work/shipped.rules" >"$work/rules.d/60-hyperv-scheduler.rules"
        guard=$(grep '^KERNEL=="loop\*|' "$RULE")
        want="-$guard
+${guard/loop\*|/}
-RUN+=\"$HELPER %k\"
+RUN+=\"$HELPER --config $conf %k\""
        got=$(diff --unchanged-line-format= --old-line-format='-%L' --new-line-format='+%L' \
                "$work/shipped.rules" "$work/rules.d/60-hyperv-scheduler.rules")
        [ "$got" = "$want" ] && pass "the test rule differs from the shipped one in the loop guard and --config only" ||
                fail "the test rule differs from the shipped one in the loop guard and --config only" "$got"

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
        read_rules=$(sed -n 's/^Reading rules file: //p' "$work/udevd.log")
        [ "$read_rules" = /run/udev/rules.d/60-hyperv-scheduler.rules ] &&
                pass "udevd reads the test rule and none of the machine's" ||
                fail "udevd reads the test rule and none of the machine's" "$read_rules"
        udevadm_ns control --log-level=info

        one=${storm[0]}
        if events "$one"; then
                [ "$(on none "${storm[@]}")" = "$one" ] &&
                        pass "mode always: an add event puts its loop on none, and no other" ||
                        fail "mode always: an add event puts its loop on none, and no other" \
                                "loops on none: [$(on none "${storm[@]}" | xargs)]"
        else
                fail "mode always: an add event puts its loop on none, and no other" "trigger or settle failed"
        fi
        if ! drain "$work/syslog-always"; then
                fail "syslog holds one line for it, at daemon.info" "the syslog socket did not answer"
        elif [ "$(wc -l <"$work/syslog-always")" = 1 ] && [ "$(changed "$work/syslog-always")" = "$one" ]; then
                pass "syslog holds one line for it, at daemon.info"
        else
                fail "syslog holds one line for it, at daemon.info" \
                        "$(wc -l <"$work/syslog-always") lines: $(cat "$work/syslog-always")"
        fi

        # At debug level udevd's log shows that it ran the helper, and what the helper printed.
        echo mq-deadline >"/sys/block/$one/queue/scheduler"
        printf '%s\n' "mode = auto" "devices =$devices" >"$conf"
        udevadm_ns control --log-level=debug
        from=$(($(wc -l <"$work/udevd.log") + 1))
        events "$one" || fail "mode auto: events" "trigger or settle failed"
        udevadm_ns control --log-level=info
        tail -n +"$from" "$work/udevd.log" >"$work/udevd-auto.log"
        cmd="$HELPER --config $conf $one"
        grep -qxF "$one: Process '$cmd' succeeded." "$work/udevd-auto.log" &&
                pass "mode auto: udevd ran the helper for the loop and it exited 0" ||
                fail "mode auto: udevd ran the helper for the loop and it exited 0" \
                        "$(grep -F "$one" "$work/udevd-auto.log" | tail -5)"
        ! grep -qF "'$cmd'(" "$work/udevd-auto.log" &&
                pass "mode auto: the helper prints nothing under udev" ||
                fail "mode auto: the helper prints nothing under udev" "$(grep -F "'$cmd'(" "$work/udevd-auto.log")"
        [[ $(scheduler "$one") == *"[mq-deadline]"* ]] &&
                pass "mode auto on a machine that is not Hyper-V: the loop keeps mq-deadline" ||
                fail "mode auto on a machine that is not Hyper-V: the loop keeps mq-deadline" "$(scheduler "$one")"
        if ! drain "$work/syslog-auto"; then
                fail "mode auto: nothing is logged" "the syslog socket did not answer"
        elif [ -s "$work/syslog-auto" ]; then
                fail "mode auto: nothing is logged" "$(cat "$work/syslog-auto")"
        else
                pass "mode auto: nothing is logged"
        fi

        printf '%s\n' "mode = always" "devices =$devices" >"$conf"
        if events "${storm[@]}"; then
                echo "udevd: ${#storm[@]} events settled in $ms ms"
                [ "$(on none "${storm[@]}" | wc -l)" = ${#storm[@]} ] &&
                        pass "a storm of ${#storm[@]} add events puts every loop on none" ||
                        fail "a storm of ${#storm[@]} add events puts every loop on none" \
                                "$(on mq-deadline "${storm[@]}" | wc -l) still on mq-deadline"
        else
                fail "a storm of ${#storm[@]} add events puts every loop on none" "trigger or settle failed"
        fi
        if ! drain "$work/syslog-storm"; then
                fail "syslog holds one line per loop of the storm" "the syslog socket did not answer"
        elif [ "$(wc -l <"$work/syslog-storm")" = ${#storm[@]} ] &&
                [ "$(changed "$work/syslog-storm")" = "$(printf '%s\n' "${storm[@]}" | sort)" ]; then
                pass "syslog holds one line per loop of the storm"
        else
                fail "syslog holds one line per loop of the storm" "$(wc -l <"$work/syslog-storm") lines"
        fi

        stop_udevd
        [ "$udevd_status" = 0 ] && pass "udevd stops on SIGTERM" ||
                fail "udevd stops on SIGTERM" "exit status $udevd_status: $(tail -3 "$work/udevd.log")"
fi

finish
