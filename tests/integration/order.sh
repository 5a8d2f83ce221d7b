# shellcheck shell=bash
# Which rule wins, as a running systemd-udevd decides it: rule files around ours that set the
# scheduler or opt a disk out, real add events for real loop devices, the shipped rule's loop
# guard opened for them (tests/lib.sh, udevd_start and udevd_rule). udevadm test cannot show
# this: from udev 257 it writes no ATTR. UDEV_ROOT=DIR runs another release's udevd, chrooted
# (.ci/udevd-releases.sh); each case prints one "order: udev N: ..." line of what happened.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# The cases, one loop each: NAME|SCHEDULER BEFORE|RULE FILE|ITS LINE (KERNEL=="%k", prepended)|
# HELPER RUNS|SCHEDULER AFTER|UDEV VERSIONS (-257: up to 257, 262-: from 262; empty: all). A 59
# rule sorts before ours, a 99 rule after. What udevd 252 (Debian 12), 257 (Debian 13) and 262
# (unstable) did, and the rule file's header and hyperv-scheduler(8) say: a rule before 60 that
# sets a scheduler loses, unless it read the scheduler in the same event first and udev is older
# than 262: then our rule matches the value udev read, not the one written.
cases='on mq-deadline, no other rule|mq-deadline|||yes|none|
on none, no other rule|none|||no|none|
on none, a 59-* rule sets bfq|none|59-order.rules|ATTR{queue/scheduler}="bfq"|yes|none|
on none, a 59-* rule that reads the scheduler sets bfq|none|59-order.rules|ATTR{queue/scheduler}=="*[[]none]*", ATTR{queue/scheduler}="bfq"|no|bfq|-257
on none, a 59-* rule that reads the scheduler sets bfq|none|59-order.rules|ATTR{queue/scheduler}=="*[[]none]*", ATTR{queue/scheduler}="bfq"|yes|none|262-
on none, a 99-* rule sets bfq|none|99-order.rules|ATTR{queue/scheduler}="bfq"|no|bfq|
on mq-deadline, a 59-* rule sets bfq|mq-deadline|59-order.rules|ATTR{queue/scheduler}="bfq"|yes|none|
on mq-deadline, a 59-* rule opts out (HYPERV_SCHEDULER=skip)|mq-deadline|59-order.rules|ENV{HYPERV_SCHEDULER}="skip"|no|mq-deadline|'

# for_version N: the cases that hold for udev N; a case measured on no release near N says
# SKIP.
for_version() {
	local name before file line runs after versions lo hi
	while IFS='|' read -r name before file line runs after versions; do
		lo=${versions%-*} hi=${versions#*-}
		if [ -z "$versions" ] || { [ "${lo:-0}" -le "$1" ] && [ "$1" -le "${hi:-99999}" ]; }; then
			printf '%s|%s|%s|%s|%s|%s\n' "$name" "$before" "$file" "$line" "$runs" "$after"
		fi
	done <<<"$cases"
}

selected() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }

# outcome LOOP WANT-RUNS WANT-AFTER: the helper ran for LOOP (yes or no) and LOOP ended on
# WANT-AFTER; prints the "order:" line of what happened either way.
outcome() {
	local ran=no after
	! grep -qxF "$1" "$udevd_runs" || ran=yes
	after=$(selected "$1")
	echo "order: udev $version: $case_name: helper runs: $ran, ends on $after" >&3
	is "helper runs, ends on" "$ran, $after" "$2, $3"
}

if need_udevd "which rule wins under systemd-udevd"; then
	version=$(${UDEV_ROOT:+chroot "$UDEV_ROOT"} udevadm --version)
	cases_all=$cases
	cases=$(for_version "$version")
	while IFS='|' read -r name _; do
		grep -qF "$name|" <<<"$cases" ||
			skip "$name" "not measured on a udev near $version (only 252, 257 and 262)"
	done < <(cut -d'|' -f1 <<<"$cases_all" | sort -u)
	ours=()
	while IFS='|' read -r _ _; do
		make_loop l || break
		ours+=("$l")
	done <<<"$cases"
	if [ ${#ours[@]} != "$(grep -c . <<<"$cases")" ]; then
		fail "make loop devices" "losetup failed"
		finish
		exit
	fi
	for s in mq-deadline bfq; do
		if ! grep -qw "$s" "/sys/block/${ours[0]}/queue/scheduler"; then
			skip "which rule wins under systemd-udevd" "this kernel offers no $s for a loop device"
			finish
			exit
		fi
	done

	conf=$work/order.conf
	printf '%s\n' "mode = always" "devices = $(
		IFS=' '
		echo "${ours[*]}"
	)" >"$conf"
	udevd_rule "$conf" "${ours[@]}" || {
		fail "the test rule" "cannot write it"
		finish
		exit
	}
	i=0
	while IFS='|' read -r _ before file line _; do
		l=${ours[$i]}
		echo "$before" >"/sys/block/$l/queue/scheduler"
		[ -z "$file" ] ||
			printf 'SUBSYSTEM=="block", KERNEL=="%s", %s\n' "$l" "$line" >>"$work/rules.d/$file"
		i=$((i + 1))
	done <<<"$cases"

	udevd_up "systemd-udevd $version starts in a private namespace" \
		"/run/udev/rules.d/59-order.rules /run/udev/rules.d/60-hyperv-scheduler.rules /run/udev/rules.d/99-order.rules" \
		"${ours[@]}"
	udevadm_ns control --log-level=info
	check "an add event for each loop is handled" -- udevd_events "${ours[@]}"
	exec 3>&1
	i=0
	while IFS='|' read -r case_name _ _ _ runs after _; do
		check "$case_name: the helper runs: $runs, the disk ends on $after" -- outcome "${ours[$i]}" "$runs" "$after"
		i=$((i + 1))
	done <<<"$cases"
	udevd_stop
	check "udevd stops on SIGTERM" -- is "its exit status" "$udevd_status" 0
fi

finish
