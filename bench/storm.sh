#!/bin/bash
# storm: what the rule adds to a boot's worth of block events. A private systemd-udevd
# (tests/lib.sh's udevd_start: its own mount namespace, /run and /dev, the system's rules
# directories hidden under empty ones, no /dev/log here) handles `udevadm trigger --action=add`
# for BENCH_STORM_DISKS loop devices, timed to the end of `udevadm settle`: with no rule at all, then with the shipped rule (its
# loop guard replaced by one that admits only these loop devices, the helper called as built
# with --config FILE, mode always), once on disks already on none and once on disks that each
# change from mq-deadline. BENCH_STORM_TRIALS rounds, configurations in turn; medians. After
# the timed rounds, one more storm for each rule configuration through a copy of the rule whose
# RUN goes through a wrapper that counts the helper's runs, outside the clock.
# --azure-boot: the same for the 7 disks of a typical Azure VM (OS, temporary, 4 data, DVD),
# all on none as on 2 vCPUs, or all on mq-deadline as on 1 (31 rounds unless told otherwise).
# Needs root.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need udevadm:udev losetup:mount unshare:util-linux nsenter:util-linux python3:python3
[ -x "$UDEVD" ] || die "$UDEVD missing; on Debian or Ubuntu: apt-get install -y udev"
need_built "$HELPER"
[ -f "$RULE" ] || die "no $RULE: run 'make' first"

azure=0
[ "${1:-}" != --azure-boot ] || azure=1
disks=${BENCH_STORM_DISKS:-$([ $azure = 1 ] && echo 7 || echo 100)}
trials=${BENCH_STORM_TRIALS:-$([ $azure = 1 ] && echo 31 || echo 11)}
describe_machine

echo "measuring: attaching $((disks + 1)) loop devices, then $trials rounds of 3 storms..." >&2
spare=
make_loop spare
names=()
for i in $(seq "$disks"); do
	make_loop n
	names+=("$n")
done
queues=$(find "/sys/block/${names[0]}/mq" -mindepth 1 -maxdepth 1 | wc -l)

# The rule as tests/lib.sh's udevd_rule writes it: the loop guard opened for this run's loops
# alone, RUN calling the built helper with --config (mode always); and the counting copy, RUN
# through a wrapper that appends a line per run to $udevd_runs.
conf=$work/storm.conf
printf 'mode = always\n' >"$conf"
udevd_rule --uncounted "$conf" "$spare" "${names[@]}"
mv "$work/rules.d/60-hyperv-scheduler.rules" "$work/plain.rules"
udevd_rule "$conf" "$spare" "${names[@]}"
mv "$work/rules.d/60-hyperv-scheduler.rules" "$work/count.rules"

udevd_syslog=no
udevd_start "$work/rules.d" "$spare" "${names[@]}" >"$work/why" || die "$(cat "$work/why")"

match=(--action=add --subsystem-match=block)
for n in "${names[@]}"; do match+=("--sysname-match=$n"); done
# Exactly these devices, before anything is triggered.
[ "$(udevadm_ns trigger --dry-run --verbose "${match[@]}" | sort)" = \
	"$(for n in "${names[@]}"; do cd -P "/sys/class/block/$n" && pwd; done | sort)" ] ||
	die "udevadm trigger would match other devices"

# set_all SCHEDULER: every disk on SCHEDULER. A write to queue/scheduler can take tens of
# milliseconds, even of the one in use: only what differs, all at once.
set_all() {
	local n writers=()
	for n in "${names[@]}"; do
		grep -q "\[$1\]" "/sys/block/$n/queue/scheduler" && continue
		echo "$1" >"/sys/block/$n/queue/scheduler" &
		writers+=($!)
	done
	[ ${#writers[@]} = 0 ] || wait "${writers[@]}"
}

for t in $(seq "$trials"); do
	# Each round starts with the next configuration, so that no one of them always goes first.
	for i in 0 1 2; do
		cfg=$(((i + t) % 3))
		set_all "$([ "$cfg" = 2 ] && echo mq-deadline || echo none)"
		# Every storm starts alike: rules just loaded (a reload also ends idle workers), then
		# one event for the spare loop device outside the clock reads them in.
		if [ "$cfg" = 0 ]; then udevd_rules; else udevd_rules "$work/plain.rules"; fi
		udevd_events "$spare"
		t0=$EPOCHREALTIME
		udevadm_ns trigger "${match[@]}"
		udevadm_ns settle --timeout=120
		t1=$EPOCHREALTIME
		for n in "${names[@]}"; do
			grep -q '\[none\]' "/sys/block/$n/queue/scheduler" ||
				die "configuration $cfg left $n on $(<"/sys/block/$n/queue/scheduler")"
		done
		echo "$cfg $t0 $t1" >>"$work/times"
	done
done
# The runs, counted: the same two storms through the counting rule.
udevd_rules "$work/count.rules"
for cfg in 1 2; do
	set_all "$([ "$cfg" = 2 ] && echo mq-deadline || echo none)"
	: >"$udevd_runs"
	udevd_events "${names[@]}"
	echo "$cfg $(grep -c . "$udevd_runs")" >>"$work/counted"
done
udevd_stop

# stats CONFIGURATION: "median min max" of its storms in ms.
stats() {
	awk -v c="$1" '$1 == c { print ($3 - $2) * 1000 }' "$work/times" | sort -n |
		awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			print m, v[1], v[NR] }'
}
read -r m0 _ <<<"$(stats 0)"
labels=("no rule (empty rules directories)" "the rule, disks already on none" "the rule, every disk changes")
[ $azure = 0 ] || labels=("no rule (empty rules directories)" "the rule, 2 vCPU: every disk on none"
	"the rule, 1 vCPU: every disk on mq-deadline")
befores=(none none mq-deadline)
counted=(0 "$(sed -n 's/^1 //p' "$work/counted")" "$(sed -n 's/^2 //p' "$work/counted")")
rows=("udevd rules	disks before	helper runs	$disks events: ms, median (min–max)	per event, ms	added per event, ms	added per storm, ms")
for c in 0 1 2; do
	read -r m lo hi <<<"$(stats "$c")"
	per=$(awk -v m="$m" -v n="$disks" 'BEGIN { printf "%.2f", m / n }')
	added=$(awk -v m="$m" -v b="$m0" -v n="$disks" 'BEGIN { printf "%+.2f", (m - b) / n }')
	storm=$(awk -v m="$m" -v b="$m0" 'BEGIN { printf "%+.1f", m - b }')
	[ "$c" != 0 ] || {
		added="(base)"
		storm="(base)"
	}
	rows+=("${labels[$c]}	${befores[$c]}	${counted[$c]}	$(ms "$m" "$lo" "$hi")	$per	$added	$storm")
done
if [ $azure = 1 ]; then
	heading "Question 4: what does the rule add to the coldplug of a typical Azure VM?"
else
	heading "Question 3: what does the rule add to a storm of add events?"
fi
printf '%s\n' "${rows[@]}" |
	table "udevadm trigger --action=add + udevadm settle, $disks loop devices ($queues hardware queue each), private udevd, $trials rounds"
say "Added per event = (median with the rule − median without) / $disks. The helper's syslog line goes nowhere here (the private /dev has no /dev/log). Every storm was checked: all $disks disks on none afterwards. Helper runs: counted in one more storm per configuration, outside the clock, with RUN through a wrapper that appends a line per run."
