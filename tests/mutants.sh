#!/bin/bash
# make mutants: each one-place break of src/, of the packages' scripts (debian/, packaging/) or
# of the installed report.schema.json listed in tests/mutants.txt must fail the tests that guard
# it, one integration script and the unit tests. Every mutant is applied to a copy of the tree,
# never to this one. Fails when a mutant survives, does not build, or when its original text is
# not found exactly once in its file: a change of that file then fails here loudly, and the list
# is brought up to date with it.
# Needs root, as `make check` in CI does.
#
# MUTANTS_JOBS (default 2) copies work at once, MUTANTS_TIMEOUT (default 300) seconds bound each
# test run: one that hangs is a kill. MUTANTS_ONLY=TEXT runs only the mutants whose header
# line contains TEXT.
set -u
cd "$(dirname "$0")/.." || exit
list=tests/mutants.txt
jobs=${MUTANTS_JOBS:-2}
limit=${MUTANTS_TIMEOUT:-300}
# The copy's own binaries, whatever the caller set.
unset MEMCHECK SANITIZE HELPER TESTFACTS RULE
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=mutants prog=mutants
# shellcheck source=tests/lib.sh
. tests/lib.sh

# The list: "== FILE GUARD: WHAT IT BREAKS", then the original text, one "- LINE" each, then
# its replacement, one "+ LINE" each (none: the original is deleted).
files=() guards=() titles=() origs=() repls=()
n=-1 lineno=0 bad=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	case $line in
	'#'* | '') ;;
	'== '*)
		n=$((n + 1))
		read -r file guard _ <<<"${line#== }"
		files[n]=$file guards[n]=${guard%:} titles[n]=${line#== } origs[n]='' repls[n]=''
		;;
	'- '* | '-' | '+ '* | '+')
		[ "$n" -ge 0 ] || die "$list:$lineno: text before the first '== FILE GUARD: ...' line"
		text=${line:2}
		if [ "${line:0:1}" = - ]; then
			[ -z "${repls[n]}" ] || die "$list:$lineno: a '-' line after a '+' line"
			origs[n]+=${origs[n]:+$'\n'}$text
		else
			repls[n]+=${repls[n]:+$'\n'}$text
		fi
		;;
	*) die "$list:$lineno: not '#', '== FILE GUARD: ...', '- TEXT' or '+ TEXT': $line" ;;
	esac
done <"$list"
total=$((n + 1))
[ "$total" -gt 0 ] || die "$list holds no mutant"

# mutate FILE ORIGINAL REPLACEMENT: replaces the one place ORIGINAL is in FILE; says why not and
# fails when it is there not exactly once. With ORIGINAL empty, only checks FILE.
mutate() {
	python3 - "$@" <<'EOF'
import sys
path, orig, repl = sys.argv[1:4]
with open(path) as f:
    text = f.read()
count = text.count(orig)
if count != 1:
    sys.exit("%s: the original text is there %d times, not once:\n%s" % (path, count, orig))
with open(path, "w") as f:
    f.write(text.replace(orig, repl))
EOF
}

# The suite runs the helper as nobody on the copy's fixtures.
chmod 0755 "$work"

# Every mutant is checked against this tree before anything is built.
run=()
for ((i = 0; i < total; i++)); do
	why=''
	case ${files[i]} in
	src/* | debian/* | packaging/* | report.schema.json) [ -f "${files[i]}" ] || why="no file ${files[i]}" ;;
	*) why="${files[i]} is not in src/, debian/ or packaging/, nor report.schema.json" ;;
	esac
	[ -f "tests/integration/${guards[i]}" ] || why+="${why:+; }no tests/integration/${guards[i]}"
	[ -n "${origs[i]}" ] || why+="${why:+; }no original text"
	[ "${origs[i]}" != "${repls[i]}" ] || why+="${why:+; }the replacement is the original"
	if [ -z "$why" ]; then
		cp "${files[i]}" "$work/check"
		why=$(mutate "$work/check" "${origs[i]}" "${repls[i]}" 2>&1)
	fi
	if [ -n "$why" ]; then
		echo "BAD: ${titles[i]}: $why"
		bad=$((bad + 1))
	fi
	[[ ${titles[i]} != *"${MUTANTS_ONLY:-}"* ]] || run+=("$i")
done
[ "$bad" = 0 ] || die "$bad of $total mutants in $list do not apply to this tree: update the list with the tree"
[ "${#run[@]}" -gt 0 ] || die "no mutant's header contains '${MUTANTS_ONLY:-}'"

build() { make -C "$1" -s all tests/unit tests/hyperv-scheduler-testfacts tests/fuzz-json-replay >"$1.build" 2>&1; }

# guard DIR SCRIPT [FILE]: SCRIPT (to its first failure) and the unit tests, in the copy DIR;
# prints which failed, if one did. The unit tests first where FILE, the file mutated, has unit
# tests of its own (src/NAME.c, tests/test-NAME.c): they take about 2 s and kill most of its
# mutants, where a guard script takes ten times that. Else the script first: it is the guard
# named, and kills the mutant sooner.
guard() {
	local name=${3:-}
	name=${name#src/}
	if [ -n "$name" ] && [ -f "$1/tests/test-${name%.c}.c" ]; then
		if ! (cd "$1" && timeout "$limit" tests/unit >/dev/null 2>&1); then
			echo "the unit tests"
			return
		fi
		(cd "$1" && FAIL_FAST=1 RESULTS=/dev/null timeout "$limit" bash "tests/integration/$2" >/dev/null 2>&1) ||
			echo "$2"
	elif ! (cd "$1" && FAIL_FAST=1 RESULTS=/dev/null timeout "$limit" bash "tests/integration/$2" >/dev/null 2>&1); then
		echo "$2"
	elif ! (cd "$1" && timeout "$limit" tests/unit >/dev/null 2>&1); then
		echo "the unit tests"
	fi
}

# worker W: the mutants run[W], run[W+jobs], ... in copy W, one result line each in
# $work/result-W.
worker() {
	local w=$1 dir=$work/copy-$1 i k saved by g
	copy_tree "$dir" >/dev/null 2>&1 || {
		echo "ERROR: cannot copy the tree" >"$work/result-$w"
		return
	}
	build "$dir" || {
		echo "ERROR: the tree does not build: $(tail -5 "$dir.build")" >"$work/result-$w"
		return
	}
	# Each guard must pass on the unmutated tree, or its kills would prove nothing.
	for g in $(for i in "${run[@]}"; do echo "${guards[i]}"; done | sort -u | awk -v w="$w" -v j="$jobs" 'NR % j == w'); do
		by=$(guard "$dir" "$g")
		[ -z "$by" ] || echo "ERROR: $by fail on the unmutated tree" >>"$work/result-$w"
	done
	for ((k = w; k < ${#run[@]}; k += jobs)); do
		i=${run[k]} saved=$work/saved-$w
		cp "$dir/${files[i]}" "$saved"
		if ! mutate "$dir/${files[i]}" "${origs[i]}" "${repls[i]}" >/dev/null 2>&1; then
			echo "ERROR: ${titles[i]}: cannot apply" >>"$work/result-$w"
		elif ! build "$dir"; then
			echo "ERROR: ${titles[i]}: does not build: $(grep -m1 error: "$dir.build")" >>"$work/result-$w"
		else
			by=$(guard "$dir" "${guards[i]}" "${files[i]}")
			if [ -z "$by" ]; then
				echo "SURVIVED: ${titles[i]}" >>"$work/result-$w"
			else
				echo "killed: ${titles[i]}, by $by" >>"$work/result-$w"
			fi
		fi
		tail -n 1 "$work/result-$w"
		# Back to the original, its time newer than the objects built from the mutant.
		cat "$saved" >"$dir/${files[i]}"
		touch "$dir/${files[i]}"
	done
}

echo "mutants: ${#run[@]} of the $total in $list, $jobs at once"
for ((w = 0; w < jobs; w++)); do
	worker "$w" &
done
wait
cat "$work"/result-* >"$work/results"
killed=$(grep -c '^killed: ' "$work/results")
survived=$(grep -c '^SURVIVED: ' "$work/results")
errors=$(grep -c '^ERROR: ' "$work/results")
grep -E '^(SURVIVED|ERROR): ' "$work/results"
summary="mutants: $killed killed, $survived survived"
[ "$errors" = 0 ] || summary+=", $errors errors"
echo "$summary"
[ "$survived" = 0 ] && [ "$errors" = 0 ] && [ "$killed" = "${#run[@]}" ]
