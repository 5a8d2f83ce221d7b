#!/bin/bash
# fio-scheduler: measure, on this machine, whether the block I/O scheduler of one
# disk changes 4k random I/O. Schedulers are switched round-robin so that slow
# drift of the host (caches, neighbours) spreads over all of them, and the
# disk's scheduler and its tunables are put back on every way out.
set -Eeuo pipefail

prog=${0##*/}
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=fio-scheduler
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"

rounds=5
runtime=5
ramp=1
size=256M
schedulers=
json_out=
report=
loop_dir=/var/tmp
overwrite=0

usage() {
	cat <<EOF
Usage: $prog [OPTIONS] TARGET
       $prog --report FILE

Compare block I/O schedulers (none, mq-deadline, kyber, bfq...) on one disk with
fio: 4k random write and 4k random read, direct=1, ioengine=libaio, iodepth=16,
numjobs=1, time based. Schedulers take turns round-robin, the first one and the
order of the two workloads changing every round; Markdown tables of medians,
ranges, ratios and round-by-round sign tests follow.

TARGET is one of:
  PATH        a directory, or a file whose directory is used, on a filesystem
              that sits directly on a disk or a partition. A test file of
              --size is written there and removed afterwards; PATH itself is
              never written. The scheduler of the whole disk under it is
              switched. Device-mapper, LVM, RAID, network and overlay
              filesystems are refused: their own queue has no scheduler that
              decides anything.
  loop        a temporary file in --loop-dir attached to a new loop device with
              direct I/O on; the loop device's scheduler is switched. The file
              must live on a disk-backed filesystem: tmpfs has no disk behind
              it and may refuse O_DIRECT, so a loop device on it would measure
              memory, or fall back to the page cache. The loop device is
              detached and the file removed afterwards. This measures what a
              scheduler costs on a loop device, not what a real disk does.
  /dev/DISK   a whole, unused raw disk, only with --overwrite-device. Refused if
              it is the root disk, a partition, mounted, used as swap, held by
              device-mapper or RAID, or carries any filesystem, RAID or
              partition-table signature (blkid -p, wipefs -n, lsblk). Its first
              --size bytes are overwritten.

Options:
  --rounds N            rounds per scheduler and workload (default $rounds)
  --runtime SEC         measured seconds per run (default $runtime)
  --ramp SEC            unmeasured warm-up seconds per run (default $ramp)
  --size SIZE           test file or region size, e.g. 256M, 1G (default $size)
  --schedulers "A B"    schedulers to compare (default: every one the disk
                        offers); the baseline of the ratios is mq-deadline if
                        listed, else the first one
  --json FILE           also write every run's numbers and fio's job output
  --report FILE         print the tables again from a --json FILE, measuring
                        nothing
  --loop-dir DIR        where the loop device's backing file goes
                        (default $loop_dir)
  --overwrite-device    allow writing to a raw /dev/DISK target
  -h, --help            show this help

The disk's scheduler, nr_requests and the original scheduler's tunables are
restored at exit, also on Ctrl-C, SIGTERM, SIGHUP, a closed pipe and errors.
Run as root, with fio and python3 installed (apt install fio python3). A run
takes about rounds x schedulers x 2 x (runtime + ramp + 0.5 s): 4 min 20 s
with the defaults and four schedulers, 2 min 10 s with two.
EOF
}

note() {
	printf '%s\n' "$*" >&2
}

# --- state the exit trap undoes -------------------------------------------

sched_disk=
orig_sched=
orig_nr=
declare -A orig_tun=()
loop_file=
loop_dev=
test_file=

queue_dir() {
	printf '/sys/block/%s/queue' "$1"
}

current_scheduler() {
	local s
	s=$(<"$(queue_dir "$1")/scheduler")
	if [[ $s == *\[*\]* ]]; then
		s=${s#*[}
		printf '%s\n' "${s%%]*}"
	else
		printf '%s\n' "$s"
	fi
}

offered_schedulers() {
	local s
	s=$(<"$(queue_dir "$1")/scheduler")
	s=${s//[/}
	printf '%s\n' "${s//]/}"
}

# Writes a scheduler and proves it took: a silent no-op would make every
# column of the table measure the same thing.
set_scheduler() {
	local disk=$1 want=$2 path got
	path=$(queue_dir "$disk")/scheduler
	if ! { printf '%s' "$want" >"$path"; } 2>/dev/null; then
		die "cannot write '$want' to '$path': $(offered_schedulers "$disk") are offered"
	fi
	got=$(current_scheduler "$disk")
	[[ $got == "$want" ]] || die "cannot switch '$path' to '$want': it reads back '$got'"
}

save_queue_state() {
	local disk=$1 q f
	q=$(queue_dir "$disk")
	orig_sched=$(current_scheduler "$disk")
	orig_nr=$(<"$q/nr_requests")
	orig_tun=()
	if [[ -d $q/iosched ]]; then
		while IFS= read -r f; do
			orig_tun[${f##*/}]=$(<"$f")
		done < <(find "$q/iosched" -maxdepth 1 -type f -perm -u+w | sort)
	fi
	sched_disk=$disk
}

# Switching schedulers resets nr_requests and the scheduler's tunables to their
# defaults, so putting the name back is not enough to undo a tuned queue.
restore_queue_state() {
	local q name ok=1
	q=$(queue_dir "$sched_disk")
	[[ -e $q/scheduler ]] || return 0
	if [[ $(current_scheduler "$sched_disk") != "$orig_sched" ]]; then
		{ printf '%s' "$orig_sched" >"$q/scheduler"; } 2>/dev/null || ok=0
	fi
	if [[ $(<"$q/nr_requests") != "$orig_nr" ]]; then
		{ printf '%s' "$orig_nr" >"$q/nr_requests"; } 2>/dev/null || ok=0
	fi
	for name in "${!orig_tun[@]}"; do
		if [[ $(<"$q/iosched/$name") != "${orig_tun[$name]}" ]]; then
			{ printf '%s' "${orig_tun[$name]}" >"$q/iosched/$name"; } 2>/dev/null || ok=0
		fi
	done
	if ((ok)) && [[ $(current_scheduler "$sched_disk") == "$orig_sched" ]]; then
		note "restored $sched_disk: scheduler $orig_sched, nr_requests $orig_nr${orig_tun[*]:+, ${#orig_tun[@]} $orig_sched tunables}"
	else
		note "$prog: cannot restore '$q': put it back with: echo $orig_sched > $q/scheduler; echo $orig_nr > $q/nr_requests"
	fi
}

cleanup() {
	local dev
	trap '' INT TERM HUP PIPE
	trap - ERR
	set +e
	[[ -n $sched_disk ]] && restore_queue_state
	# Ask the kernel rather than trust $loop_dev: an interrupt can land between
	# the attach and the assignment.
	if [[ -n $loop_file ]]; then
		while IFS= read -r dev; do
			[[ -n $dev ]] || continue
			if losetup -d "$dev"; then
				note "detached $dev"
			else
				note "$prog: cannot detach '$dev'"
			fi
		done < <(losetup -n -O NAME -j "$loop_file" 2>/dev/null)
		rm -f -- "$loop_file"
	fi
	[[ -n $test_file ]] && rm -f -- "$test_file"
}

at_exit+=(cleanup)
trap 'note "$prog: interrupted"; exit 130' INT
trap 'note "$prog: terminated"; exit 143' TERM
trap 'note "$prog: hangup"; exit 129' HUP
# A closed pipe (| head) would otherwise kill the shell before it cleans up.
trap 'exit 141' PIPE
trap 'note "$prog: line $LINENO: \"$BASH_COMMAND\" failed"' ERR

# --- arguments ------------------------------------------------------------

need_value() {
	[[ $# -ge 2 && -n $2 ]] || die "option '$1' needs a value"
}

is_count() {
	[[ $1 =~ ^[1-9][0-9]*$ ]]
}

target=
while (($#)); do
	case $1 in
	--rounds)
		need_value "$@"
		rounds=$2
		shift 2
		;;
	--runtime)
		need_value "$@"
		runtime=$2
		shift 2
		;;
	--ramp)
		need_value "$@"
		ramp=$2
		shift 2
		;;
	--size)
		need_value "$@"
		size=$2
		shift 2
		;;
	--schedulers)
		need_value "$@"
		schedulers=$2
		shift 2
		;;
	--json)
		need_value "$@"
		json_out=$2
		shift 2
		;;
	--report)
		need_value "$@"
		report=$2
		shift 2
		;;
	--loop-dir)
		need_value "$@"
		loop_dir=$2
		shift 2
		;;
	--overwrite-device)
		overwrite=1
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	--)
		shift
		break
		;;
	-*) die "unknown option '$1' (see --help)" ;;
	*)
		[[ -z $target ]] || die "more than one TARGET: '$target' and '$1'"
		target=$1
		shift
		;;
	esac
done
if (($#)); then
	[[ -z $target && $# -eq 1 ]] || die "more than one TARGET"
	target=$1
fi
[[ -n $target || -n $report ]] || {
	usage >&2
	exit 2
}

is_count "$rounds" || die "--rounds must be a positive integer, not '$rounds'"
is_count "$runtime" || die "--runtime must be a positive integer of seconds, not '$runtime'"
[[ $ramp =~ ^[0-9]+$ ]] || die "--ramp must be an integer of seconds, not '$ramp'"
((rounds >= 5)) || note "$prog: with $rounds rounds a median says little; 5 or more are advised"

size_bytes=$(numfmt --from=iec "${size%iB}" 2>/dev/null) ||
	die "cannot read --size '$size': use a number with K, M, G or T"
((size_bytes >= 16 * 1024 * 1024)) || die "--size '$size' is below 16M: the disk's cache would answer"
((size_bytes % 4096 == 0)) || die "--size '$size' is not a multiple of 4K"

# --- the numbers ----------------------------------------------------------

# One program for the three jobs python does: a run's numbers for the progress
# line, gathering all runs into one JSON document, and the tables from it.
read -r -d '' py <<'PY' || true
import json, math, statistics, sys

def numbers(job, rw):
    d = job["read" if rw == "randread" else "write"]
    ios = d["total_ios"]
    # fio reports usr_cpu and sys_cpu as percent of one CPU over job_runtime
    # (ms), the measured time after the ramp.
    cpu_us = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"] * 1000.0
    return {"iops": d["iops"], "p99_us": d["clat_ns"]["percentile"]["99.000000"] / 1000.0,
            "mean_clat_us": d["clat_ns"]["mean"] / 1000.0,
            "cpu_us_per_io": cpu_us / ios if ios else None,
            "usr_cpu_pct": job["usr_cpu"], "sys_cpu_pct": job["sys_cpu"],
            "job_runtime_ms": job["job_runtime"], "total_ios": ios}

def one(path, rw):
    n = numbers(json.load(open(path))["jobs"][0], rw)
    print("%.1f %.1f %.2f" % (n["iops"], n["p99_us"], n["cpu_us_per_io"] or 0.0))

def collect(index, machine_file, settings, out):
    machine = dict(l.rstrip("\n").split("\t", 1) for l in open(machine_file) if "\t" in l)
    runs = []
    for line in open(index):
        rnd, order, sched, rw, load, path = line.rstrip("\n").split("\t")
        job = json.load(open(path))["jobs"][0]
        runs.append({"round": int(rnd), "order": int(order), "scheduler": sched, "workload": rw,
                     "loadavg_1min_before": float(load), **numbers(job, rw), "fio_job": job})
    with open(out, "w") as f:
        json.dump({"machine": machine, "settings": json.loads(settings), "runs": runs}, f, indent=1)

def sign_test(wins, n):
    # Two-sided: how often a fair coin splits n rounds at least this unevenly.
    k = max(wins, n - wins)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n)

def pfmt(p):
    return f"{p:.3f}" if p < 0.01 else f"{p:.2f}"

def apart(vals, base):
    # If the scheduler made no difference, every run landing on one side of
    # every baseline run would happen in 2 of C(n+m, n) orderings.
    p = 2 / math.comb(len(vals) + len(base), len(vals))
    if min(vals) > max(base):
        return f"all higher (p = {pfmt(p)})"
    if max(vals) < min(base):
        return f"all lower (p = {pfmt(p)})"
    return "overlap"

def report(path, json_out):
    doc = json.load(open(path))
    runs, settings = doc["runs"], doc["settings"]
    scheds, baseline = settings["schedulers"].split(), settings["baseline"]

    def pick(rw, s, key):
        return [r[key] for r in sorted(runs, key=lambda r: r["round"])
                if r["workload"] == rw and r["scheduler"] == s]

    def fmt(v):
        return f"{v:,.0f}"

    def spread(vals):
        return f"{fmt(statistics.median(vals))} ({fmt(min(vals))}–{fmt(max(vals))})"

    def paired(vals, base, better):
        # Runs of one round sit minutes apart at most, so comparing within a
        # round cancels the slow drift that the whole ranges include. fio's
        # percentiles come from buckets, so equal p99s happen; a tie is no
        # evidence either way and leaves the test.
        pairs = [(v, b) for v, b in zip(vals, base) if v != b]
        wins = sum(1 for v, b in pairs if better(v, b))
        return wins, len(pairs), len(vals) - len(pairs), sign_test(wins, len(pairs))

    summary = {}
    titles = {"randwrite": "4k random write", "randread": "4k random read"}
    for rw in ("randwrite", "randread"):
        b_iops, b_p99, b_cpu = (pick(rw, baseline, k) for k in ("iops", "p99_us", "cpu_us_per_io"))
        print(f"### {titles[rw]} ({rw}), iodepth 16, {settings['rounds']} rounds x {settings['runtime_s']} s\n")
        print(f"| scheduler | IOPS median (min–max) | IOPS vs {baseline} | p99 µs median (min–max) "
              f"| p99 vs {baseline} | CPU µs/IO median |")
        print("|---|---:|---:|---:|---:|---:|")
        notes = []
        for s in scheds:
            iops, p99, cpu = (pick(rw, s, k) for k in ("iops", "p99_us", "cpu_us_per_io"))
            row = {"iops_median": statistics.median(iops), "iops_min": min(iops), "iops_max": max(iops),
                   "p99_us_median": statistics.median(p99), "p99_us_min": min(p99), "p99_us_max": max(p99),
                   "cpu_us_per_io_median": statistics.median(cpu),
                   "iops_ratio": statistics.median(iops) / statistics.median(b_iops),
                   "p99_ratio": statistics.median(p99) / statistics.median(b_p99)}
            print(f"| {s} | {spread(iops)} | {row['iops_ratio']:.2f} | {spread(p99)} | "
                  f"{row['p99_ratio']:.2f} | {row['cpu_us_per_io_median']:.1f} |")
            if s != baseline:
                words = []
                for key, vals, base, better, what in (
                        ("iops_higher", iops, b_iops, lambda v, b: v > b, "IOPS higher"),
                        ("p99_lower", p99, b_p99, lambda v, b: v < b, "p99 lower"),
                        ("cpu_lower", cpu, b_cpu, lambda v, b: v < b, "CPU/IO lower")):
                    wins, n, ties, p = paired(vals, base, better)
                    row[f"rounds_{key}"] = {"wins": wins, "of": n, "ties": ties, "sign_test_p": p}
                    tied = f", {ties} tied" if ties else ""
                    words.append(f"{what} in {wins}/{n} (p = {pfmt(p)}{tied})")
                notes.append(f"- {s} vs {baseline}, round by round: " + ", ".join(words)
                             + f"; whole ranges: IOPS {apart(iops, b_iops)}, p99 {apart(p99, b_p99)}")
            summary.setdefault(rw, {})[s] = row
        print()
        print("\n".join(notes))
        print()
    loads = [r["loadavg_1min_before"] for r in runs if "loadavg_1min_before" in r]
    print(f"Ratios divide a median by the {baseline} median. p99 is fio's completion latency (clat); "
          "CPU is the fio process's user+system time per I/O. p is a two-sided sign test over rounds "
          "(5 rounds cannot go below 0.06; use --rounds 10 for 0.002). "
          + (f"Load average before the runs: {min(loads):.2f}–{max(loads):.2f}. " if loads else "")
          + f"Runs took {settings['elapsed_s'] // 60} min {settings['elapsed_s'] % 60:02d} s.")
    if json_out:
        doc["summary"] = summary
        with open(json_out, "w") as f:
            json.dump(doc, f, indent=1)

def show_machine(path):
    doc = json.load(open(path))
    print("## Machine\n")
    for k, v in doc["machine"].items():
        print(f"- {k}: {v}")
    print()

mode = sys.argv[1]
if mode == "one":
    one(*sys.argv[2:4])
elif mode == "collect":
    collect(*sys.argv[2:6])
elif mode == "report":
    report(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
elif mode == "machine":
    show_machine(sys.argv[2])
PY

command -v python3 >/dev/null || die "cannot find 'python3': apt install python3"
if [[ -n $report ]]; then
	[[ -r $report ]] || die "cannot read '$report'"
	python3 -c "$py" machine "$report"
	python3 -c "$py" report "$report"
	exit 0
fi

[[ $EUID -eq 0 ]] || die "must run as root: it writes /sys/block/*/queue/scheduler"
command -v fio >/dev/null || die "cannot find 'fio': apt install fio"
[[ -z $json_out || -w $(dirname -- "$json_out") ]] || die "cannot write '$json_out': its directory is not writable"

# --- finding the disk -----------------------------------------------------

# Stacked mounts list every layer; the last one is what a path reaches.
mount_field() {
	findmnt -no "$1" --target "$2" | tail -n 1
}

# A dev_t from stat(1) split as the kernel's new_decode_dev() does.
devnum_of_dir() {
	local d
	d=$(stat -c %d -- "$1")
	printf '%d:%d\n' $(((d >> 8) & 0xfff | (d >> 32) & ~0xfff)) $(((d & 0xff) | ((d >> 12) & ~0xff)))
}

devnum_of_node() {
	local hex
	hex=$(stat -L -c '%t %T' -- "$1")
	printf '%d:%d\n' "0x${hex% *}" "0x${hex#* }"
}

# Sets disk to the whole disk a block device number belongs to, or fails with
# why there is none whose scheduler decides anything.
find_whole_disk() {
	local devnum=$1 what=$2 sys name lower=() s label
	[[ -e /sys/dev/block/$devnum ]] || die "cannot find block device $devnum under $what in /sys/dev/block"
	sys=$(readlink -f "/sys/dev/block/$devnum")
	[[ -f $sys/partition ]] && sys=${sys%/*}
	name=${sys##*/}
	for s in "$sys"/slaves/*; do
		[[ -e $s ]] && lower+=("${s##*/}")
	done
	if ((${#lower[@]})); then
		label=$name
		[[ -r $sys/dm/name ]] && label="$name ($(<"$sys/dm/name"))"
		die "$what is on $label, a device-mapper/LVM/RAID device stacked on ${lower[*]}. Its own queue schedules nothing; the schedulers that count are those of the disks beneath, which other volumes share. Use a filesystem that sits directly on a disk or partition, 'loop', or an unused raw disk."
	fi
	[[ -e /sys/block/$name/queue/scheduler ]] || die "cannot find '/sys/block/$name/queue/scheduler': $name has no I/O scheduler to switch"
	disk=$name
}

root_disk() {
	local devnum src
	devnum=$(devnum_of_dir /)
	if [[ ! -e /sys/dev/block/$devnum ]]; then
		src=$(mount_field SOURCE /)
		src=${src%%\[*}
		[[ -b $src ]] || return 0
		devnum=$(devnum_of_node "$src")
	fi
	local sys
	sys=$(readlink -f "/sys/dev/block/$devnum")
	[[ -f $sys/partition ]] && sys=${sys%/*}
	printf '%s\n' "${sys##*/}"
}

target_desc=
target_path=
disk=

setup_file_target() {
	local dir devnum src fstype avail
	if [[ -d $target ]]; then dir=$target; else dir=$(dirname -- "$target"); fi
	[[ -d $dir ]] || die "cannot use '$target': directory '$dir' does not exist"
	dir=$(cd -- "$dir" && pwd -P)
	src=$(mount_field SOURCE "$dir")
	fstype=$(mount_field FSTYPE "$dir")
	devnum=$(devnum_of_dir "$dir")
	if [[ ! -e /sys/dev/block/$devnum ]]; then
		# btrfs and others report an anonymous device number; the mount
		# source still names the block device.
		src=${src%%\[*}
		[[ -b $src ]] || die "cannot find a disk under '$dir': it is on $fstype '$src', not on a block device. Use a disk-backed filesystem, or 'loop'."
		devnum=$(devnum_of_node "$src")
	fi
	find_whole_disk "$devnum" "'$dir'"
	avail=$(df -B1 --output=avail -- "$dir" | tail -n 1)
	((avail > size_bytes + 64 * 1024 * 1024)) || die "cannot write a $size test file in '$dir': only $avail bytes free"
	test_file=$(mktemp -p "$dir" fio-scheduler.XXXXXX)
	target_path=$test_file
	target_desc="file $test_file ($size) on $fstype ${src%%\[*}"
	prefill "$target_path" "$size_bytes"
}

# Writes every block once: reads of a hole, and first writes into one, never
# reach the disk in the same way as later I/O does.
prefill() {
	local path=$1 bytes=$2
	note "writing $((bytes / 1048576)) MiB to $path once before measuring"
	fio --name=prefill --filename="$path" --rw=write --bs=1M --size="$bytes" \
		--direct=1 --ioengine=libaio --iodepth=8 --output="$work/prefill.log" \
		>/dev/null 2>"$work/prefill.err" ||
		die "cannot write '$path' with O_DIRECT: $(tail -n 3 "$work/prefill.err" | tr '\n' ' ')(tmpfs and some FUSE filesystems refuse direct I/O)"
}

setup_loop_target() {
	local fstype name dio src devnum sys beneath=""
	[[ -d $loop_dir ]] || die "cannot use --loop-dir '$loop_dir': no such directory"
	fstype=$(mount_field FSTYPE "$loop_dir")
	# The magic number, unlike the mount table, cannot be stacked or renamed.
	case $(stat -f -c %T -- "$loop_dir") in
	tmpfs | ramfs) die "cannot back a loop device on '$loop_dir': it is $(stat -f -c %T -- "$loop_dir"), memory rather than a disk, and may refuse direct I/O. Pass --loop-dir on a disk-backed filesystem (e.g. /var/tmp)." ;;
	esac
	command -v losetup >/dev/null || die "cannot find 'losetup': apt install mount"
	loop_file=$(mktemp -p "$loop_dir" fio-scheduler-loop.XXXXXX)
	prefill "$loop_file" "$size_bytes"
	loop_dev=$(losetup -f --show --direct-io=on -- "$loop_file") ||
		die "cannot attach '$loop_file' to a loop device"
	name=${loop_dev#/dev/}
	dio=$(cat "/sys/block/$name/loop/dio" 2>/dev/null || echo 0)
	[[ $dio == 1 ]] || die "cannot turn on direct I/O for $loop_dev over '$loop_file' ($fstype); without it the loop device measures the page cache"
	[[ -e /sys/block/$name/queue/scheduler ]] || die "cannot find '/sys/block/$name/queue/scheduler'"
	disk=$name
	target_path=$loop_dev
	src=$(mount_field SOURCE "$loop_dir")
	devnum=$(devnum_of_dir "$loop_dir")
	if [[ -e /sys/dev/block/$devnum ]]; then
		sys=$(readlink -f "/sys/dev/block/$devnum")
		[[ -f $sys/partition ]] && sys=${sys%/*}
		[[ -r $sys/queue/scheduler ]] && beneath="; ${sys##*/} beneath stays on $(current_scheduler "${sys##*/}")"
	fi
	target_desc="$loop_dev (direct I/O) over $loop_file ($size) on $fstype ${src%%\[*}$beneath"
}

setup_raw_target() {
	local dev=$target devnum sys name root probe rc mounts
	[[ -b $dev ]] || die "cannot use '$dev': not a block device"
	devnum=$(devnum_of_node "$dev")
	[[ -e /sys/dev/block/$devnum ]] || die "cannot find '$dev' ($devnum) in /sys/dev/block"
	sys=$(readlink -f "/sys/dev/block/$devnum")
	name=${sys##*/}
	[[ ! -f $sys/partition ]] || die "refusing '$dev': it is a partition of ${sys%/*}; the scheduler belongs to the whole disk, which other partitions share"
	root=$(root_disk)
	[[ $name != "$root" ]] || die "refusing '$dev': it holds the root filesystem. Test it through a file instead: $prog /var/tmp"
	[[ -z $(find "$sys/holders" -mindepth 1 -maxdepth 1 2>/dev/null) ]] || die "refusing '$dev': it is held by $(find "$sys/holders" -mindepth 1 -maxdepth 1 -printf '%f ')(device-mapper or RAID)"
	[[ -z $(find "$sys" -mindepth 1 -maxdepth 1 -name "${name}*" 2>/dev/null) ]] || die "refusing '$dev': it has partitions"
	mounts=$(awk -v d="$devnum" '$3 == d { print $5 }' /proc/self/mountinfo)
	[[ -z $mounts ]] || die "refusing '$dev': it is mounted on $mounts"
	! grep -q "^$(readlink -f "$dev") " /proc/swaps || die "refusing '$dev': it is in use as swap"
	(($(<"$sys/size") * 512 >= size_bytes)) || die "refusing '$dev': it is smaller than --size $size"
	rc=0
	probe=$(blkid -p -- "$dev" 2>&1) || rc=$?
	case $rc in
	2) ;;
	0) die "refusing '$dev': blkid finds a signature on it: $probe" ;;
	*) die "cannot probe '$dev' with blkid (exit $rc): $probe" ;;
	esac
	probe=$(wipefs -n -- "$dev" 2>&1) || die "cannot probe '$dev' with wipefs: $probe"
	[[ -z $probe ]] || die "refusing '$dev': wipefs finds signatures on it: $probe"
	probe=$(lsblk -dno FSTYPE,PTTYPE -- "$dev" 2>/dev/null | tr -d ' ')
	[[ -z $probe ]] || die "refusing '$dev': lsblk reports '$probe' on it"
	((overwrite)) || die "refusing '$dev' without --overwrite-device: its first $size would be overwritten"
	disk=$name
	target_path=$dev
	target_desc="raw disk $dev, first $size"
	prefill "$target_path" "$size_bytes"
}

if [[ $target == loop ]]; then
	setup_loop_target
elif [[ -b $target ]]; then
	setup_raw_target
elif [[ $target == /dev/* && ! -d $target ]]; then
	die "cannot use '$target': not a block device"
else
	setup_file_target
fi

# --- which schedulers -----------------------------------------------------

read -r -a offered <<<"$(offered_schedulers "$disk")"
if [[ -z $schedulers ]]; then
	# none and mq-deadline first: they are the two the question is about.
	scheds=()
	for s in none mq-deadline "${offered[@]}"; do
		[[ " ${offered[*]} " == *" $s "* && " ${scheds[*]} " != *" $s "* ]] && scheds+=("$s")
	done
else
	read -r -a scheds <<<"$schedulers"
	for s in "${scheds[@]}"; do
		[[ " ${offered[*]} " == *" $s "* ]] || die "cannot use scheduler '$s': $disk offers ${offered[*]}"
	done
fi
((${#scheds[@]} >= 1)) || die "no scheduler to test on $disk"
baseline=${scheds[0]}
[[ " ${scheds[*]} " == *" mq-deadline "* ]] && baseline=mq-deadline

save_queue_state "$disk"

# --- the machine ----------------------------------------------------------

sysfs_or_dash() {
	local v
	if [[ -r $1 ]]; then
		v=$(tr -s ' ' <"$1")
		v=${v% }
		printf '%s\n' "${v:--}"
	else
		printf -- '-\n'
	fi
}

virt_desc() {
	local vm=- ct=- hv=- flag=no
	if command -v systemd-detect-virt >/dev/null; then
		vm=$(systemd-detect-virt --vm 2>/dev/null || true)
		ct=$(systemd-detect-virt --container 2>/dev/null || true)
	fi
	# lscpu reads the CPUID hypervisor leaf: "Microsoft" on Hyper-V and Azure.
	if command -v lscpu >/dev/null; then
		hv=$(LC_ALL=C lscpu | sed -n 's/^Hypervisor vendor: *//p')
	fi
	grep -qw hypervisor /proc/cpuinfo && flag=yes
	printf 'systemd-detect-virt --vm: %s, --container: %s; CPUID hypervisor vendor: %s; cpuinfo hypervisor flag: %s\n' \
		"${vm:--}" "${ct:--}" "${hv:--}" "$flag"
}

machine_file=$work/machine.tsv
{
	printf 'kernel\t%s\n' "$(uname -r)"
	printf 'cpus\t%s (%s)\n' "$(nproc)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	printf 'virtualization\t%s\n' "$(virt_desc)"
	driver=$(readlink -f "/sys/block/$disk/device/driver" 2>/dev/null || true)
	driver=${driver##*/}
	printf 'device\t%s, %s MiB, driver %s, vendor %s, model %s\n' "$disk" \
		"$(($(<"/sys/block/$disk/size") * 512 / 1048576))" "${driver:--}" \
		"$(sysfs_or_dash "/sys/block/$disk/device/vendor")" \
		"$(sysfs_or_dash "/sys/block/$disk/device/model")"
	printf 'sysfs path\t%s\n' "$(readlink -f "/sys/block/$disk")"
	printf 'hardware queues\t%s\n' "$(find "/sys/block/$disk/mq" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
	printf 'queue\trotational %s, logical block %s, nr_requests %s under %s\n' \
		"$(<"/sys/block/$disk/queue/rotational")" "$(<"/sys/block/$disk/queue/logical_block_size")" \
		"$orig_nr" "$orig_sched"
	printf 'schedulers offered\t%s (now %s; restored at exit)\n' "${offered[*]}" "$orig_sched"
	printf 'target\t%s\n' "$target_desc"
	printf 'fio\t%s\n' "$(fio --version)"
} >"$machine_file"

printf '## Machine\n\n'
while IFS=$'\t' read -r key value; do
	printf -- '- %s: %s\n' "$key" "$value"
done <"$machine_file"

runs_total=$((rounds * ${#scheds[@]} * 2))
estimate=$((runs_total * (runtime + ramp) + runs_total / 2))
printf -- '- workload: 4k randwrite and randread, direct=1, libaio, iodepth=16, numjobs=1, %s s + %s s ramp per run\n' "$runtime" "$ramp"
printf -- '- plan: %s rounds x %s schedulers (%s) x 2 workloads = %s runs, about %d min %02d s\n\n' \
	"$rounds" "${#scheds[@]}" "${scheds[*]}" "$runs_total" $((estimate / 60)) $((estimate % 60))

# --- the runs -------------------------------------------------------------

index=$work/index.tsv
: >"$index"
started=$SECONDS
n=0
for ((r = 0; r < rounds; r++)); do
	if ((r % 2 == 0)); then workloads=(randwrite randread); else workloads=(randread randwrite); fi
	for ((i = 0; i < ${#scheds[@]}; i++)); do
		s=${scheds[(i + r) % ${#scheds[@]}]}
		set_scheduler "$disk" "$s"
		for wl in "${workloads[@]}"; do
			n=$((n + 1))
			out=$work/run-$n.json
			read -r load _ </proc/loadavg
			fio --name="$wl" --filename="$target_path" --rw="$wl" --bs=4k --direct=1 \
				--ioengine=libaio --iodepth=16 --numjobs=1 --size="$size_bytes" \
				--time_based --runtime="$runtime" --ramp_time="$ramp" \
				--output-format=json --output="$out" >/dev/null 2>"$work/fio.err" ||
				die "fio failed on '$target_path' ($s, $wl): $(tail -n 3 "$work/fio.err" | tr '\n' ' ')"
			now=$(current_scheduler "$disk")
			[[ $now == "$s" ]] || die "the scheduler of $disk changed from '$s' to '$now' during a run; is a udev rule (such as hyperv-scheduler's) setting it?"
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$((r + 1))" "$n" "$s" "$wl" "$load" "$out" >>"$index"
			read -r iops p99 cpu < <(python3 -c "$py" one "$out" "$wl")
			printf '[%3d/%d] round %d  %-11s %-9s %9.0f IOPS  p99 %7.0f us  cpu %5.1f us/IO\n' \
				"$n" "$runs_total" "$((r + 1))" "$s" "$wl" "$iops" "$p99" "$cpu" >&2
		done
	done
done
elapsed=$((SECONDS - started))

settings=$(printf '{"rounds": %d, "runtime_s": %d, "ramp_s": %d, "size_bytes": %d, "schedulers": "%s", "baseline": "%s", "bs": "4k", "iodepth": 16, "numjobs": 1, "ioengine": "libaio", "direct": 1, "elapsed_s": %d}' \
	"$rounds" "$runtime" "$ramp" "$size_bytes" "${scheds[*]}" "$baseline" "$elapsed")
python3 -c "$py" collect "$index" "$machine_file" "$settings" "$work/results.json"
python3 -c "$py" report "$work/results.json" "$json_out"
