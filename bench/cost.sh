#!/bin/bash
# cost: what one udev event costs with hyperv-scheduler, next to the shell one-liner it
# replaces (/bin/sh -c 'echo none > /sys/block/X/queue/scheduler') and systemd-detect-virt.
# Each command runs as udev runs a RUN program: the event's variables as its whole
# environment, stdin from /dev/null. Instructions (callgrind) count rather than time, so they
# hold on a busy machine; system calls come from strace -c -f; wall time is hyperfine's median
# of BENCH_RUNS runs. Then the same event on fake Hyper-V guests of 1 and 1,000 disks, with the
# build that reads CPUID from a file and logs each leaf asked, to count the CPUID instructions
# (each a VM exit on Hyper-V) and to show that the work for one disk does not grow with the
# number of disks. Needs root.
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

need_root
need valgrind:valgrind callgrind_annotate:valgrind strace:strace hyperfine:hyperfine jq:jq \
	systemd-detect-virt:systemd losetup:mount unshare:util-linux nm:binutils
FLOOR=$top/bench/udev-floor
need_built "$HELPER" "$TESTFACTS" "$FLOOR"
# imports PROGRAM: how many symbols PROGRAM imports from shared libraries.
imports() { nm -D --undefined-only "$1" | wc -l; }

describe_machine

loop=
make_loop loop
dev=$loop
[[ $(<"/sys/block/$dev/queue/scheduler") == *mq-deadline* ]] ||
	die "$dev offers no mq-deadline: $(<"/sys/block/$dev/queue/scheduler")"
queues=$(find "/sys/block/$dev/mq" -mindepth 1 -maxdepth 1 | wc -l)
event_env_for "$dev"
always=$work/always.conf auto=$work/auto.conf
printf 'mode = always\ndevices = %s\n' "$dev" >"$always"
printf 'mode = auto\n' >"$auto"
verdict=$(env -i "$HELPER" --config "$auto" --dry-run --json "$dev" </dev/null |
	jq -r .machine.verdict)
case $verdict in
hyperv-guest) auto_label="mode auto, Hyper-V guest ($dev: not on VMBus)" ;;
*) auto_label="mode auto, not Hyper-V ($verdict)" ;;
esac
sh_cmd=(/bin/sh -c "echo none > /sys/block/$dev/queue/scheduler")

heading "Question 1: what one udev event costs"
plural=s
[ "$queues" != 1 ] || plural=
devlog='absent (syslog calls fail fast)'
[ ! -S /dev/log ] || devlog=present
say "Device: $dev, a loop device over a sparse 8 MiB file in ${TMPDIR:-/tmp}, $queues hardware \
queue$plural, schedulers '$(<"/sys/block/$dev/queue/scheduler")'. Environment: the \
${#event_env[@]} variables udev gives a RUN program for its add event (${event_env[*]%%=*}). \
$BENCH_RUNS timed runs per command, after 3 warm-up runs. /dev/log: $devlog."

# measure LABEL BEFORE AFTER COMMAND...: one row. BEFORE is the scheduler set before every
# run (outside what is measured), AFTER the one the run must leave, "-" for either when the
# command does not touch the disk.
rows=()
declare -A ir wl
measure() {
	local label=$1 before=$2 after=$3 prep=() i s w
	shift 3
	if [ "$before" != - ]; then
		prep=(-p "$set_scheduler $dev $before")
		set_scheduler "$dev" "$before"
	fi
	i=$(instructions -k "$work/$label.cg" "$@")
	check_after "$label" "$after"
	[ "$before" = - ] || set_scheduler "$dev" "$before"
	s=$(syscalls "$@")
	check_after "$label" "$after"
	w=$(wall "${prep[@]}" "$@")
	check_after "$label" "$after"
	ir["$label"]=$i
	wl["$label"]=${w%%$'\t'*}
	rows+=("$label	$before	$i	$s	$w")
}

check_after() {
	[ "$2" = - ] || [ "$(current_scheduler "$dev")" = "$2" ] ||
		die "$1: left $dev on '$(current_scheduler "$dev")', expected '$2'"
}

echo "measuring: callgrind, strace and $BENCH_RUNS timed runs for each of 9 commands..." >&2
measure "sh one-liner" none none "${sh_cmd[@]}"
sh_forks=$(forks)
measure "sh one-liner, changes" mq-deadline none "${sh_cmd[@]}"
measure "floor: udev_new() and udev_unref() only" - - "$FLOOR"
measure "helper, already none" none none "$HELPER" --udev --config "$always" "$dev"
measure "helper, changes" mq-deadline none "$HELPER" --udev --config "$always" "$dev"
measure "helper --dry-run" mq-deadline mq-deadline "$HELPER" --config "$always" --dry-run "$dev"
measure "helper, $auto_label" mq-deadline mq-deadline "$HELPER" --udev --config "$auto" "$dev"
sdv_path=$(command -v systemd-detect-virt)
any_status=1
measure "systemd-detect-virt" - - "$sdv_path"
sdv_forks=$(forks)
measure "systemd-detect-virt --vm" - - "$sdv_path" --vm
any_status=0

read -r base_ir base_sc base_wall _ <<<"$(printf '%s\n' "${rows[0]}" | cut -f3-)"
{
	printf 'case\tdisk before\tinstructions\t× sh\tsyscalls\t× sh\twall ms, median (min–max)\t× sh\n'
	for r in "${rows[@]}"; do
		IFS=$'\t' read -r label before i s med lo hi <<<"$r"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$before" "$(commas "$i")" \
			"$(ratio "$i" "$base_ir")" "$s" "$(ratio "$s" "$base_sc")" \
			"$(ms "$med" "$lo" "$hi")" "$(ratio "$med" "$base_wall")"
	done
} | table "One event on $dev, as a ratio to the sh one-liner on a disk already on none"
say "The one-liner is dash alone: echo is a builtin (strace saw $sh_forks processes started; \
systemd-detect-virt started $sdv_forks). It writes whatever the disk has, and on this kernel \
such a write takes as long as a real switch even when it names the scheduler in use; the \
helper reads first and writes only to change. Under callgrind CPUID is valgrind's own, without the \
hypervisor bit: there the helper in mode auto decides bare metal (natively: $verdict) and \
stops at the same point, and systemd-detect-virt --vm, finding no hypervisor by CPUID, goes on \
to DMI. System calls and wall time are native. The floor is bench/udev-floor, built with the \
helper's flags and linked with libudev, that only makes a udev context and drops it: what an \
event cost before the helper loaded libudev only when it needs it. The helper imports \
$(imports "$HELPER") symbols, the floor $(imports "$FLOOR"), and the loader binds each at start \
(BIND_NOW)."
say ""

# The event paths are the three runs udev makes; --dry-run is for people.
target() {
	say "- target: $1: $([ "$2" = 1 ] && echo met || echo 'NOT met') ($3)"
}
sdv=${ir["systemd-detect-virt"]}
[ "${ir["systemd-detect-virt --vm"]}" -ge "$sdv" ] || sdv=${ir["systemd-detect-virt --vm"]}
event_paths=("helper, already none" "helper, changes" "helper, $auto_label")
# The write path (mode always, a disk that changes) at most the one-liner's instructions, the
# paths that write nothing at most 0.9 of them.
for p in "${event_paths[@]}"; do
	x=$(ratio "${ir["$p"]}" "$base_ir") limit=0.90 what="no-op path"
	[ "$p" != "helper, changes" ] || limit=1.00 what="write path"
	target "$what, $p: ≤ ${limit}× the one-liner's instructions" \
		"$(awk -v x="$x" -v l="$limit" 'BEGIN { print (x <= l) }')" \
		"${x}×: $(commas "${ir["$p"]}") / $(commas "$base_ir")"
done
for p in "${event_paths[@]}"; do
	x=$(awk -v a="$sdv" -v b="${ir["$p"]}" 'BEGIN { printf "%.1f", a / b }')
	target "$p: ≥ 20× fewer instructions than systemd-detect-virt (the cheaper of its two runs)" \
		"$(awk -v x="$x" 'BEGIN { print (x >= 20) }')" \
		"${x}× fewer: $(commas "$sdv") / $(commas "${ir["$p"]}")"
done

# The environment is part of the bill: dash copies every variable into its own table, the
# helper looks two up. A disk that earlier rules described carries many more than a loop device.
extra=(ID_SCSI=1 ID_VENDOR=Msft 'ID_VENDOR_ENC=Msft\x20\x20\x20\x20' ID_MODEL=Virtual_Disk
	'ID_MODEL_ENC=Virtual\x20Disk\x20\x20\x20\x20' ID_REVISION=1.0 ID_TYPE=disk
	ID_SERIAL=3600224800fcd8c5b5a1f6ee0bd0e6e63 ID_SERIAL_SHORT=600224800fcd8c5b5a1f6ee0bd0e6e63
	ID_WWN=0x600224800fcd8c5b ID_WWN_VENDOR_EXTENSION=0x5a1f6ee0bd0e6e63
	ID_WWN_WITH_EXTENSION=0x600224800fcd8c5b5a1f6ee0bd0e6e63 ID_BUS=scsi
	ID_PATH=acpi-VMBUS:00-vmbus-f8b3781a1e824818a1c363d806ec15bb-lun-0
	ID_PATH_TAG=acpi-VMBUS_00-vmbus-f8b3781a1e824818a1c363d806ec15bb-lun-0
	ID_PART_TABLE_UUID=4ec5a7a2-52e1-4a1c-9d0f-0b6c2f4e7d11 ID_PART_TABLE_TYPE=gpt
	"DEVLINKS=/dev/disk/by-id/scsi-3600224800fcd8c5b5a1f6ee0bd0e6e63\
 /dev/disk/by-id/wwn-0x600224800fcd8c5b5a1f6ee0bd0e6e63\
 /dev/disk/by-path/acpi-VMBUS:00-vmbus-f8b3781a1e824818a1c363d806ec15bb-lun-0"
	TAGS=:systemd: CURRENT_TAGS=:systemd:)
n_event=${#event_env[@]}
event_env+=("${extra[@]}")
set_scheduler "$dev" none
e_sh=$(instructions "${sh_cmd[@]}")
e_none=$(instructions "$HELPER" --udev --config "$always" "$dev")
set_scheduler "$dev" mq-deadline
e_changes=$(instructions "$HELPER" --udev --config "$always" "$dev")
check_after "helper, changes" none
a_none=${ir["helper, already none"]} a_changes=${ir["helper, changes"]}
{
	printf 'case\t%s variables\t× sh\t%s variables\t× sh\n' "$n_event" "${#event_env[@]}"
	printf 'sh one-liner\t%s\t1.00\t%s\t1.00\n' "$(commas "$base_ir")" "$(commas "$e_sh")"
	printf 'helper, already none\t%s\t%s\t%s\t%s\n' "$(commas "$a_none")" \
		"$(ratio "$a_none" "$base_ir")" "$(commas "$e_none")" "$(ratio "$e_none" "$e_sh")"
	printf 'helper, changes\t%s\t%s\t%s\t%s\n' "$(commas "$a_changes")" \
		"$(ratio "$a_changes" "$base_ir")" "$(commas "$e_changes")" "$(ratio "$e_changes" "$e_sh")"
} | table "Instructions against the size of the environment: +${#extra[@]} properties as \
60-persistent-storage.rules gives a SCSI disk (ID_*, DEVLINKS, TAGS)"

# Fake Hyper-V guests: the testfacts build takes CPUID from a file (a Hyper-V guest's leaves,
# tests/fixtures/cpuid/hyperv-guest), DMI and VMBus from the fake tree, and logs every leaf it asks for: each is one CPUID
# instruction of the real build. A boot event for a disk already on none needs no machine
# verdict; one for a disk that changes takes the whole path, CPUID with the scan of the higher
# bases, DMI, the walk, the write (which in a fake tree reads back as a failure). --dry-run sda
# also reports, queues included.
cpuid=$GUEST_CPUID cpuid_log=$work/cpuid.log
# cpuid_counts COMMAND...: "ALL SCAN": the CPUID leaves COMMAND asked for, and how many of them
# were bases of the scan for another hypervisor (0x40000000-0x4000ff00 in steps of 0x100, the
# bases Linux's hypervisor_cpuid_base() tries).
cpuid_counts() {
	local all=0 scan=0 leaf
	rm -f "$cpuid_log"
	"${wrap[@]}" env -i "${event_env[@]}" HYPERV_SCHEDULER_TEST_CPUID_LOG="$cpuid_log" "$@" \
		</dev/null >/dev/null 2>&1 || [ "$any_status" = 1 ] || die "'$*' failed"
	[ -f "$cpuid_log" ] || die "'$*' wrote no CPUID log"
	while read -r leaf; do
		all=$((all + 1))
		if ((leaf >= 0x40000000 && leaf <= 0x4000ff00 && leaf % 0x100 == 0)); then
			scan=$((scan + 1))
		fi
	done <"$cpuid_log"
	echo "$all $scan"
}
kernel_scan=256
echo "measuring: fake Hyper-V guests of 1 and 1,000 disks (building the trees)..." >&2
declare -A fir fsc fcpu fscan
for n in 1 1000; do
	tree=$(make_tree many "$n")
	devpath=$(cd -P "$tree/sys/class/block/sda" && pwd)
	event_env_for sda "${devpath#"$tree/sys"}" "$tree/sys/class/block/sda/uevent"
	event_env+=(SYSTEMD_DEVICE_VERIFY_SYSFS=0 "HYPERV_SCHEDULER_TEST_CPUID=$cpuid")
	wrap=(in_tree "$tree")
	for c in run change dry; do
		args=(--udev --config "$auto" sda)
		[ $c = dry ] && args=(--config "$auto" --dry-run sda)
		# A write to a fake tree reads back as a failure (exit 1), after the whole path ran.
		[ $c = change ] && any_status=1
		sched='[none] mq-deadline kyber bfq \n'
		[ $c = run ] || sched='none [mq-deadline] kyber bfq \n'
		printf '%b' "$sched" >"$tree/sys/block/sda/queue/scheduler"
		fir["$n,$c"]=$(instructions -k "$work/fake-$n-$c.cg" "$TESTFACTS" "${args[@]}")
		printf '%b' "$sched" >"$tree/sys/block/sda/queue/scheduler"
		fsc["$n,$c"]=$(syscalls "$TESTFACTS" "${args[@]}")
		printf '%b' "$sched" >"$tree/sys/block/sda/queue/scheduler"
		read -r "fcpu["$n,$c"]" "fscan["$n,$c"]" <<<"$(cpuid_counts "$TESTFACTS" "${args[@]}")"
		any_status=0
	done
	wrap=()
done
declare -A fake_label=([run]="boot event for sda, already none" [change]="boot event for sda, changes"
	[dry]="--dry-run sda (report)")
{
	printf 'run (mode auto, one named disk)\t1 disk: instructions\tsyscalls\tCPUID\tof them scan'
	printf '\t1,000 disks: instructions\tsyscalls\tCPUID\tdifference\n'
	for c in run change dry; do
		diff=$(awk -v a="${fir["1000,$c"]}" -v b="${fir["1,$c"]}" \
			'BEGIN { printf "%+.2f%%", 100 * (a - b) / b }')
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${fake_label["$c"]}" \
			"$(commas "${fir["1,$c"]}")" "${fsc["1,$c"]}" "${fcpu["1,$c"]}" "${fscan["1,$c"]}" \
			"$(commas "${fir["1000,$c"]}")" "${fsc["1000,$c"]}" "${fcpu["1000,$c"]}" "$diff"
	done
} | table "One event on a fake Hyper-V guest: 1 disk against 1,000 (tests/hyperv-scheduler-testfacts)"
say "CPUID: the leaves the helper asked for, each one CPUID instruction of the real build and a \
VM exit on Hyper-V; of them scan: the bases 0x40000000-0x4000ff00 tried for another hypervisor \
emulating Hyper-V, $kernel_scan in all, the ones Linux's hypervisor_cpuid_base() tries. The \
dynamic loader and libc execute CPUID of their own at start-up, in the one-liner's dash as in \
the helper; those are not counted. Instructions include what the test build spends reading \
its CPUID file ($(commas "$(inclusive "$work/fake-1-run.cg" load_machine)")) and answering \
from it ($(commas "$(inclusive "$work/fake-1-change.cg" cpuid_query)") for the changes row), \
where the real build executes CPUID."
say ""
for c in run change dry; do
	d=$(awk -v a="${fir["1000,$c"]}" -v b="${fir["1,$c"]}" \
		'BEGIN { d = 100 * (a - b) / b; print d < 0 ? -d : d }')
	target "per-event work independent of the number of disks, ${fake_label["$c"]}, within 2%" \
		"$(awk -v d="$d" 'BEGIN { print (d <= 2) }')" \
		"1 against 1,000 disks: $(commas "${fir["1,$c"]}") against $(commas "${fir["1000,$c"]}") \
instructions, ${fsc["1,$c"]} against ${fsc["1000,$c"]} syscalls"
done
target "${fake_label["run"]}: no CPUID scan" "$([ "${fscan["1,run"]}" = 0 ] && echo 1 || echo 0)" \
	"${fscan["1,run"]} scan bases, ${fcpu["1,run"]} CPUID in all"
target "${fake_label["change"]}: at most the kernel's own scan ($kernel_scan bases)" \
	"$([ "${fscan["1,change"]}" -le $kernel_scan ] && echo 1 || echo 0)" \
	"${fscan["1,change"]} scan bases; ${fcpu["1,change"]} CPUID in all, with leaves 1 and 0x40000003"
# The root partition, the Hyper-V host itself: a root's CPUID (CreatePartitions and
# CpuManagement set, tests/fixtures/cpuid/hyperv-root-real) and no /sys/bus/vmbus. Its disks
# are left alone, but the verdict takes the same CPUID as a guest's and leaf 0x40000004 (the
# nested hint) besides.
root_tree=$work/root-tree
cp -a "$(make_tree many 1)" "$root_tree"
rm -rf "$root_tree/sys/bus/vmbus"
devpath=$(cd -P "$root_tree/sys/class/block/sda" && pwd)
event_env_for sda "${devpath#"$root_tree/sys"}" "$root_tree/sys/class/block/sda/uevent"
event_env+=(SYSTEMD_DEVICE_VERIFY_SYSFS=0 "HYPERV_SCHEDULER_TEST_CPUID=$FIXTURES/cpuid/hyperv-root-real")
wrap=(in_tree "$root_tree")
{
	printf 'run (mode auto, sda)\tCPUID\tof them scan\n'
	for c in run change dry; do
		args=(--udev --config "$auto" sda)
		[ $c = dry ] && args=(--config "$auto" --dry-run sda)
		sched='[none] mq-deadline kyber bfq \n'
		[ $c = run ] || sched='none [mq-deadline] kyber bfq \n'
		printf '%b' "$sched" >"$root_tree/sys/block/sda/queue/scheduler"
		read -r all scan <<<"$(cpuid_counts "$TESTFACTS" "${args[@]}")"
		label=${fake_label["$c"]}
		[ $c = change ] && label="boot event for sda on mq-deadline (left alone)"
		printf '%s\t%s\t%s\n' "$label" "$all" "$scan"
	done
} | table "CPUID on a fake Hyper-V root partition, the host (tests/fixtures/cpuid/hyperv-root-real, no /sys/bus/vmbus)"
wrap=()

# The testfacts build reads and parses its CPUID file before main; the real build does not.
fake_file=$(inclusive "$work/fake-1-run.cg" load_machine)
fake_none=$((${fir["1,run"]} - fake_file))
x=$(ratio "$fake_none" "$base_ir")
target "fake guest, ${fake_label["run"]}: ≤ 1.50× the one-liner's instructions" \
	"$(awk -v x="$x" 'BEGIN { print (x <= 1.5) }')" \
	"${x}×: $(commas "$fake_none") / $(commas "$base_ir"), without the test build's CPUID file"

# Where the instructions go, from the profiles above: inclusive counts of the functions that
# make up run(), the loader's share being everything before main. Every event profiled is
# settled without libudev: udev_new's row shows that it is never opened.
parts=("(below main)" main config_load udev_new facts_gather_early
	facts_gather_late disk_read sysfs_real_path sysfs_on_vmbus disk_write_scheduler_at
	save_record log_msg log_change)
part_names=("total" "dynamic loader: mapping and relocating libc (before main)"
	"libc start and exit" "config file (config_load)"
	"libudev opened (dlopen) and its context (udev_new)"
	"machine facts: VMBus, CPUID, the FADT (facts_gather_early)"
	"machine facts: DMI (facts_gather_late)"
	"disk facts, read without libudev (disk_read)"
	"the disk's real path (sysfs_real_path)" "VMBus ancestor walk (sysfs_on_vmbus)"
	"write and read back (disk_write_scheduler_at)" "the record (save_record)"
	"messages (log_msg)" "the change's line to the system log (log_change)" "the rest of main")
# breakdown PROFILE: one count a line, in the order of part_names. The parts after main are
# disjoint: none of them calls another.
breakdown() {
	local v total rest i
	mapfile -t v < <(inclusive "$1" "${parts[@]}")
	total=$(sed -n 's/^summary: //p' "$1")
	rest=${v[1]}
	for ((i = 2; i < ${#v[@]}; i++)); do rest=$((rest - v[i])); done
	printf '%s\n' "$total" $((total - v[0])) $((v[0] - v[1])) "${v[@]:2}" "$rest"
}
mapfile -t a < <(breakdown "$work/helper, already none.cg")
mapfile -t b < <(breakdown "$work/helper, changes.cg")
mapfile -t c < <(breakdown "$work/fake-1-run.cg")
mapfile -t d < <(breakdown "$work/fake-1-change.cg")
{
	printf 'part (instructions, with what it calls)\talready none\tchanges'
	printf '\tfake guest, already none\tfake guest, changes\n'
	for i in "${!part_names[@]}"; do
		printf '%s\t%s\t%s\t%s\t%s\n' "${part_names[$i]}" "$(commas "${a[$i]}")" \
			"$(commas "${b[$i]}")" "$(commas "${c[$i]}")" "$(commas "${d[$i]}")"
	done
} | table "Where the helper's instructions go (callgrind, inclusive counts)"

# Not Hyper-V, counted: the same fake guest with KVM's CPUID (tests/fixtures/cpuid/kvm), sda
# on mq-deadline, mode auto: the path every other machine's disk that is not on none takes.
tree=$(make_tree many 1)
devpath=$(cd -P "$tree/sys/class/block/sda" && pwd)
event_env_for sda "${devpath#"$tree/sys"}" "$tree/sys/class/block/sda/uevent"
event_env+=(SYSTEMD_DEVICE_VERIFY_SYSFS=0 "HYPERV_SCHEDULER_TEST_CPUID=$FIXTURES/cpuid/kvm")
wrap=(in_tree "$tree")
printf 'none [mq-deadline] kyber bfq \n' >"$tree/sys/block/sda/queue/scheduler"
read -r kvm_cpuid _ <<<"$(cpuid_counts "$TESTFACTS" --udev --config "$auto" sda)"
wrap=()

# Per path: what udev's add event for one disk costs, with the rule as shipped. A disk already
# on none stops at the rule's ATTR match: no process. The others start the helper once.
fake_change_file=$(inclusive "$work/fake-1-change.cg" load_machine)
hv_ir=$((${fir["1,change"]} - fake_change_file))
sh_none_wall=${wl["sh one-liner"]} sh_change_wall=${wl["sh one-liner, changes"]}
nh_label="helper, $auto_label"
# ms1 MS: one wall time, as the tables above print it.
ms1() { awk -v m="$1" 'BEGIN { printf(m < 10 ? "%.2f" : "%.1f", m) }'; }
{
	printf 'path (one disk'"'"'s add event)\tprocesses\tinstructions\t× sh\twall ms, median\t× sh\tCPUID\n'
	printf 'already on none or noop: the rule'"'"'s match, no process\t0\t0\t0.00\t0\t0.00\t0\n'
	printf 'not Hyper-V (mode auto)\t1\t%s\t%s\t%s\t%s\t%s\n' "$(commas "${ir["$nh_label"]}")" \
		"$(ratio "${ir["$nh_label"]}" "$base_ir")" "$(ms1 "${wl["$nh_label"]}")" \
		"$(ratio "${wl["$nh_label"]}" "$sh_change_wall")" "$kvm_cpuid"
	printf 'Hyper-V, disk changes\t1\t%s\t%s\t%s\t%s\t%s\n' "$(commas "$hv_ir")" \
		"$(ratio "$hv_ir" "$base_ir")" "$(ms1 "${wl["helper, changes"]}")" \
		"$(ratio "${wl["helper, changes"]}" "$sh_change_wall")" "${fcpu["1,change"]}"
	printf 'for comparison: sh one-liner, disk on none\t1\t%s\t1.00\t%s\t1.00\t0\n' \
		"$(commas "$base_ir")" "$(ms1 "$sh_none_wall")"
	printf 'for comparison: sh one-liner, disk changes\t1\t%s\t1.00\t%s\t1.00\t0\n' \
		"$(commas "$base_ir")" "$(ms1 "$sh_change_wall")"
} | table "Per path: one disk's add event with the shipped rule"
say "× sh: against the one-liner on a disk in the same state (on none for the first row, on \
mq-deadline for the others; the one-liner writes either way). Not Hyper-V: instructions and \
wall time of the helper in mode auto on $dev (natively: $verdict), CPUID counted with the test build \
on a fake guest given KVM's CPUID (tests/fixtures/cpuid/kvm). Hyper-V, disk changes: \
instructions and CPUID of the test build on the fake Hyper-V guest of 1 disk, less its reading \
of the CPUID file ($(commas "$fake_change_file")); wall time of the helper switching $dev \
from mq-deadline (mode always), most of which is the kernel's switch, as for the one-liner."
say ""

# A whole boot of a typical Azure VM: OS disk, temporary disk, 4 data disks and the
# provisioning DVD, 7 disks on storvsc. storvsc asks for one hardware queue per vCPU
# (storvsc_probe, Linux 6.1: host->nr_hw_queues = num_present_cpus()), and the kernel gives a
# disk with more than one queue none, one with a single queue mq-deadline: on 2 vCPUs all 7
# are on none at coldplug, on 1 vCPU all 7 on mq-deadline. The helper's runs times the cost of
# one; the rule before the none check started it for all 7 either way.
azure_disks=7
none_ir=${ir["helper, already none"]} none_wall=${wl["helper, already none"]}
{
	printf 'boot\tdisks on none at coldplug\thelper runs\tinstructions\twall ms (sum of runs)\tCPUID\n'
	printf 'on 2 vCPUs\t%s of %s\t0\t0\t0\t0\n' "$azure_disks" "$azure_disks"
	printf 'on 1 vCPU\t0 of %s\t%s\t%s\t%s\t%s\n' "$azure_disks" "$azure_disks" \
		"$(commas $((azure_disks * hv_ir)))" \
		"$(awk -v n=$azure_disks -v w="${wl["helper, changes"]}" 'BEGIN { printf "%.1f", n * w }')" \
		$((azure_disks * ${fcpu["1,change"]}))
	printf 'on 2 vCPUs, the rule without the none check\t%s of %s\t%s\t%s\t%s\t0\n' \
		"$azure_disks" "$azure_disks" "$azure_disks" "$(commas $((azure_disks * none_ir)))" \
		"$(awk -v n=$azure_disks -v w="$none_wall" 'BEGIN { printf "%.2f", n * w }')"
	printf 'for comparison: the sh one-liner on every disk, 2 vCPUs\t%s of %s\t%s\t%s\t%s\t0\n' \
		"$azure_disks" "$azure_disks" "$azure_disks" "$(commas $((azure_disks * base_ir)))" \
		"$(awk -v n=$azure_disks -v w="$sh_none_wall" 'BEGIN { printf "%.1f", n * w }')"
} | table "A whole boot of a typical Azure VM ($azure_disks disks: OS, temporary, 4 data, DVD): helper runs × the cost of one"
say "Runs × the per-path figures above. The runs are what the rule gives on the fake tree \
and a private udevd (tests/integration/rule.sh, bench/storm.sh --azure-boot); the wall times are \
sums of process times, not the boot's critical path: udevd runs events in parallel. On 1 \
vCPU nearly all of it is the kernel's switch of each disk from mq-deadline, which a disk that \
needs none must pay whoever writes it; the helper's own part is the instructions."
