#!/bin/bash
# docs-samples.sh DIR: the samples of output the documents show (README.md, man/*.scd), each
# made by a run of the helper and written to DIR/NAME, "$ COMMAND" first. tests/docs-check.py
# puts them into the documents or compares them.
#
# The machine is the fake Azure Generation 2 guest of tests/fixtures/mktree.sh, run by the testfacts
# build with the hyperv-guest CPUID file, with the shipped hyperv-scheduler.conf as
# /etc/hyperv-scheduler.conf and a udev control socket, as on a booted VM where the package is
# installed. A fake tree's scheduler file is a plain file, which a write does not switch: from
# the run that writes on, the three disks the policy changes (sda and sr0 on mq-deadline, sdaa on
# kyber) get, bound over theirs, the scheduler attribute of a loop device of this run's own, on
# the same scheduler. So --all really writes, and reads back what the kernel did. The runs
# before it read the tree's own files: a loop device lists the schedulers of the kernel running
# the check, which a sample must not show. sdaa is on kyber here, not the tree's bfq: Linux can be
# built without bfq (a kernel with neither fails here, naming it). Needs root (loop devices,
# mounts); every mount lives in a private namespace, and the loops are put back and detached at
# exit.
set -euo pipefail
lib_name=docs
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

[ $# = 1 ] || {
	echo "usage: $0 DIR" >&2
	exit 2
}
out=$1
mkdir -p "$out"
[ "$(id -u)" = 0 ] || {
	echo "docs-samples: needs root (loop devices stand for the guest's disks)" >&2
	exit 1
}
for f in "$TESTFACTS" "$top/hyperv-scheduler.conf"; do
	[ -e "$f" ] || {
		echo "docs-samples: no $f (make tests/hyperv-scheduler-testfacts)" >&2
		exit 1
	}
done

tree=$(make_tree azure)
sdaa=$(readlink -f "$tree/sys/class/block/sdaa/queue/scheduler")
sed -i 's/\[bfq\]/bfq/; s/kyber/[kyber]/' "$sdaa"
binds=() loop=
for disk in sda sdaa sr0; do
	make_loop loop
	file=$(readlink -f "$tree/sys/class/block/$disk/queue/scheduler")
	sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$file")
	grep -qw -- "$sched" "/sys/block/$loop/queue/scheduler" ||
		die "this kernel offers no $sched for a loop device, which $disk's sample stands on"
	echo "$sched" >"/sys/block/$loop/queue/scheduler"
	binds+=("/sys/block/$loop/queue/scheduler" "$file")
done
# The loops stand in for the disks from the run that writes on (bound=1). The runs from it to the
# report after it share one /run (keep=1), as on a booted VM, so the report shows --all's records.
bound=0 keep=0
mkdir "$work/run"
cp "$top/hyperv-scheduler.conf" "$work/conf"
printf '# a line of the default file\n\nfoo = bar\n' >"$work/conf-foo"

# guest CONFIG-KIND ARGS...: the helper with ARGS in the guest; CONFIG-KIND is shipped (the
# package's file), foo (an unknown key on line 3) or fifo. Prints stdout, then stderr.
guest() {
	local kind=$1 n=$((bound * ${#binds[@]})) run=
	[ "$keep" = 0 ] || run=$work/run
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private -- sh -c '
		work=$1 tree=$2 kind=$3 n=$4 run=$5
		shift 5
		while [ "$n" -gt 0 ]; do
			mount --bind "$1" "$2" || exit 125
			shift 2
			n=$((n - 2))
		done
		mount --rbind "$tree/sys" /sys || exit 125
		if [ -n "$run" ]; then
			mount --bind "$run" /run
		else
			mount -t tmpfs hyperv-scheduler-run /run
		fi || exit 125
		[ -S /run/udev/control ] || {
			mkdir /run/udev &&
				python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
					/run/udev/control
		} || exit 125
		mount -t tmpfs hyperv-scheduler-etc /etc || exit 125
		case $kind in
		shipped) cp "$work/conf" /etc/hyperv-scheduler.conf ;;
		foo) cp "$work/conf-foo" /etc/hyperv-scheduler.conf ;;
		fifo) mkfifo /etc/hyperv-scheduler.conf ;;
		commas) printf "exclude = sdc, sdd\n" >/etc/hyperv-scheduler.conf ;;
		class) printf "exclude = sd[[:digt:]]\n" >/etc/hyperv-scheduler.conf ;;
		esac
		SYSTEMD_DEVICE_VERIFY_SYSFS=0 exec "$@" 2>&1' \
		sh "$work" "$tree" "$kind" "$n" "$run" "${binds[@]:0:n}" \
		env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" "$@" || true
}

# sample NAME PROMPT CONFIG-KIND ARGS...: "PROMPT hyperv-scheduler ARGS" and what it printed.
sample() {
	local name=$1 prompt=$2 kind=$3
	shift 3
	{
		echo "$prompt hyperv-scheduler $*"
		guest "$kind" "$@"
	} >"$out/$name"
}

# In the order of a trial: look, then apply, then look again.
sample dry-run '$' shipped --dry-run
# The JSON for one disk, shortened for a page: the evidence elided, lines folded at ", ".
guest shipped --dry-run --json sda | python3 -c '
import json, sys, textwrap
version = sys.argv[1]
lines = []
for line in sys.stdin.read().splitlines():
    line = line.replace("\"version\": \"%s\"" % version, "\"version\": \"@VERSION@\"")
    if "\"evidence\": [" in line:
        head, _, tail = line.partition("\"evidence\": [")
        line = head + "\"evidence\": [...]" + tail[tail.index("]}") + 1:]
    lines += textwrap.wrap(line, 78, subsequent_indent=" ", break_long_words=False,
                           break_on_hyphens=False, drop_whitespace=False) if len(line) > 78 else [line]
print("$ hyperv-scheduler --dry-run --json sda")
print("\n".join(l.rstrip() for l in lines))' "$(cat "$top/VERSION")" >"$out/json-sda"
bound=1 keep=1
sample all '#' shipped --all
# The disks it changed, their records shown; the evidence (in the first sample) left out, and the
# time of each change, the run's, shown by its form.
sample dry-run-after '$' shipped --dry-run sda sdaa sr0
awk '/^  / { if (!cut) print "  ..."; cut = 1; next } { print }' "$out/dry-run-after" |
	sed -E 's/ at [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z / at YYYY-MM-DDThh:mm:ssZ /' \
		>"$work/dry-run-after"
mv "$work/dry-run-after" "$out/dry-run-after"
keep=0
# What the helper says of a config file that cannot be read, and of a bad line.
guest fifo --dry-run | grep '^hyperv-scheduler: ' >"$out/config-fifo"
guest foo --dry-run sdb | grep '^hyperv-scheduler: ' >"$out/config-foo"
# An exclude line read as meant, and one that cannot be read.
guest commas --dry-run sdb | grep '^hyperv-scheduler: ' >"$out/config-commas"
guest class --dry-run sdb | grep '^hyperv-scheduler: ' >"$out/config-class"
