# Shared by the integration tests: counters, assertions, and the helpers that set up fake
# sysfs trees and loop devices. Each test script sources it and ends with `finish`.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
HELPER=${HELPER:-$top/hyperv-scheduler}
NOCPUID=${NOCPUID:-$top/tests/hyperv-scheduler-nocpuid}
RULE=${RULE:-$top/rules/60-hyperv-scheduler.rules.out}
suite=$(basename "$0" .sh)
passed=0 failed=0 skipped=0
work=$(mktemp -d "${TMPDIR:-/tmp}/hyperv-scheduler-test.XXXXXX")
loops=()

# MEMCHECK=1: every run of the helper goes through valgrind's memcheck, and any error it
# reports turns into exit status 99, which no test expects.
if [ "${MEMCHECK:-}" = 1 ]; then
        for var in HELPER NOCPUID; do
                real=${!var}
                printf '#!/bin/sh\nexec valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect "%s" "$@"\n' \
                        "$real" >"$work/$var"
                chmod 0755 "$work/$var"
                printf -v "$var" '%s' "$work/$var"
        done
fi

cleanup() {
        local l
        for l in "${loops[@]}"; do
                losetup -d "$l" 2>/dev/null
        done
        rm -rf "$work"
}
trap cleanup EXIT

pass() { passed=$((passed + 1)); echo "PASS: $suite: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $suite: $1: $2"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $suite: $1: $2"; }

# Runs a command, keeping its stdout, stderr and exit status in $out, $err and $status.
capture() {
        "$@" >"$work/out" 2>"$work/err" </dev/null
        status=$?
        out=$(cat "$work/out")
        err=$(cat "$work/err")
}

# expect NAME STATUS [STDOUT-SUBSTRING [STDERR-SUBSTRING]]: checks the last capture.
expect() {
        local name=$1 want=$2 want_out=${3:-} want_err=${4:-}
        if [ "$status" != "$want" ]; then
                fail "$name" "exit status $status, expected $want; stderr: $err"
        elif [ -n "$want_out" ] && [[ "$out" != *"$want_out"* ]]; then
                fail "$name" "stdout lacks '$want_out': $out"
        elif [ -n "$want_err" ] && [[ "$err" != *"$want_err"* ]]; then
                fail "$name" "stderr lacks '$want_err': $err"
        else
                pass "$name"
        fi
}

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

# A fixture tree (tests/fixtures/mktree) built into the work directory; prints its root.
make_tree() {
        local dir="$work/tree-$1${2:+-$2}"
        [ -d "$dir" ] || "$top/tests/fixtures/mktree" "$@" "$dir" >/dev/null || return 1
        echo "$dir"
}

# in_tree TREE COMMAND...: runs COMMAND with the fake tree over /sys, in a private mount
# namespace so that the machine's /sys is untouched, with libudev told to trust it.
in_tree() {
        local tree=$1
        shift
        unshare -m -- sh -c 'mount --bind "$0/sys" /sys && exec env SYSTEMD_DEVICE_VERIFY_SYSFS=0 "$@"' \
                "$tree" "$@"
}

# A checksum of every file and link in a tree, to prove a run wrote nothing else.
tree_sum() {
        (cd "$1" && find . \( -type f -o -type l \) -print0 | sort -z |
                xargs -0 -r sh -c 'for f; do if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f $(sha256sum < "$f")"; fi; done' sh) |
                sha256sum
}

# make_loop VAR: a loop device on a temp file, detached at exit; its kernel name goes into VAR.
# Not a command substitution: the list of loops to detach must stay in this shell.
make_loop() {
        local file="$work/disk-${#loops[@]}.img" dev
        truncate -s 8M "$file" || return 1
        dev=$(losetup -f --show "$file") || return 1
        loops+=("$dev")
        printf -v "$1" '%s' "${dev#/dev/}"
}

# A config file with these lines; prints its path. Each call makes a new file.
config() {
        local file
        file=$(mktemp "$work/conf.XXXXXX") || return 1
        printf '%s\n' "$@" >"$file"
        echo "$file"
}

finish() {
        echo "$suite: $passed passed, $failed failed, $skipped skipped"
        echo "$passed $failed $skipped" >"${RESULTS:-/dev/null}"
        [ "$failed" = 0 ]
}

# udev_test TREE ACTION DEVICE [RULE-FILE...]: what udevadm test says for an event on DEVICE of
# the fake tree, with the shipped rule (and any extra rule files) in a private /run. udevadm
# test really writes udev's database and /dev links, and its rules probe /dev nodes: /run and
# /dev are private, empty tmpfs, so nothing reaches the machine's.
udev_test() {
        local tree=$1 action=$2 device=$3
        shift 3
        unshare -m -- sh -c '
                tree=$1 action=$2 device=$3 rule=$4
                shift 4
                mount --bind "$tree/sys" /sys && mount -t tmpfs tmpfs /run &&
                        mount -t tmpfs tmpfs /dev &&
                        mkdir -p /run/udev/rules.d &&
                        cp "$rule" /run/udev/rules.d/60-hyperv-scheduler.rules &&
                        { [ $# = 0 ] || cp "$@" /run/udev/rules.d/; } &&
                        SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action="$action" "/sys/class/block/$device" 2>&1' \
                sh "$tree" "$action" "$device" "$RULE" "$@"
}
