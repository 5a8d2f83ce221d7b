# shellcheck shell=bash
# The shell library of tests/integration, bench/ and .ci/: a work directory and loop devices
# undone at exit, fake sysfs trees (tests/fixtures/mktree.sh), private mount namespaces that put
# a tree, a kernel command line or a kernel release in place of the machine's, `udevadm test`
# in a private /run and /dev and the one reader of its output, and a private systemd-udevd
# (the machine's or another release's) handling real events for loop devices. Sourced by
# bash; it sets no shell options, so each script keeps its own (bench and .ci stop at the first
# error, the tests do not).
#
# Before sourcing, a script may set lib_name (names the work directory), lib_tmp (where it goes
# when TMPDIR is unset; default /tmp: /var/tmp for big files), prog (names it in die's messages)
# and die_status. It adds its own cleanup to the at_exit array (run last added, first) rather
# than trapping EXIT itself.

# shellcheck disable=SC2034 # for the scripts that source this
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HELPER=${HELPER:-$top/hyperv-scheduler}
TESTFACTS=${TESTFACTS:-$top/tests/hyperv-scheduler-testfacts}
RULE=${RULE:-$top/rules/60-hyperv-scheduler.rules.out}
MKTREE=$top/tests/fixtures/mktree.sh
FIXTURES=$top/tests/fixtures

# die MESSAGE...: stops the script with "PROG: MESSAGE" on standard error, PROG its prog or,
# unset, its file name; the exit status is die_status, 1 unless set (2 for bad use, say).
die() {
	printf '%s: %s\n' "${prog:-${0##*/}}" "$*" >&2
	exit "${die_status:-1}"
}

work=$(mktemp -d "${TMPDIR:-${lib_tmp:-/tmp}}/hyperv-scheduler-${lib_name:-test}.XXXXXX") || exit 1
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
		# The record a write to it left (hyperv-scheduler(8), RECORD): of this loop.
		rm -f "/run/hyperv-scheduler/${loops[$i]#/dev/}"
	done
	# Where those were the only records, the directory the helper made for them.
	[ ${#loops[@]} = 0 ] || rmdir /run/hyperv-scheduler 2>/dev/null || true
	# A mount left under the work directory may be the machine's /sys or /dev bound into a
	# chroot: rm -rf would go through it. Kept, and the script fails. A chroot without /proc
	# has no mount table to read, and findmnt says so on every exit: quiet.
	if findmnt -rn -o TARGET 2>/dev/null | awk -v w="$work" '$0 == w || index($0, w "/") == 1 { f = 1 } END { exit !f }'; then
		echo "${prog:-${0##*/}}: mounts left under $work; not removing it" >&2
		exit $((lib_status ? lib_status : 1))
	fi
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
		--sys)
			sys=$2
			shift 2
			;;
		--cmdline)
			cmdline=$2
			shift 2
			;;
		--osrelease)
			osrelease=$2
			shift 2
			;;
		--)
			shift
			break
			;;
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
                        # What the helper says of a fake disk goes into no log of this machine:
                        # journald'"'"'s /dev/log points into the /run just covered; a socket of
                        # its own and the kernel'"'"'s /dev/kmsg get /dev/null.
                        [ ! -S /dev/log ] || mount --bind /dev/null /dev/log 2>/dev/null || :
                        [ ! -c /dev/kmsg ] || mount --bind /dev/null /dev/kmsg 2>/dev/null || :
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

# copy_tree DIR: this tree as it is in the working tree into DIR (made), for a build of its own:
# the files git knows, less those deleted, and the new ones it does not ignore; no build output.
copy_tree() {
	mkdir -p "$1" || return
	# shellcheck disable=SC2016 # expanded by the inner shell
	(cd "$top" && git ls-files -z -c -o --exclude-standard |
		xargs -0 sh -c 'for f; do [ ! -e "$f" ] || printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -C "$1" -xf -
}

# install_list SRCDIR DESTDIR [VARIABLE=VALUE...]: `make install` of the tree SRCDIR into DESTDIR
# (with these make variables), then what it installed, in package_list's form: the man pages
# named as the packages compress them (.gz).
install_list() {
	local src=$1 dest=$2
	shift 2
	make -s -C "$src" install DESTDIR="$dest" "$@" >/dev/null || return
	(cd "$dest" && find . ! -type d -printf '%#m /%P\n') | sed 's/\.\([58]\)$/.\1.gz/' | LC_ALL=C sort
}

# package_list FILE: what the .deb or RPM FILE installs, one "MODE /PATH" a line (0644), sorted;
# not the documentation nor the RPM's build-id links, which are the packaging's own. A mode but
# 0755 and 0644 stays as ls writes it, and so differs from install_list's.
package_list() {
	case $1 in
	*.deb) dpkg-deb --fsys-tarfile "$1" | tar -tvf - | awk '$1 !~ /^d/ { print $1, substr($6, 2) }' ;;
	*.rpm) rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$1" | awk '$1 !~ /^d/' ;;
	*)
		echo "package_list: not a .deb or .rpm: $1" >&2
		return 1
		;;
	esac | grep -v -e ' /usr/share/doc/' -e ' /usr/share/licenses/' -e ' /usr/lib/\.build-id/' |
		sed -e 's/^-rwxr-xr-x /0755 /' -e 's/^-rw-r--r-- /0644 /' | LC_ALL=C sort
}

# check_report FILE VERSION: the installed helper's --dry-run --json report in FILE parses,
# names VERSION and the shipped config, a known verdict, and a known action for every disk.
# Prints "report parses: verdict V, N disks", or fails naming the value that is wrong. Python:
# autopkgtest's testbed has python3 (debian/tests Depends), not jq.
check_report() {
	python3 - "$1" "$2" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["version"] == sys.argv[2], report["version"]
assert report["machine"]["verdict"] in (
    "hyperv-guest", "hyperv-root", "other-hypervisor", "bare-metal", "unknown"), report["machine"]
assert report["policy"]["config"] == "/etc/hyperv-scheduler.conf", report["policy"]
for d in report["devices"]:
    assert d["action"] in ("would-change", "already", "skipped"), d
print(f"report parses: verdict {report['machine']['verdict']}, {len(report['devices'])} disks")
PY
}

# readme_command MARKER: the README's indented line after its one line that starts with
# "<!-- MARKER:" (".ci/readme-fresh.sh install", "make check-vm readme-check"), for a check that
# runs it as written. Fails, saying why, where the marker is missing, there twice, or not
# followed by an indented line.
readme_command() {
	awk -v m="<!-- $1:" '
		index($0, m) == 1 { found++; want = 1; next }
		want && /^$/ { next }
		want { if (/^    [^ ]/) { sub(/^    /, ""); cmd = $0 } ; want = 0 }
		END {
			if (found != 1) { print "marker \"" m "\" found " found + 0 " times" > "/dev/stderr"; exit 1 }
			if (cmd == "") { print "no indented line after \"" m "\"" > "/dev/stderr"; exit 1 }
			print cmd
		}' "$top/README.md"
}

# report_schema SCHEMA FILE...: each JSON report FILE is valid under SCHEMA (report.schema.json,
# JSON Schema 2020-12), checked by python3-jsonschema; prints each error as "FILE: at PATH:
# MESSAGE". Exit status 77, saying why, without python3-jsonschema.
report_schema() {
	python3 "$top/tests/report-schema.py" "$@"
}

# UDEV_ROOT: a root directory holding another release's udev (a minbase chroot of Debian 13 or
# unstable, .ci/udevd-releases.sh): udev_test and udevd_start then run its udevadm and
# systemd-udevd, chrooted, on this kernel; this tree and the work directory are bind-mounted
# into it at the same paths. Empty: the machine's own.
UDEV_ROOT=${UDEV_ROOT:-}

# udev_hide ROOT: in a private mount namespace, empty tmpfs over ROOT's udev rule directories,
# but for /run's, so that only the rules a test puts in /run/udev/rules.d are read. /lib may
# be /usr/lib: hiding a directory twice does no harm. Shell text, for the inner shells below.
# shellcheck disable=SC2016 # expanded by the inner shell
udev_hide='for d in /etc/udev/rules.d /usr/local/lib/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d; do
        [ ! -d "$root$d" ] || mount -t tmpfs -o mode=0755 hyperv-scheduler-norules "$root$d" || exit 125
done'

# udev_enter: shell text that makes UDEV_ROOT ($root in the inner shell) usable: the kernel's
# /sys and /proc, this tree and the work directory at their own paths.
# shellcheck disable=SC2016 # expanded by the inner shell
udev_enter='if [ -n "$root" ]; then
        mount --rbind /sys "$root/sys" && mount --bind /proc "$root/proc" || exit 125
        for d in "$top" "$work"; do
                mkdir -p "$root$d" && mount --bind "$d" "$root$d" || exit 125
        done
fi'

# udev_test TREE ACTION DEVICE [RULE-FILE...]: what udevadm test says (stdout and stderr) for
# an event on DEVICE of TREE (or of the kernel's /sys when TREE is empty), with $RULE (unless
# RULE is empty: the installed rules) and any RULE-FILEs in a private /run, the machine's
# local rules (/etc/udev/rules.d) hidden. udevadm test really writes udev's database and
# /dev links, and its rules probe /dev nodes: /run and /dev are private, empty tmpfs, so
# nothing reaches the machine's. What it can show is which rule lines match and what udev
# would RUN (udev_test_runs): from udev 257 it writes no ATTR, so what a rule's write does to
# a later rule only a running udevd shows (udevd_start).
udev_test() {
	local tree=$1 action=$2 device=$3
	shift 3
	# shellcheck disable=SC2016 # expanded by the inner shell
	"${ns_enter[@]}" -- sh -c '
                root=$1 top=$2 work=$3 tree=$4 action=$5 device=$6 rule=$7
                shift 7
                '"$udev_enter"'
                if [ -n "$tree" ]; then
                        mount --bind "$tree/sys" "$root/sys" || exit 125
                        export SYSTEMD_DEVICE_VERIFY_SYSFS=0
                fi
                # /dev/null bound from the machine: a user namespace may not mknod.
                mount -t tmpfs tmpfs "$root/run" && mount -t tmpfs -o mode=0755 tmpfs "$root/dev" &&
                        : >"$root/dev/null" && mount --bind /dev/null "$root/dev/null" &&
                        mkdir -p "$root/run/udev/rules.d" || exit 125
                [ ! -d "$root/etc/udev/rules.d" ] ||
                        mount -t tmpfs tmpfs "$root/etc/udev/rules.d" || exit 125
                [ -z "$rule" ] || cp "$rule" "$root/run/udev/rules.d/60-hyperv-scheduler.rules" || exit 125
                for f; do
                        cp "$f" "$root/run/udev/rules.d/" || exit 125
                done
                exec ${root:+chroot "$root"} udevadm test --action="$action" "/sys/class/block/$device" 2>&1' \
		sh "$UDEV_ROOT" "$top" "$work" "$tree" "$action" "$device" "$RULE" "$@"
}

# udev_test_runs FILE: the programs that udevadm test's output FILE says udev would RUN, one
# a line: "run: 'CMD'" up to udev 256, "  RUN{program} : CMD" from 257. False, printing
# nothing, when FILE names none.
udev_test_runs() {
	sed -n -e "s/^run: '\(.*\)'\$/\1/p" -e 's/^ *RUN{program} : \(.*\)$/\1/p' "$1" | grep .
}

# The private systemd-udevd: udevd_start, udevd_events, udevadm_ns, udevd_drain, udevd_stop.
# It runs in a private mount namespace: a tmpfs /run holds its control socket, queue, database
# and the test's rules; empty tmpfs hide the rule directories of the machine (or of UDEV_ROOT),
# which would otherwise run for the loops too; /dev is a tmpfs with /dev/null (stdin of the
# programs udevd runs), the test's loop device nodes, and /dev/log, a socket of the sink's.
# udevd sees every add event of the machine, other users' loops included: the test rules must
# act on the loops of this script only (udevd_rule).
UDEVD=${UDEVD:-/lib/systemd/systemd-udevd}
# udevd_syslog=no: no /dev/log, so the helper's syslog lines go nowhere (bench/storm.sh).
udevd_syslog=${udevd_syslog:-yes}
udevd_pid='' udevd_status='' udevd_log=$work/udevd.log
udevd_sink_pid='' udevd_sink=''

# A stand-in for a syslog daemon and for systemd's notification socket: prints each datagram
# as one line, "log TEXT" or "notify TEXT", after "ready" once both sockets are bound.
udevd_sink_py='
import select, socket, sys
socks = {}
for tag, path in (("log", sys.argv[1]), ("notify", sys.argv[2])):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    socks[s] = tag
print("ready", flush=True)
while True:
    for s in select.select(list(socks), [], [])[0]:
        print(socks[s], s.recv(65536).decode(errors="replace").strip().replace("\n", " "), flush=True)
'

# Through a FIFO, so that a read waits for the next line: udevd's READY=1, or a marker sent
# after the helper's lines. The sink gets SIGTERM if this shell dies.
udevd_start_sink() {
	mkfifo "$work/sink" || return 1
	setpriv --pdeathsig TERM python3 -c "$udevd_sink_py" "$work/log.sock" "$work/notify.sock" \
		>"$work/sink" 2>"$work/sink.err" &
	udevd_sink_pid=$!
	exec {udevd_sink}<"$work/sink"
	local line=''
	read -r -t 30 -u "$udevd_sink" line
	[ "$line" = ready ] || {
		echo "the syslog socket did not start: $(cat "$work/sink.err")"
		return 1
	}
}

# udevd_start RULES-DIR LOOP...: the sink, then UDEVD (of UDEV_ROOT, chrooted, where set) with
# the rule files of RULES-DIR and device nodes for the LOOPs; true once it says READY=1, on
# NOTIFY_SOCKET. It gets SIGTERM if this shell dies, and starts with --debug so that its log
# ($udevd_log) names the rule files it read. Says why when it fails.
udevd_start() {
	local rules=$1 l nodes=()
	shift
	for l; do
		nodes+=("$l" "$(cat "/sys/block/$l/dev")")
	done
	udevd_start_sink || return 1
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m -- sh -c '
                root=$1 top=$2 work=$3 rules=$4 udevd=$5 syslog=$6
                shift 6
                set -e
                '"$udev_enter"'
                mount -t tmpfs tmpfs "$root/run"
                mkdir -p "$root/run/udev/rules.d"
                find "$rules" -maxdepth 1 -name "*.rules" -exec cp -t "$root/run/udev/rules.d/" {} +
                '"$udev_hide"'
                mount -t tmpfs -o mode=0755 tmpfs "$root/dev"
                mknod -m 0666 "$root/dev/null" c 1 3
                mknod -m 0666 "$root/dev/urandom" c 1 9
                [ "$syslog" = no ] || ln -s "$work/log.sock" "$root/dev/log"
                while [ $# -gt 0 ]; do
                        mknod -m 0660 "$root/dev/$1" b "${2%:*}" "${2#*:}"
                        shift 2
                done
                exec env NOTIFY_SOCKET="$work/notify.sock" setpriv --pdeathsig TERM \
                        ${root:+chroot "$root"} "$udevd" --debug --resolve-names=never' \
		sh "$UDEV_ROOT" "$top" "$work" "$rules" "$UDEVD" "$udevd_syslog" "${nodes[@]}" \
		>"$udevd_log" 2>&1 &
	udevd_pid=$!
	at_exit+=(udevd_stop)
	local tag line waited=0
	while [ $waited -lt 30 ]; do
		if read -r -t 1 -u "$udevd_sink" tag line; then
			[ "$tag" = notify ] && [[ $line == *READY=1* ]] && return 0
		else
			kill -0 "$udevd_pid" 2>/dev/null || break
			waited=$((waited + 1))
		fi
	done
	echo "udevd is not ready; its log: $(tail -5 "$udevd_log")"
	return 1
}

# udevd_stop: SIGTERM to udevd, its exit status in udevd_status; then the sink's end.
udevd_stop() {
	local pid
	if [ -n "$udevd_pid" ]; then
		pid=$udevd_pid udevd_pid='' udevd_status=0
		kill "$pid" 2>/dev/null
		wait "$pid" || udevd_status=$?
	fi
	if [ -n "$udevd_sink_pid" ]; then
		pid=$udevd_sink_pid udevd_sink_pid=''
		kill "$pid" 2>/dev/null
		wait "$pid" || true
	fi
	[ -z "$udevd_sink" ] || exec {udevd_sink}<&-
	udevd_sink=
}

# udevadm_ns ARG...: udevadm (UDEV_ROOT's, where set) in udevd's namespace. --root: entering
# a mount namespace puts the caller at that namespace's own root, which in a chroot is not the
# chroot's; udevd's /run is under its own root.
udevadm_ns() { nsenter --mount --root --target "$udevd_pid" udevadm "$@"; }

# udevd_rules [RULE-FILE...]: the running udevd's rules become these files, read again.
udevd_rules() {
	# shellcheck disable=SC2016 # expanded by that sh
	nsenter --mount --root --target "$udevd_pid" sh -c '
                rm -f /run/udev/rules.d/*.rules && { [ $# = 0 ] || cp "$@" /run/udev/rules.d/; }' sh "$@" &&
		udevadm_ns control --reload
}

# udevd_events LOOP...: an add event for each loop at once, then waits for udevd to finish
# them all (udevd_settle seconds at most); the time that took goes into $ms.
udevd_settle=${udevd_settle:-120}
udevd_events() {
	local l matches=() t0 t1
	for l; do
		matches+=("--sysname-match=$l")
	done
	t0=$(date +%s%N)
	udevadm_ns trigger --action=add --subsystem-match=block "${matches[@]}" &&
		udevadm_ns settle --timeout="$udevd_settle" || return 1
	t1=$(date +%s%N)
	# shellcheck disable=SC2034 # for the scripts that source this
	ms=$(((t1 - t0) / 1000000))
}

# udevd_drain FILE: the syslog lines the sink got since the last drain go into FILE. A marker
# sent now comes back after them: datagrams on one socket keep their order.
udevd_marker=0
udevd_drain() {
	local tag line
	udevd_marker=$((udevd_marker + 1))
	: >"$1"
	logger --socket "$work/log.sock" -- "udevd marker $udevd_marker" || return 1
	while read -r -t 30 -u "$udevd_sink" tag line; do
		[ "$tag" = log ] || continue
		[[ $line == *"udevd marker $udevd_marker" ]] && return 0
		printf '%s\n' "$line" >>"$1"
	done
	return 1
}

# udevd_rule [--uncounted] CONF LOOP...: $work/rules.d/60-hyperv-scheduler.rules, the
# shipped rule ($RULE) with two differences: its loop guard lets the LOOPs through (and no
# other loop), and RUN starts the helper with --config CONF through a wrapper that counts its
# runs: one line with the disk's name each, in $udevd_runs (--uncounted: the helper itself).
# RUN's program as the shipped rule names it goes into udevd_prog, the line that replaces
# RUN's into udevd_run.
udevd_runs=$work/runs
udevd_rule() {
	local counter=$work/count-helper shipped_run alts
	[ "$1" != --uncounted ] || {
		counter=$HELPER
		shift
	}
	local conf=$1
	shift
	alts=$(
		IFS='|'
		echo "$*"
	)
	if [ "$counter" != "$HELPER" ]; then
		# shellcheck disable=SC2016 # expanded by that sh
		printf '#!/bin/sh\nfor disk; do :; done\necho "$disk" >>"%s"\nexec "%s" "$@"\n' \
			"$udevd_runs" "$HELPER" >"$counter" && chmod 0755 "$counter" || return 1
	fi
	: >"$udevd_runs"
	shipped_run=$(grep '^RUN+="' "$RULE") || return 1
	udevd_prog=${shipped_run#RUN+=\"}
	udevd_prog=${udevd_prog%% *}
	udevd_run="RUN+=\"$counter --config $conf ${shipped_run#RUN+=\""$udevd_prog" }"
	mkdir -p "$work/rules.d"
	awk -v alts="$alts" -v prog="$udevd_prog" -v run="$udevd_run" '
                /^KERNEL=="loop\*\|/ {
                        print "KERNEL==\"loop*\", KERNEL!=\"" alts "\", GOTO=\"hyperv_scheduler_end\""
                        sub(/loop\*\|/, "")
                }
                index($0, "RUN+=\"" prog " ") == 1 { $0 = run }
                { print }' "$RULE" >"$work/rules.d/60-hyperv-scheduler.rules"
}
