# shellcheck shell=bash
# The integration tests' harness, on top of tests/lib.sh: one `check NAME -- COMMAND` per case,
# the assertions a COMMAND can be, counters, and `finish`. Each script in tests/integration
# sources it and ends with `finish`.
set -u
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name='test'
# shellcheck source=tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

suite=$(basename "$0" .sh)
passed=0 failed=0 skipped=0
out='' err='' status=''

# MEMCHECK=1: every run of the helper goes through valgrind's memcheck, and any error it
# reports turns into exit status 99, which no test expects. HELPER_BIN stays the binary itself,
# the argv[0] that getopt's own messages name.
# shellcheck disable=SC2034 # read by the test scripts
HELPER_BIN=$HELPER
if [ "${MEMCHECK:-}" = 1 ]; then
	for var in HELPER TESTFACTS; do
		real=${!var}
		printf '#!/bin/sh\nexec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "%s" "$@"\n' \
			"$real" >"$work/$var"
		chmod 0755 "$work/$var"
		printf -v "$var" '%s' "$work/$var"
	done
fi

# hang_limit: the seconds a `timeout` gives a run that once hung (a FIFO, a syslog that does
# not drain). It catches a hang; it is no timing goal, so it is generous: CI runs valgrind's
# runs at a load of 10 to 15, where one helper run can take over 10 s.
# shellcheck disable=SC2034 # read by the test scripts
if [ "${MEMCHECK:-}" = 1 ]; then hang_limit=300; else hang_limit=60; fi

pass() {
	passed=$((passed + 1))
	echo "PASS: $suite: $1"
}
fail() {
	failed=$((failed + 1))
	echo "FAIL: $suite: $1: $2"
}
skip() {
	skipped=$((skipped + 1))
	echo "SKIP: $suite: $1: $2"
}

# check NAME -- COMMAND...: the case passes when COMMAND exits 0; otherwise what it printed
# says why. COMMAND runs in this shell, so a `capture` in it leaves $out, $err and $status
# for the checks that follow. FAIL_FAST=1 ends the script at the first failure (make mutants).
check() {
	local name=$1
	shift
	[ "${1:-}" = -- ] && shift
	if "$@" >"$work/why" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(cat "$work/why")"
		[ "${FAIL_FAST:-}" != 1 ] || exit 1
	fi
}

# capture COMMAND...: runs COMMAND, keeping its stdout, stderr and exit status in $out, $err
# and $status. Always succeeds.
capture() {
	"$@" >"$work/out" 2>"$work/err" </dev/null
	status=$?
	out=$(cat "$work/out")
	err=$(cat "$work/err")
	return 0
}

# The assertions. Each is true or says what it found instead.
# exits N COMMAND...: captures COMMAND and wants exit status N.
exits() {
	local want=$1
	shift
	capture "$@"
	[ "$status" = "$want" ] || {
		echo "exit status $status, expected $want; stderr: $err"
		return 1
	}
}
# is WHAT GOT WANT: GOT is exactly WANT.
is() {
	[ "$2" = "$3" ] || {
		printf '%s is\n  %s\nexpected\n  %s\n' "$1" "$2" "$3"
		return 1
	}
}
stdout_is() { is stdout "$out" "$1"; }
stderr_is() { is stderr "$err" "$1"; }
silent() { is "stdout and stderr" "$out$err" ""; }
# has WHAT TEXT PART: TEXT contains PART, for output of which only a part is the contract.
has() {
	[[ $2 == *"$3"* ]] || {
		printf '%s lacks %s:\n%s\n' "$1" "$3" "$2"
		return 1
	}
}
stdout_has() { has stdout "$out" "$1"; }
stderr_has() { has stderr "$err" "$1"; }
# json_is EXPR WANT: a Python expression over the last stdout parsed as JSON, `d`, printed
# by Python, is WANT. Fails when stdout is not JSON.
json_is() {
	local got
	keep_json
	got=$(printf '%s' "$out" | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError as e:
    sys.exit("stdout is not JSON (%s)" % e)
print(eval(sys.argv[1]))' "$1" 2>&1) || {
		printf '%s: %s\n' "$got" "$out"
		return 1
	}
	[ "$got" = "$2" ] || {
		echo "the report says '$got', expected '$2'"
		return 1
	}
}
# keep_json: the last stdout, a JSON report, kept for finish to validate against the schema
# (each distinct output once).
reports=0 kept_json=''
keep_json() {
	[ "$out" != "$kept_json" ] || return 0
	kept_json=$out
	reports=$((reports + 1))
	mkdir -p "$work/reports" && printf '%s\n' "$out" >"$work/reports/$reports.json"
}
# schema_valid [--strict] FILE...: the reports are valid under report.schema.json; with
# --strict, also without a key it does not define (this tree's helper prints none). Without
# python3-jsonschema, SKIP; in CI, which must run it, FAIL.
schema_valid() {
	local why strict=
	[ "$1" != --strict ] || strict=$1
	[ -z "$strict" ] || shift
	why=$(report_schema ${strict:+"$strict"} "$top/report.schema.json" "$@")
	case $? in
	0) return 0 ;;
	77)
		[ "${CI:-}" != true ] || why="${why#SKIP: }, and CI must run it"
		echo "$why"
		[ "${CI:-}" = true ] || return 77
		;;
	*) echo "$why" ;;
	esac
	return 1
}

# disk NAME FIELD: a field of one device in the last JSON report.
disk() { printf "[x['%s'] for x in d['devices'] if x['name']=='%s'][0]" "$2" "$1"; }
# disk_is NAME ACTION/REASON: one device's action and reason in the last JSON report.
disk_is() { json_is "$(disk "$1" action)+'/'+str($(disk "$1" reason))" "$2"; }
# scheduler_is FILE NAME: the scheduler file (of a loop in /sys/block, or of a fake tree)
# has NAME selected.
scheduler_is() {
	local got
	got=$(cat "$1") || return 1
	[[ $got == *"[$2]"* ]] || {
		echo "$1 reads '$got', not [$2]"
		return 1
	}
}

# on CPUID TREE COMMAND...: COMMAND over TREE with HYPERV_SCHEDULER_TEST_CPUID naming CPUID,
# a file of tests/fixtures/cpuid: the testfacts build then sees that whole machine.
on() {
	local cpuid=$1 tree=$2
	shift 2
	in_tree "$tree" env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/$cpuid" "$@"
}

# "${log_ns[@]}" syslog|kmsg COMMAND...: COMMAND over a private /dev; stdout says what
# reached /dev/log (with syslog: a listener holds it) and /dev/kmsg (a plain file), then the
# exit status (tests/dev-log). An array, to run inside `on` too.
# The real /dev/null is bound into the new /dev: a user namespace (the suite run without root)
# may not make device nodes.
: >"$work/dev-null"
# shellcheck disable=SC2016,SC2034 # expanded by the inner shell; for the scripts that source this file
log_ns=("${ns_enter[@]}" -- sh -c 'null=$1
	shift
	mount --bind /dev/null "$null" && mount -t tmpfs hyperv-scheduler-dev /dev &&
		: >/dev/null && mount --bind "$null" /dev/null && exec "$@"' sh "$work/dev-null" "$top/tests/dev-log")

# Tests that need root run in CI, where missing root is itself a failure, and say SKIP
# elsewhere (a package build, a developer without root).
need_root() {
	[ "$(id -u)" = 0 ] && return 0
	if [ "${CI:-}" = true ]; then
		fail "$1" "needs root, and CI must run it"
	else
		skip "$1" "needs root"
	fi
	return 1
}

# mounts_refused [WHAT]: why this process cannot mount over WHAT (default /sys) in a private
# namespace (tests/lib.sh's ns_enter was refused), for a SKIP line.
mounts_refused() {
	local what=${1:-/sys}
	if [ "$(id -u)" = 0 ]; then
		echo "cannot mount over $what in a private mount namespace here"
	else
		# Linux (kernel/user_namespace.c, create_user_ns(), 6.18) refuses a chrooted
		# process a user namespace: sbuild's and schroot's builds run in a chroot.
		echo "cannot mount over $what: ${ns_enter[*]} refused (in a chroot, or user namespaces disabled)"
	fi
}

# need_mounts NAME [WHAT]: a private namespace (tests/lib.sh's ns_enter) where this process may
# mount over WHAT (/sys, /proc files, /run, /dev): root's mount namespace, or any other user's
# user namespace. SKIP, saying why, where the kernel refuses it; umockdev (need_tree) redirects
# /sys only, so nothing stands in for /proc, /run or /dev.
need_mounts() {
	[ "$ns_mounts" = yes ] && return 0
	skip "$1" "$(mounts_refused "${2:-}")"
	return 1
}

# need_tree NAME: in_ns --sys (and in_tree, on) with no other option: a private namespace as
# need_mounts has, or else tests/lib.sh's sys_fallback. SKIP, saying why, where neither.
need_tree() {
	[ "$ns_mounts" = yes ] && return 0
	[ "$sys_fallback" = umockdev ] && return 0
	skip "$1" "$(mounts_refused), and $sys_fallback_why"
	return 1
}

# need_unreadable NAME PROGRAM: a way to run PROGRAM where a file of the suite's cannot be read:
# as nobody (root: need_nobody), or as this user where no namespace makes it root (not root,
# the fake trees under umockdev: a package build). Sets as_reader, the command prefix, and
# unreadable, the mode that hides a file from it.
need_unreadable() {
	# shellcheck disable=SC2034 # for the scripts that source this file
	if [ "$(id -u)" != 0 ] && [ "$ns_mounts" = no ] && [ "$sys_fallback" = umockdev ]; then
		as_reader=() unreadable=0000
		return 0
	fi
	need_nobody "$1" "$2" || return 1
	# shellcheck disable=SC2034 # for the scripts that source this file
	as_reader=(setpriv --reuid=nobody --regid=nogroup --clear-groups) unreadable=0400
}

# need_nobody NAME PROGRAM: setpriv, and a build tree and work directory that the user nobody
# can reach (a tree under a 0700 home or mktemp directory is not). Opens $work to everyone.
need_nobody() {
	need_root "$1" || return 1
	if ! command -v setpriv >/dev/null; then
		skip "$1" "no setpriv to run as nobody"
		return 1
	fi
	chmod 0755 "$work"
	if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$2" ||
		! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$work"; then
		skip "$1" "the user nobody cannot reach $2 or $work"
		return 1
	fi
}

# need_sysfs NAME: the kernel's own writable /sys, for real loop devices.
need_sysfs() {
	need_root "$1" || return 1
	if [ ! -d /sys/class/block ]; then
		skip "$1" "no sysfs at /sys"
	elif [ ! -w /sys/class/block ] || grep -qE '^[^ ]+ /sys [^ ]+ ([^ ]*,)?ro[, ]' /proc/self/mounts; then
		skip "$1" "/sys is read-only"
	elif ! losetup -f >/dev/null 2>&1; then
		skip "$1" "no free loop device"
	else
		return 0
	fi
	return 1
}

# need_udevd NAME: need_sysfs, and what a private systemd-udevd (tests/lib.sh, udevd_start)
# needs: the daemon of UDEV_ROOT or of this machine (a FAIL without it: package udev is a
# build dependency), python3 for its log and notification sink, and /proc/sys, where udevd
# reads its limits.
need_udevd() {
	need_sysfs "$1" || return 1
	if [ ! -x "$UDEV_ROOT$UDEVD" ]; then
		fail "$1" "$UDEV_ROOT$UDEVD is missing (package udev)"
	elif ! command -v python3 >/dev/null; then
		skip "$1" "python3 is missing"
	elif [ ! -d /proc/sys ]; then
		skip "$1" "no /proc/sys"
	else
		return 0
	fi
	return 1
}

# A config file with these lines; prints its path. Each call makes a new file.
config() {
	local file
	file=$(mktemp "$work/conf.XXXXXX") || return 1
	printf '%s\n' "$@" >"$file"
	chmod 0644 "$file"
	echo "$file"
}

# udevd_up TITLE RULES LOOP...: the private udevd (tests/lib.sh) with the rules of
# $work/rules.d, for the LOOPs; PASS TITLE when it is ready, then a check that it read the
# rule files RULES (their paths under /run/udev/rules.d, in its order) and none of the
# machine's. When it does not start, FAIL TITLE with why, and the script ends there.
udevd_up() {
	local title=$1 rules=$2
	shift 2
	if ! udevd_start "$work/rules.d" "$@" >"$work/why"; then
		fail "$title" "$(cat "$work/why")"
		finish
		exit
	fi
	pass "$title"
	check "udevd reads the test rules and none of the machine's" -- is "the rule files read" \
		"$(sed -n 's/^Reading rules file: //p' "$udevd_log" | xargs)" "$rules"
}

finish() {
	local why
	if [ "$reports" -gt 0 ]; then
		why=$(schema_valid --strict "$work/reports"/*.json)
		case $? in
		0) pass "its $reports JSON reports are valid under report.schema.json" ;;
		77) skip "its JSON reports are valid under report.schema.json" "${why#SKIP: }" ;;
		*) fail "its $reports JSON reports are valid under report.schema.json" "$why" ;;
		esac
	fi
	echo "$suite: $passed passed, $failed failed, $skipped skipped"
	echo "$passed $failed $skipped" >"${RESULTS:-/dev/null}"
	[ "$failed" = 0 ]
}
