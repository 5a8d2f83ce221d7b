# shellcheck shell=bash
# Every change line reaches a log (hyperv-scheduler(8), LOGGING): all 12 of a run over 12 disks
# through the kernel's own /dev/kmsg, which drops an open file's lines past 10 in 5 seconds;
# --undo's "(undone)" line in syslog; and a syslog queue that stays full holds the run no
# longer than one line's wait.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

if need_tree "logging" && need_mounts "logging: a private /dev" /dev; then
	many=$(make_tree many 64)
	azure=$(make_tree azure)
	cp "$azure/sys/class/block/sda/queue/scheduler" "$work/sda_sched"
	conf=$(config "mode = auto")
	printf '[none] mq-deadline kyber bfq\n' >"$work/on-none"
	printf 'none [mq-deadline] kyber bfq\n' >"$work/on-deadline"

	# The real /dev/kmsg, and no /dev/log: only root writes the kernel's log, and only the
	# kernel rate-limits it (a plain file in its place would keep every line whatever the
	# helper does; a fake tree's lines go to /dev/null, in_ns). So real disks: 12 loop
	# devices, more than the 10 lines one open file may write. This run's lines are told by
	# its pid.
	if [ "$(id -u)" != 0 ] || [ ! -c /dev/kmsg ] || ! dmesg >/dev/null 2>&1; then
		skip "12 change lines through the kernel's /dev/kmsg" "needs root and a readable kernel log"
	elif need_sysfs "12 change lines through the kernel's /dev/kmsg"; then
		names=() loopdev=""
		for i in $(seq 12); do
			make_loop loopdev || break
			echo mq-deadline >"/sys/block/$loopdev/queue/scheduler"
			names+=("$loopdev")
		done
		always=$(config "mode = always")
		: >"$work/kmsg"
		# The kernel's log is the machine's: other runs (another PID namespace may give the
		# same pid) wrote lines of the same form, so only this run's disks after this marker.
		marker="hyperv-scheduler tests: logging.sh $work"
		echo "$marker" >/dev/kmsg
		# shellcheck disable=SC2016 # expanded by the inner shell
		check "12 loop devices changed, no /dev/log: exit 0" -- exits 0 "${ns_enter[@]}" -- \
			sh -c 'kmsg=$1 pid=$2
				shift 2
				mount --bind /dev/kmsg "$kmsg" && mount -t tmpfs hyperv-scheduler-dev /dev &&
					: >/dev/kmsg && mount --bind "$kmsg" /dev/kmsg || exit 125
				echo $$ >"$pid"
				exec "$@" >/dev/null' sh "$work/kmsg" "$work/pid" "$HELPER" -c "$always" --quiet "${names[@]}"
		pid=$(cat "$work/pid")
		disks=$(IFS='|' && echo "${names[*]}")
		check "  every change line in the kernel's log" -- \
			is "its lines" "$(dmesg | sed -n "\|$marker|,\$p" |
				grep -cE "hyperv-scheduler\[$pid\]: ($disks): mq-deadline -> none")" 12
	fi

	# --undo's line goes to syslog as the change's did.
	# shellcheck disable=SC2016 # expanded by the inner shell
	check "a change, then --undo, with a syslog: exit 0" -- exits 0 on hyperv-guest "$azure" \
		"${log_ns[@]}" syslog sh -c 'conf=$1 helper=$2 on_none=$3 on_deadline=$4
			HYPERV_SCHEDULER_TEST_READBACK=$on_none "$helper" -c "$conf" --quiet sda &&
				cat "$on_none" >/sys/class/block/sda/queue/scheduler &&
				HYPERV_SCHEDULER_TEST_READBACK=$on_deadline "$helper" --quiet --undo' \
		sh "$conf" "$TESTFACTS" "$work/on-none" "$work/on-deadline"
	check "  both lines in syslog" -- is "syslog" "$(grep -o 'syslog <30> .*' <<<"$out" | sed 's/ [A-Z][a-z][a-z] .* hyperv-scheduler\[[0-9]*\]: / /')" "syslog <30> sda: mq-deadline -> none
syslog <30> sda: none -> mq-deadline (undone)"
	cp "$work/sda_sched" "$azure/sys/class/block/sda/queue/scheduler"

	# A full queue: the first line waits its quarter of a second, then the rest go to
	# /dev/kmsg at once. 64 lines that each waited would take 16 s: the bound is 8 s, no goal.
	if [ "${MEMCHECK:-}" = 1 ]; then
		skip "a full syslog queue holds the run one line's wait" "valgrind's runs are slower than the bound"
	else
		check "64 disks changed, a syslog queue that stays full: done within 8 s" -- exits 0 \
			on hyperv-guest "$many" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" \
			"${log_ns[@]}" syslog-full timeout 8 "$TESTFACTS" -c "$conf" --all --quiet
		check "  exit 0, not timed out" -- stdout_has "exit 0"
		check "  every line in a log" -- \
			is "lines" "$(grep -c -E '^(syslog|kmsg) <30> sd[a-z]*: mq-deadline -> none' <<<"$out")" 64
	fi
fi

finish
