#!/bin/bash
# make coverage: line and branch coverage of src/ by the whole suite (tests/run-tests.sh, as
# `make check` runs it), measured with gcovr in a copy of the tree built with --coverage. Prints
# gcovr's table of src/ with the lines never run, and its summary, and fails when either figure
# is below the floor in tests/coverage-floor. COVERAGE_RAISE=1 raises the floor to the
# figures measured when they are higher (lowering it is a commit that says why). Needs root, as `make check` in CI does.
set -u
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=coverage
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
floor_file=$top/tests/coverage-floor
# The copy's own binaries, whatever the caller set.
unset MEMCHECK SANITIZE HELPER TESTFACTS RULE

command -v gcovr >/dev/null || {
	echo "coverage: needs gcovr (package gcovr)" >&2
	exit 1
}
read_floor() { awk -v k="$1" '$1 == k { print $2 }' "$floor_file"; }
line_floor=$(read_floor line) branch_floor=$(read_floor branch)
if [ -z "$line_floor" ] || [ -z "$branch_floor" ]; then
	echo "coverage: $floor_file names no 'line N' and 'branch N'" >&2
	exit 1
fi

# The suite runs the helper as nobody too: every user may write the counters (.gcda).
chmod 0755 "$work"
tree=$work/tree
copy_tree "$tree" || exit 1
CFLAGS='-O0 -g --coverage' LDFLAGS=--coverage \
	make -C "$tree" -s all tests/unit tests/hyperv-scheduler-testfacts tests/fuzz-json-replay || exit 1
chmod 0777 "$tree/src" "$tree/tests"
(umask 0 && cd "$tree" && COVERAGE=1 tests/run-tests.sh) >"$work/suite" 2>&1
suite=$?
grep -E '^(FAIL|[0-9]+%: Checks|integration: )' "$work/suite"
[ "$suite" = 0 ] || {
	echo "coverage: the suite fails: no figure" >&2
	exit 1
}

cd "$tree" || exit 1
gcovr -r . --filter src/ --txt
gcovr -r . --filter src/ --branches --txt | grep -E '^(File|src/|TOTAL)'
# The table into a file of the work directory: gcovr replaces the file it writes, so a device
# such as /dev/null would become a regular file for the whole machine.
summary=$(gcovr -r . --filter src/ --print-summary --txt "$work/coverage.txt")
echo "$summary"
# figure KIND: the percentage from gcovr's counts "(N out of M)", to 2 decimals; gcovr's own
# figure is rounded, and may be above what was measured.
figure() {
	sed -n "s/^$1: .*(\\([0-9]*\\) out of \\([0-9]*\\)).*/\\1 \\2/p" <<<"$summary" |
		awk '{ printf "%.2f", $2 ? 100 * $1 / $2 : 0 }'
}
line=$(figure lines) branch=$(figure branches)
# below GOT FLOOR: GOT is lower than FLOOR.
below() { awk -v g="$1" -v f="$2" 'BEGIN { exit !(g + 0 < f + 0) }'; }
status=0
if below "$line" "$line_floor"; then
	echo "coverage: line coverage $line% is below the floor of $line_floor% (tests/coverage-floor)"
	status=1
fi
if below "$branch" "$branch_floor"; then
	echo "coverage: branch coverage $branch% is below the floor of $branch_floor% (tests/coverage-floor)"
	status=1
fi
[ "$status" = 0 ] || exit 1

# Rounded down to 0.1: the floor never claims more than was measured.
down() { awk -v g="$1" 'BEGIN { printf "%.1f", int(g * 10 + 1e-9) / 10 }'; }
new_line=$(down "$line") new_branch=$(down "$branch")
if below "$line_floor" "$new_line" || below "$branch_floor" "$new_branch"; then
	if [ "${COVERAGE_RAISE:-}" = 1 ]; then
		sed -i -e "s/^line .*/line $new_line/" -e "s/^branch .*/branch $new_branch/" "$floor_file"
		echo "coverage: the floor raised to line $new_line%, branch $new_branch% in tests/coverage-floor"
	else
		echo "coverage: above the floor; \`make coverage COVERAGE_RAISE=1\` raises it to line $new_line%, branch $new_branch%"
	fi
fi
echo "coverage: line $line% (floor $line_floor%), branch $branch% (floor $branch_floor%)"
