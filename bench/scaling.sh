#!/bin/bash
# scaling: `hyperv-scheduler --dry-run --all` (every disk, as a person or the package's
# postinst runs it) over fake Hyper-V guests of 1, 10, 100 and 1,000 storvsc disks, in mode
# auto with the testfacts build fed a Hyper-V guest's CPUID, so every disk takes the whole path (VMBus
# ancestor walk included). The work per disk must stay flat: no step may look at every disk
# for each disk. Needs root (private mount namespaces).
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need valgrind:valgrind strace:strace unshare:util-linux
need_built "$TESTFACTS"

describe_machine

sizes=(1 10 100 1000)
auto=$work/auto.conf
printf 'mode = auto\n' >"$auto"
event_env=(SYSTEMD_DEVICE_VERIFY_SYSFS=0 "HYPERV_SCHEDULER_TEST_CPUID=$GUEST_CPUID")
declare -A ir sc
echo "measuring: building fake guests of ${sizes[*]} disks, one callgrind and one strace run each..." >&2
for n in "${sizes[@]}"; do
	tree=$(make_tree many "$n")
	wrap=(in_tree "$tree")
	reported=$("${wrap[@]}" env -i "${event_env[@]}" "$TESTFACTS" --config "$auto" --dry-run --all |
		grep -c ' would-change ') || true
	[ "$reported" = "$n" ] || die "the $n-disk guest: $reported disks would change, expected $n"
	ir[$n]=$(instructions "$TESTFACTS" --config "$auto" --dry-run --all)
	sc[$n]=$(syscalls "$TESTFACTS" --config "$auto" --dry-run --all)
	rm -rf "$tree"
done
wrap=()

# per disk(N) = (total(N) − total(1)) / (N − 1): what each disk past the first adds. The 1-disk
# run is the fixed cost (loading, config, machine facts) plus one disk, so subtracting it leaves
# disks only. The base of the ratios is the 1,000-disk figure, the one least moved by the rest.
base=$(awk -v a="${ir[1000]}" -v b="${ir[1]}" 'BEGIN { print (a - b) / 999 }')
flat=1 worst=1.00
rows=("disks	instructions	per disk	× 1,000-disk figure	syscalls	per disk"
	"1	$(commas "${ir[1]}")	(fixed cost + 1 disk)		${sc[1]}	")
for n in "${sizes[@]:1}"; do
	per=$(awk -v a="${ir[$n]}" -v b="${ir[1]}" -v n="$n" 'BEGIN { printf "%.0f", (a - b) / (n - 1) }')
	spd=$(awk -v a="${sc[$n]}" -v b="${sc[1]}" -v n="$n" 'BEGIN { printf "%.1f", (a - b) / (n - 1) }')
	x=$(ratio "$per" "$base")
	if awk -v x="$x" 'BEGIN { exit !(x < 0.8 || x > 1.2) }'; then flat=0; fi
	worst=$(awk -v x="$x" -v w="$worst" 'BEGIN { d = x > 1 ? x - 1 : 1 - x; e = w > 1 ? w - 1 : 1 - w; print (d > e ? x : w) }')
	rows+=("$(commas "$n")	$(commas "${ir[$n]}")	$(commas "$per")	$x	$(commas "${sc[$n]}")	$spd")
done
heading "Question 2: does the work per disk stay flat from 1 to 1,000 disks?"
printf '%s\n' "${rows[@]}" |
	table "--dry-run --all over fake Hyper-V guests (mode auto, the testfacts build as a Hyper-V guest)"
say "Per disk = (total(N) − total(1)) / (N − 1): the 1-disk run holds the fixed cost (loading, config, machine facts) and one disk, so the difference counts disks only. The ratio is to the 1,000-disk per-disk figure."
say ""
say "- target: instructions per disk flat within 20% from 10 to 1,000 disks: $([ $flat = 1 ] && echo met || echo 'NOT met') (farthest from the 1,000-disk figure: ${worst}×)"
