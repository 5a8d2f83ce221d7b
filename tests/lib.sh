# shellcheck shell=bash
# The shell library of tests/integration, bench/ and .ci/: a work directory and loop devices
# undone at exit, fake sysfs trees (tests/fixtures/mktree), private mount namespaces that put
# a tree, a kernel command line or a kernel release in place of the machine's, and `udevadm
# test` in a private /run and /dev. Sourced by bash; it sets no shell options, so each script
# keeps its own (bench and .ci stop at the first error, the tests do not).
#
# Before sourcing, a script may set lib_name (names the work directory) and prog (names it in
# die's messages). It adds its own cleanup to the at_exit array (run last added, first) rather
# than trapping EXIT itself.

# shellcheck disable=SC2034 # for the scripts that source this
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HELPER=${HELPER:-$top/hyperv-scheduler}
TESTFACTS=${TESTFACTS:-$top/tests/hyperv-scheduler-testfacts}
RULE=${RULE:-$top/rules/60-hyperv-scheduler.rules.out}
MKTREE=$top/tests/fixtures/mktree
FIXTURES=$top/tests/fixtures

# die MESSAGE...: stops the script with "PROG: MESSAGE" on standard error, PROG its prog or,
# unset, its file name.
die() {
        printf '%s: %s\n' "${prog:-${0##*/}}" "$*" >&2
        exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/hyperv-scheduler-${lib_name:-test}.XXXXXX") || exit 1
loops=() loop_files=() loop_schedulers=() at_exit=()

# The exit status the script ends with is in $lib_status for the at_exit commands.
lib_cleanup() {
        # shellcheck disable=SC2034 # for the at_exit commands
        lib_status=$?
        local i
        for ((i = ${#at_exit[@]} - 1; i >= 0; i--)); do
                eval "${at_exit[$i]}"
        done
        # Only the loops this script attached, and only while they still hold its file. A loop
        # node keeps its scheduler when it is detached: the one it had goes back first.
        for i in "${!loops[@]}"; do
                [ "$(losetup -n -O BACK-FILE "${loops[$i]}" 2>/dev/null)" = "${loop_files[$i]}" ] ||
                        continue
                [ -z "${loop_schedulers[$i]}" ] ||
                        echo "${loop_schedulers[$i]}" >"/sys/block/${loops[$i]#/dev/}/queue/scheduler" ||
                        echo "cannot restore the scheduler of ${loops[$i]}" >&2
                losetup -d "${loops[$i]}" || echo "cannot detach ${loops[$i]}" >&2
        done
        rm -rf "$work"
}
trap lib_cleanup EXIT

# make_loop VAR: a loop device over a sparse 8 MiB file in the work directory; its kernel name
# goes into VAR. Not a command substitution: the list of loops to detach stays in this shell.
# The node may be one another run left on some scheduler: that one is put back at exit.
make_loop() {
        local file="$work/loop-${#loops[@]}.img" dev
        truncate -s 8M "$file" || return 1
        dev=$(losetup -f --show "$file") || return 1
        loops+=("$dev")
        loop_files+=("$(losetup -n -O BACK-FILE "$dev")")
        loop_schedulers+=("$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/${dev#/dev/}/queue/scheduler" 2>/dev/null)")
        printf -v "$1" '%s' "${dev#/dev/}"
}

# make_tree MKTREE-ARGS...: a fixture tree (azure, legacy, many 100, ...) built once into the
# work directory; prints its root.
make_tree() {
        local dir=$work/tree
        dir+=$(printf -- '-%s' "$@")
        [ -d "$dir" ] || "$MKTREE" "$@" "$dir" >/dev/null || return 1
        echo "$dir"
}

# The namespace in_ns and udev_test enter: a private mount namespace; for a user other than
# root, inside a user namespace of its own where it is root and may mount (a package build
# runs as such a user: sbuild's unshare mode, itself in a user namespace, allows a nested one).
# need_mounts says SKIP where even that is refused.
if [ "$(id -u)" = 0 ]; then
        ns_enter=(unshare -m)
else
        ns_enter=(unshare -Urm)
fi

# ns_mounts: yes where ns_enter may mount over /sys here, no where the kernel refuses it (a
# user other than root in a chroot: sbuild's unshare mode).
if "${ns_enter[@]}" -- mount -t tmpfs tmpfs /sys 2>/dev/null; then
        ns_mounts=yes
else
        ns_mounts=no
fi

# sys_fallback: where ns_mounts is no, how in_ns --sys still puts a tree in place of /sys:
# umockdev's preload library, which sends the /sys paths a process opens to $UMOCKDEV_DIR/sys
# (TREE is such a testbed), or empty with the reason it cannot in sys_fallback_why. It does
# not give a private /run: only where this system has no /run/udev, so that libudev finds no
# udev database there, as in the empty /run of the namespace.
sys_fallback='' sys_fallback_why=''
if [ "$ns_mounts" = yes ]; then
        :
elif ! command -v umockdev-wrapper >/dev/null; then
        sys_fallback_why="no umockdev-wrapper (package umockdev) to redirect /sys instead"
elif [ -e /run/udev ]; then
        sys_fallback_why="umockdev would leave libudev the udev database of /run/udev here"
else
        sys_fallback=umockdev
fi

# in_ns [--sys TREE] [--cmdline FILE] [--osrelease FILE] [--] COMMAND...: COMMAND in a
# private mount namespace with TREE's sys over /sys (libudev told to trust it) and an empty
# /run (no udev database of the machine's), FILE over /proc/cmdline or
# /proc/sys/kernel/osrelease. Nothing the machine has is touched. Where no such namespace
# may mount, --sys alone runs COMMAND under umockdev (sys_fallback); umockdev redirects no
# /proc file, so --cmdline and --osrelease exit 125 there, as a refused mount does.
in_ns() {
        local sys='' cmdline='' osrelease=''
        while [ $# -gt 0 ]; do
                case $1 in
                --sys) sys=$2; shift 2 ;;
                --cmdline) cmdline=$2; shift 2 ;;
                --osrelease) osrelease=$2; shift 2 ;;
                --) shift; break ;;
                *) break ;;
                esac
        done
        if [ "$ns_mounts" = no ] && [ -n "$sys" ] && [ "$sys_fallback" = umockdev ]; then
                [ -z "$cmdline$osrelease" ] || return 125
                UMOCKDEV_DIR=$sys SYSTEMD_DEVICE_VERIFY_SYSFS=0 umockdev-wrapper "$@"
                return
        fi
        # shellcheck disable=SC2016 # expanded by the inner shell
        "${ns_enter[@]}" -- sh -c '
                sys=$1 cmdline=$2 osrelease=$3
                shift 3
                if [ -n "$sys" ]; then
                        mount --bind "$sys/sys" /sys && mount -t tmpfs hyperv-scheduler-run /run || exit 125
                        export SYSTEMD_DEVICE_VERIFY_SYSFS=0
                fi
                [ -z "$cmdline" ] || mount --bind "$cmdline" /proc/cmdline || exit 125
                [ -z "$osrelease" ] || mount --bind "$osrelease" /proc/sys/kernel/osrelease || exit 125
                exec "$@"' sh "$sys" "$cmdline" "$osrelease" "$@"
}

# in_tree TREE COMMAND...: in_ns --sys TREE.
in_tree() {
        local tree=$1
        shift
        in_ns --sys "$tree" -- "$@"
}

# A checksum of every file and link in a tree, to prove a run wrote nothing else.
tree_sum() {
        (cd "$1" && {
                find . -type l -printf '%p -> %l\n' | LC_ALL=C sort
                find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
        }) | sha256sum
}

# udev_test TREE ACTION DEVICE [RULE-FILE...]: what udevadm test says for an event on DEVICE
# of TREE (or of the machine's /sys when TREE is empty), with $RULE (and any extra rule files)
# in a private /run. udevadm test really writes udev's database and /dev links, and its rules
# probe /dev nodes: /run and /dev are private, empty tmpfs, so nothing reaches the machine's.
udev_test() {
        local tree=$1 action=$2 device=$3
        shift 3
        # shellcheck disable=SC2016 # expanded by the inner shell
        "${ns_enter[@]}" -- sh -c '
                tree=$1 action=$2 device=$3 rule=$4
                shift 4
                if [ -n "$tree" ]; then
                        mount --bind "$tree/sys" /sys || exit 125
                        export SYSTEMD_DEVICE_VERIFY_SYSFS=0
                fi
                mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /dev &&
                        mkdir -p /run/udev/rules.d &&
                        cp "$rule" /run/udev/rules.d/60-hyperv-scheduler.rules &&
                        { [ $# = 0 ] || cp "$@" /run/udev/rules.d/; } || exit 125
                udevadm test --action="$action" "/sys/class/block/$device" 2>&1' \
                sh "$tree" "$action" "$device" "$RULE" "$@"
}
