# shellcheck shell=bash
# End to end under a running systemd-udevd: real add events for real loop devices. The test's
# own udevd runs in a private mount namespace (its own /run, /dev and rule directories), so the
# machine's rules, udev database and device nodes are untouched.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

storm_size=200
# Under valgrind each helper run takes a second or more, and a storm runs 200 of them.
udevd_settle=$([ "${MEMCHECK:-}" = 1 ] && echo 900 || echo 120)

scheduler() { cat "/sys/block/$1/queue/scheduler"; }

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
	[ "$left" = 0 ] || {
		echo "$left still on mq-deadline"
		return 1
	}
}
# logged FILE LOOP...: FILE holds one changed line per LOOP and nothing else.
logged() {
	local file=$1
	shift
	is "the syslog lines" "$(wc -l <"$file") lines: $(changed "$file" | xargs)" "$# lines: $(printf '%s\n' "$@" | sort | xargs)"
}
ran_and_succeeded() {
	grep -qxF "$1: Process '$2' succeeded." "$work/udevd-auto.log" ||
		{
			grep -F "$1" "$work/udevd-auto.log" | tail -5
			return 1
		}
}
printed_nothing() { ! grep -F "'$1'(" "$work/udevd-auto.log"; }
# ran_for LOOP...: the count-helper wrapper ran once for each LOOP and for nothing else.
ran_for() {
	is "the disks the helper ran for" "$(sort "$udevd_runs" | xargs)" "$(printf '%s\n' "$@" | sort | xargs)"
}

if need_udevd "systemd-udevd with the rule"; then
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
	# would put it) behind a wrapper that counts its runs, the test's config, and these
	# loops let through (tests/lib.sh, udevd_rule).
	udevd_rule "$conf" "${storm[@]}"
	guard=$(grep '^KERNEL=="loop\*|' "$RULE")
	alts=$(
		IFS='|'
		echo "${storm[*]}"
	)
	check "the test rule differs from the shipped one in the loop guard and the helper only" -- \
		is "the difference" "$(diff --unchanged-line-format= --old-line-format='-%L' --new-line-format='+%L' \
			"$RULE" "$work/rules.d/60-hyperv-scheduler.rules")" "-$guard
+KERNEL==\"loop*\", KERNEL!=\"$alts\", GOTO=\"hyperv_scheduler_end\"
+${guard/loop\*|/}
-$(grep '^RUN+="' "$RULE")
+$udevd_run"
	# What udevd logs it ran for a loop: the command less %k.
	cmd=${udevd_run#RUN+=\"}
	cmd=${cmd% %k\"}

	udevd_up "systemd-udevd starts in a private namespace" /run/udev/rules.d/60-hyperv-scheduler.rules \
		"${ours[@]}"
	udevadm_ns control --log-level=info

	one=${storm[0]}
	check "mode always: an add event is handled" -- udevd_events "$one"
	check "  it puts its loop on none, and no other" -- only_one_on_none "$one"
	check "  syslog answers" -- udevd_drain "$work/syslog-always"
	check "  and holds one line for it, at daemon.info" -- logged "$work/syslog-always" "$one"

	# At debug level udevd's log shows that it ran the helper, and what the helper printed.
	echo mq-deadline >"/sys/block/$one/queue/scheduler"
	printf '%s\n' "mode = auto" "devices =$devices" >"$conf"
	udevadm_ns control --log-level=debug
	from=$(($(wc -l <"$udevd_log") + 1))
	check "mode auto: an add event is handled" -- udevd_events "$one"
	udevadm_ns control --log-level=info
	tail -n +"$from" "$udevd_log" >"$work/udevd-auto.log"
	check "  udevd ran the helper for the loop and it exited 0" -- ran_and_succeeded "$one" "$cmd $one"
	check "  the helper printed nothing" -- printed_nothing "$cmd $one"
	# A loop is no VMBus disk, on this machine whatever it is.
	check "  the loop, no VMBus disk, keeps mq-deadline" -- scheduler_is "/sys/block/$one/queue/scheduler" mq-deadline
	check "  syslog answers" -- udevd_drain "$work/syslog-auto"
	check "  and holds nothing" -- logged "$work/syslog-auto"

	printf '%s\n' "mode = always" "devices =$devices" >"$conf"
	: >"$udevd_runs"
	ms=
	check "a storm of ${#storm[@]} add events is handled" -- udevd_events "${storm[@]}"
	[ -z "$ms" ] || echo "udevd: ${#storm[@]} events settled in $ms ms"
	check "  every loop is on none" -- all_on_none
	check "  syslog answers" -- udevd_drain "$work/syslog-storm"
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
	: >"$udevd_runs"
	ms=
	check "a storm of ${#storm[@]} add events, ${#on_none[@]} loops on none, ${#on_deadline[@]} on mq-deadline, is handled" -- \
		udevd_events "${storm[@]}"
	[ -z "$ms" ] || echo "udevd: ${#storm[@]} events, half of them already on none, settled in $ms ms"
	check "  the helper ran once for each loop on mq-deadline and for no other" -- ran_for "${on_deadline[@]}"
	check "  every loop is on none" -- all_on_none
	check "  syslog answers" -- udevd_drain "$work/syslog-half"
	check "  and holds one line per loop that was on mq-deadline" -- logged "$work/syslog-half" "${on_deadline[@]}"

	udevd_stop
	check "udevd stops on SIGTERM" -- is "its exit status" "$udevd_status" 0
fi

finish
