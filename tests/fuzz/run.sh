#!/bin/bash
# Runs each fuzz target named on the command line for FUZZ_SECONDS (default 60) on its seed
# corpus and its saved regressions, then prints one total line; exits non-zero on any crash.
# With --replay, only runs every seed and regression input once.
# New corpus entries and crash inputs go to a temporary directory, never into the tree; the
# directory is kept, and named, when something crashed.
set -u
cd "$(dirname "$0")" || exit 1

replay=0
if [ "${1-}" = --replay ]; then
	replay=1
	shift
fi
seconds=${FUZZ_SECONDS:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/hyperv-scheduler-fuzz.XXXXXX") || exit 1

# The config file may be 64 KiB, a CPUID file holds up to 1,024 leaves; everything else is a
# line or a short string.
max_len() {
	case $1 in
	config) echo 70000 ;;
	cpuidfile) echo 16384 ;;
	*) echo 4096 ;;
	esac
}

targets=0 runs=0 crashes=0
for t in "$@"; do
	bin=build/fuzz-$t log=$work/$t.log
	dirs=()
	for d in corpus/$t regressions/$t; do
		[ -d "$d" ] && dirs+=("$d")
	done
	mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
	targets=$((targets + 1))
	if [ $replay = 1 ]; then
		files=()
		for d in "${dirs[@]}"; do
			for f in "$d"/*; do
				[ -f "$f" ] && files+=("$f")
			done
		done
		[ ${#files[@]} -gt 0 ] || continue
		"$bin" -artifact_prefix="$work/artifacts/$t/" "${files[@]}" >"$log" 2>&1
	else
		"$bin" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=25 \
			-artifact_prefix="$work/artifacts/$t/" -print_final_stats=1 \
			"$work/corpus/$t" "${dirs[@]}" >"$log" 2>&1
	fi
	status=$?
	if [ $replay = 1 ]; then
		n=$(grep -c '^Executed ' "$log")
	else
		# "Done N runs in S second(s)", or the last "#N" status line after a crash.
		n=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
		[ -n "$n" ] || n=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	fi
	n=${n:-0}
	runs=$((runs + n))
	if [ $status = 0 ]; then
		echo "fuzz-$t: $n executions"
	else
		crashes=$((crashes + 1))
		echo "fuzz-$t: CRASH after $n executions (exit status $status)"
		grep -E 'ERROR|invariant failed|SUMMARY|Test unit written|deadly signal' "$log" | head -n 20
		echo "fuzz-$t: log in $log, inputs in $work/artifacts/$t/"
	fi
done

echo "fuzz: $targets targets, $runs executions, $crashes crashes"
if [ $crashes = 0 ]; then
	rm -rf "$work"
	exit 0
fi
exit 1
