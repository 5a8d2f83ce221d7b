# shellcheck shell=bash
# A helper that runs at boot never blocks and never lies: files that are not regular files,
# output that cannot be written, a config that cannot be read whole, odd udev environments,
# and where its messages go under udev (syslog, /dev/kmsg without one, and only when a disk
# changes). A `timeout "$hang_limit"` guards each run that used to hang: it is no timing goal.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

full() { "$@" >/dev/full; }
closed() { "$@" >&-; }
full_stderr() { "$@" 2>/dev/full; }
fifo=$work/fifo.conf
mkfifo "$fifo"
check "a FIFO as the config file: exit 1, at once" -- exits 1 timeout "$hang_limit" "$HELPER" -c "$fifo" --all
check "  names what it is, and that nothing is changed" -- \
	stderr_is "hyperv-scheduler: cannot read '$fifo': a FIFO, not a regular file, nothing is changed"
check "a FIFO as the config of a report: exit 1, at once" -- exits 1 timeout "$hang_limit" "$HELPER" -c "$fifo" --dry-run
check "  the report says it shows the defaults" -- \
	stdout_has "config $fifo (cannot be read: the defaults shown, nothing is changed)"
check "a FIFO as the config under udev: exit 0, at once" -- \
	exits 0 timeout "$hang_limit" "$HELPER" -c "$fifo" --udev nosuchdisk0
sock=$work/sock.conf
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$sock"
check "a socket as the config file: exit 1" -- exits 1 "$HELPER" -c "$sock" --all
check "  names what it is" -- \
	stderr_is "hyperv-scheduler: cannot read '$sock': a socket, not a regular file, nothing is changed"
check "a device as the config file: exit 1" -- exits 1 "$HELPER" -c /dev/zero --all
check "  names what it is" -- \
	stderr_is "hyperv-scheduler: cannot read '/dev/zero': a character device, not a regular file, nothing is changed"
check "/dev/null as the config is an empty file: exit 0" -- exits 0 "$HELPER" -c /dev/null --dry-run
check "  and no message" -- stderr_is ""

# Output that cannot be written: exit 1 and a message, whatever was printed.
while IFS='|' read -r what how args why; do
	read -ra argv <<<"$args"
	check "$what: exit 1" -- exits 1 "$how" "$HELPER" "${argv[@]}"
	check "  says so" -- stderr_is "hyperv-scheduler: cannot write to standard output: $why"
done <<'TABLE'
--json to /dev/full|full|-c /dev/null --json|No space left on device
the text report to /dev/full|full|-c /dev/null|No space left on device
--version to /dev/full|full|--version|No space left on device
--help to /dev/full|full|--help|No space left on device
the text report to a closed stdout|closed|-c /dev/null|Bad file descriptor
--json to a closed stdout|closed|-c /dev/null --json|Bad file descriptor
--version to a closed stdout, still buffered at exit|closed|--version|Bad file descriptor
--help to a closed stdout, still buffered at exit|closed|--help|Bad file descriptor
TABLE
check "a usage error to /dev/full keeps its exit 2" -- exits 2 full "$HELPER" -c /dev/null "sd a"

# Out of memory for the config: nothing is changed, and no false "No such file". The limit
# is found by trying: the lowest data limit under which the helper starts and then fails on
# the config's 64 KiB buffer.
conf=$(config "mode = off")
limit=''
if command -v prlimit >/dev/null && [ "${MEMCHECK:-}" != 1 ] && [ "${COVERAGE:-}" != 1 ]; then
	for kib in $(seq 64 16 1024); do
		capture prlimit --data=$((kib * 1024)) "$HELPER" -c "$conf" --all
		if [[ $err == *"cannot read '$conf': Cannot allocate memory"* ]]; then
			limit=$((kib * 1024))
			break
		fi
	done
fi
if [ -n "$limit" ]; then
	check "no memory for the config: exit 1" -- exits 1 prlimit --data="$limit" "$HELPER" -c "$conf" --all
	check "  says so, and nothing else" -- \
		stderr_is "hyperv-scheduler: cannot read '$conf': Cannot allocate memory, nothing is changed"
else
	skip "no memory for the config" "no prlimit, or no data limit under which the helper starts (valgrind, sanitizers, a --coverage build)"
fi

# --quiet hides the change lines, never a warning: the package's `--all --quiet` on upgrade.
bad=$(config "mode = off" "colour = blue")
check "--all --quiet with a bad config line: exit 0" -- exits 0 "$HELPER" -c "$bad" --all --quiet
check "  the warning is shown" -- stderr_is "hyperv-scheduler: $bad:2: unknown key 'colour'"
check "--quiet --dry-run: exit 0" -- exits 0 "$HELPER" -c "$bad" --quiet --dry-run
check "  still prints the report asked for" -- stdout_has "Policy: mode off"

# A config path is shown escaped, as device names are.
odd=$work/$'new\nline'.conf
check "a config path with a newline: exit 0" -- exits 0 "$HELPER" -c "$odd" --dry-run
check "  escaped in the warning" -- \
	stderr_is "hyperv-scheduler: cannot open '$work/new\\nline.conf': No such file or directory, defaults apply"
check "  and in the report" -- stdout_has "config $work/new\\nline.conf (not found, defaults)"

if need_mounts "where messages go under udev" /dev; then
	check "--udev without /dev/log: exit 2" -- exits 0 "${log_ns[@]}" kmsg "$HELPER" -c /dev/null --udev "sd a"
	check "  the error is in /dev/kmsg" -- stdout_is \
		"kmsg <27> cannot use 'sd a': contains a space, a control character or a non-ASCII byte
exit 2"
	check "--udev without /dev/log and /dev/kmsg: exit 2" -- exits 0 "${log_ns[@]}" none "$HELPER" -c /dev/null --udev "sd a"
	check "  the error is on stderr, which udevd reads" -- stderr_is \
		"hyperv-scheduler: cannot use 'sd a': contains a space, a control character or a non-ASCII byte"
	check "--udev with a syslog: exit 2" -- exits 0 "${log_ns[@]}" syslog "$HELPER" -c /dev/null --udev "sd a"
	check "  the error is in syslog" -- stdout_is \
		"syslog <27> cannot use 'sd a': contains a space, a control character or a non-ASCII byte
exit 2"
	bad=$(config "colour = blue")
	check "--udev --json with stdout closed: exit 0" -- \
		exits 0 env CLOSE_STDOUT=1 "${log_ns[@]}" syslog "$HELPER" -c "$bad" --udev --dry-run --json nosuchdisk0
	check "  no JSON in syslog, and the failure named" -- stdout_is \
		"syslog <28> $bad:1: unknown key 'colour'
syslog <27> cannot write to standard output: Bad file descriptor
exit 1"
fi

if need_tree "fake guests"; then
	azure=$(make_tree azure)
	sda_sched=$azure/sys/class/block/sda/queue/scheduler
	sda=$(cd -P "$azure/sys/class/block/sda" && pwd)
	sda=${sda#"$azure/sys"}
	cp "$sda_sched" "$work/sda_sched"
	before=$(tree_sum "$azure")
	conf=$(config "mode = auto")
	printf '[none] mq-deadline kyber bfq\n' >"$work/on-none"
	guest() { on hyperv-guest "$azure" "$TESTFACTS" "$@"; }
	# readback FILE ARGS...: the read-back after a write reads FILE (tests/README.md).
	readback() {
		local file=$1
		shift
		on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$file" "$TESTFACTS" "$@"
	}

	# The report built in memory fails while stdout and stderr work: only the report's own
	# check fails the run.
	for args in "" --json; do
		check "a ${args:-text} report without memory: exit 1" -- exits 1 \
			on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_REPORT_ERROR=ENOMEM "$TESTFACTS" -c "$conf" --dry-run ${args:+"$args"} sda
		check "  says so, and prints no report" -- stderr_is \
			"hyperv-scheduler: cannot write the report: Cannot allocate memory"
		check "  on stdout nothing" -- stdout_is ""
	done

	# The disk removed right after the write: its read-back finds nothing.
	check "for a person a disk gone at the read-back fails: exit 1" -- exits 1 readback "$work/absent" -c "$conf" sda
	check "  naming the read-back" -- stderr_is \
		"hyperv-scheduler: cannot read back '/sys$sda/queue/scheduler': No such file or directory"
	cp "$work/sda_sched" "$sda_sched"
	check "a read-back that is a FIFO fails at once: exit 1" -- \
		exits 1 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$fifo" \
		timeout "$hang_limit" "$TESTFACTS" -c "$conf" sda
	check "  naming what it is" -- stderr_is \
		"hyperv-scheduler: cannot read back '/sys$sda/queue/scheduler': a FIFO, not a regular file"
	cp "$work/sda_sched" "$sda_sched"
	check "the change line to /dev/full: exit 1" -- exits 1 full readback "$work/on-none" -c "$conf" sda
	check "  says so" -- stderr_is "hyperv-scheduler: cannot write to standard output: No space left on device"
	cp "$work/sda_sched" "$sda_sched"
	check "--json, the change line to a standard error that fails: exit 1" -- \
		exits 1 full_stderr readback "$work/on-none" -c "$conf" --json sda
	check "  the report still on stdout" -- json_is "d['devices'][0]['action']" changed
	check "the change line to a closed stdout, still buffered at exit: exit 1" -- \
		exits 1 closed readback "$work/on-none" -c "$conf" sda
	check "  says so" -- stderr_is "hyperv-scheduler: cannot write to standard output: Bad file descriptor"
	cp "$work/sda_sched" "$sda_sched"

	# fails_at write|read-back ERRNO CMD...: CMD over the guest, where the write of a
	# scheduler or its read-back fails with ERRNO (tests/README.md). Sysfs answers ENODEV
	# for a disk deleted under an open file, ENOENT for a path already gone.
	fails_at() {
		local var=HYPERV_SCHEDULER_TEST_WRITE_ERROR
		[ "$1" = write ] || var=HYPERV_SCHEDULER_TEST_READBACK_ERROR
		on hyperv-guest "$azure" env "$var=$2" "${@:3}"
	}
	check "for a person the write failing with ENODEV fails: exit 1" -- \
		exits 1 fails_at write ENODEV "$TESTFACTS" -c "$conf" sda
	check "  naming the write" -- stderr_is \
		"hyperv-scheduler: cannot write '/sys$sda/queue/scheduler': No such device"
	check "for a person the read-back failing with ENODEV fails: exit 1" -- \
		exits 1 fails_at read-back ENODEV "$TESTFACTS" -c "$conf" sda
	check "  naming the read-back" -- stderr_is \
		"hyperv-scheduler: cannot read back '/sys$sda/queue/scheduler': No such device"
	cp "$work/sda_sched" "$sda_sched"

	# A directory on the disk's path with a newline in its name: the path in the message is
	# escaped, and the message stays one line of the log.
	nl_tree=$work/tree-newline old=target0:0:0 new=$'target0:0:0\nx'
	cp -a "$azure" "$nl_tree"
	nl_dir=$(find "$nl_tree/sys/devices" -type d -name "$old")
	mv "$nl_dir" "${nl_dir%/*}/$new"
	while IFS= read -r -d '' link; do
		target=$(readlink "$link")
		[[ $target != *"/$old/"* ]] || ln -sfn "${target//\/$old\//\/$new\/}" "$link"
	done < <(find "$nl_tree/sys" -type l -print0)
	# libudev 262 refuses such a path (EINVAL), and the helper then names the disk, not the path.
	capture on hyperv-guest "$nl_tree" "$TESTFACTS" -c "$conf" --dry-run sda
	if [ "$err" = "hyperv-scheduler: cannot find 'sda': Invalid argument" ]; then
		skip "a write failing under a path with a newline" "this libudev refuses a path with a newline: $err"
	else
		check "a write failing under a path with a newline: exit 1" -- exits 1 \
			on hyperv-guest "$nl_tree" env HYPERV_SCHEDULER_TEST_WRITE_ERROR=EACCES "$TESTFACTS" -c "$conf" sda
		check "  the path escaped, in one line" -- stderr_is \
			"hyperv-scheduler: cannot write '/sys${sda/"$old"/"$old"\\nx}/queue/scheduler': Permission denied"
	fi

	# libudev cannot be loaded (src/udevlib.c opens it with dlopen()): a run that needs it
	# fails and says why; an event that does not need it is settled all the same.
	no_libudev() { on "$1" "$azure" env HYPERV_SCHEDULER_TEST_LIBUDEV="$2" "${@:3}"; }
	check "no libudev on the system, a report: exit 1" -- \
		exits 1 no_libudev hyperv-guest missing "$TESTFACTS" -c "$conf" --dry-run sda
	# The fault opens /nonexistent/libudev.so.1 instead, so that dlerror() says why.
	check "  naming the library, with dlerror()'s reason" -- stderr_is \
		"hyperv-scheduler: cannot load 'libudev.so.1': /nonexistent/libudev.so.1: cannot open shared object file: No such file or directory"
	check "a libudev without udev_enumerate_new(), --all: exit 1" -- \
		exits 1 no_libudev hyperv-guest udev_enumerate_new "$TESTFACTS" -c "$conf" --all
	# The fault looks up udev_enumerate_new-missing; dlerror() names the file ld.so found.
	libudev=$(ldconfig -p | sed -n 's/^[[:space:]]*libudev\.so\.1 (.*) => //p' | head -n 1)
	check "  naming the function and the library, with dlerror()'s reason" -- stderr_is \
		"hyperv-scheduler: cannot find 'udev_enumerate_new' in 'libudev.so.1': $libudev: undefined symbol: udev_enumerate_new-missing"
	check "no libudev, sda changed by hand: exit 1" -- \
		exits 1 no_libudev hyperv-guest missing DEVPATH="$sda" DEVTYPE=disk "$TESTFACTS" -c "$conf" sda
	check "  naming the library, with dlerror()'s reason" -- stderr_is \
		"hyperv-scheduler: cannot load 'libudev.so.1': /nonexistent/libudev.so.1: cannot open shared object file: No such file or directory"
	check "  sda is not written" -- is "sda's scheduler file" "$(cat "$sda_sched")" "$(cat "$work/sda_sched")"
	check "no libudev, an event on KVM that needs none: exit 0" -- \
		exits 0 no_libudev kvm missing DEVPATH="$sda" DEVTYPE=disk "$TESTFACTS" -c "$conf" --udev sda
	check "  and nothing is said" -- silent

	# A config that exists but cannot be read whole changes nothing, even where the
	# defaults would: here mode auto changes sda.
	printf 'mode = off\n\0' >"$work/nul.conf"
	check "a binary config with --all: exit 1" -- exits 1 guest -c "$work/nul.conf" --all
	check "  says nothing is changed" -- \
		stderr_is "hyperv-scheduler: cannot use '$work/nul.conf': binary file (NUL bytes), nothing is changed"
	check "  and nothing is written" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
	check "a report with it: exit 1" -- exits 1 guest -c "$work/nul.conf" --dry-run --json
	check "  shows what the defaults would do" -- disk_is sda would-change/None
	check "  and says the config cannot be read" -- json_is "d['policy']['config_unreadable']" True

	# Odd udev environments.
	check "--udev, DEVTYPE garbage: exit 0" -- exits 0 on hyperv-guest "$azure" \
		env DEVPATH="$sda" DEVTYPE=garbage "$TESTFACTS" -c "$conf" --dry-run --json --udev sda
	check "  sda has a reason of its own" -- disk_is sda skipped/not-disk
	check "--udev, DEVPATH naming nothing: exit 0" -- exits 0 on hyperv-guest "$azure" \
		env DEVPATH=/devices/gone/block/sda "$TESTFACTS" -c "$conf" --dry-run --json --udev sda
	check "  sda is found by its name" -- disk_is sda would-change/None

	# Under udev: what reaches syslog, from a private /dev (log_ns) inside the tree's
	# namespace.
	if need_mounts "fake guests: messages under udev" /dev; then
		# Each fault of the write down both paths: through libudev (no DEVPATH: the event's
		# disk is looked up) and without it (udev's DEVPATH, libudev made unloadable, which
		# only a run through libudev would say), with the same outcome and the same lines.
		printf 'none [mq-deadline] kyber bfq\n' >"$work/on-deadline"
		for path in "through libudev" "without libudev"; do
			ev=()
			[ "$path" = "through libudev" ] ||
				ev=(DEVPATH="$sda" DEVTYPE=disk HYPERV_SCHEDULER_TEST_LIBUDEV=missing)
			check "under udev $path, a disk gone at the read-back is no failure" -- \
				exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/absent" "${ev[@]}" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
			check "  nothing is logged" -- stdout_is "exit 0"
			cp "$work/sda_sched" "$sda_sched"
			while IFS='|' read -r at errno logged; do
				check "under udev $path, the $at failing with $errno" -- \
					exits 0 fails_at "$at" "$errno" "${ev[@]}" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
				if [ -n "$logged" ]; then
					check "  is an error: logged, exit 1" -- stdout_is "$logged"$'\n'"exit 1"
				else
					check "  is a disk that vanished: nothing is logged, exit 0" -- stdout_is "exit 0"
				fi
				cp "$work/sda_sched" "$sda_sched"
			done <<TABLE
write|ENOENT|
write|ENODEV|
write|EIO|syslog <27> cannot write '/sys$sda/queue/scheduler': Input/output error
write|EINVAL|syslog <27> cannot write '/sys$sda/queue/scheduler': Invalid argument
read-back|ENODEV|
read-back|EIO|syslog <27> cannot read back '/sys$sda/queue/scheduler': Input/output error
TABLE
			check "under udev $path, a write the kernel does not keep: exit 0" -- \
				exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-deadline" "${ev[@]}" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
			check "  is an error: logged, exit 1" -- stdout_is "syslog <27> cannot set '/sys$sda/queue/scheduler': wrote 'none', it reads back 'none [mq-deadline] kyber bfq\\n'
exit 1"
			cp "$work/sda_sched" "$sda_sched"
			check "under udev $path, a disk that changes: exit 0" -- \
				exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${ev[@]}" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
			check "  one line in syslog" -- stdout_is "syslog <30> sda: mq-deadline -> none
exit 0"
			check "  the disk is written" -- is "sda's scheduler file, first 4 bytes" "$(head -c 4 "$sda_sched")" none
			cp "$work/sda_sched" "$sda_sched"
			check "under udev $path, a FIFO config and a disk that would change: exit 0" -- \
				exits 0 on hyperv-guest "$azure" env "${ev[@]}" "${log_ns[@]}" syslog timeout "$hang_limit" "$TESTFACTS" -c "$fifo" --udev sda
			check "  the error is logged, exit 1" -- \
				stdout_is "syslog <27> cannot read '$fifo': a FIFO, not a regular file, nothing is changed
exit 1"
			check "  the disk is not written" -- is "sda's scheduler file" "$(cat "$sda_sched")" "$(cat "$work/sda_sched")"
		done

		# A config's warnings count only with a disk that changes.
		bad=$(config "colour = blue")
		check "under udev, a bad line and a disk already on none: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog "$TESTFACTS" -c "$bad" --udev sdb
		check "  nothing is logged" -- stdout_is "exit 0"
		check "under udev, a bad line and a disk that changes: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog "$TESTFACTS" -c "$bad" --udev sda
		check "  the warning comes after the change" -- stdout_is "syslog <30> sda: mq-deadline -> none
syslog <28> $bad:1: unknown key 'colour'
exit 0"
		cp "$work/sda_sched" "$sda_sched"

		# A syslog that does not drain /dev/log: its queue holds 10 datagrams. Logging
		# never holds up the event: what cannot be sent is dropped.
		# The disk is written: sysfs takes a write whole, but a plain file keeps what the
		# write does not cover, and libudev writes over its start ("none\n" in systemd
		# 252, "none" in 262, which leaves the fixture's "none [mq-deadline] ..." as it
		# was). Listed in the kernel's own order, none last, the file shows any write of
		# none in its first 4 bytes.
		unwritten() { printf '[mq-deadline] kyber bfq none\n' >"$sda_sched"; }
		written() { is "sda's scheduler file, first 4 bytes" "$(head -c 4 "$sda_sched")" none; }
		many=$work/many.conf
		for i in $(seq 15); do echo "colour$i = blue"; done >"$many"
		unwritten
		check "under udev, 15 bad lines to a syslog that does not drain: exit 0, at once" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog timeout "$hang_limit" "$TESTFACTS" -c "$many" --udev sda
		check "  the helper's exit 0" -- stdout_has "exit 0"
		check "  the disk is written" -- written
		cp "$work/sda_sched" "$sda_sched"
		# /dev/kmsg lets a writer put 10 lines before it throttles: the change first,
		# then the first 5 warnings and a count.
		unwritten
		check "under udev without a syslog, 15 bad lines and a disk that changes: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" kmsg "$TESTFACTS" -c "$many" --udev sda
		check "  the change first, then 5 warnings and how many more" -- stdout_is "kmsg <30> sda: mq-deadline -> none
kmsg <28> $many:1: unknown key 'colour1'
kmsg <28> $many:2: unknown key 'colour2'
kmsg <28> $many:3: unknown key 'colour3'
kmsg <28> $many:4: unknown key 'colour4'
kmsg <28> $many:5: unknown key 'colour5'
kmsg <28> 10 more warnings not shown (hyperv-scheduler --dry-run shows them all)
exit 0"
		check "  the disk is written" -- written
		cp "$work/sda_sched" "$sda_sched"
		unwritten
		check "under udev, a syslog queue already full: exit 0, at once" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog-full timeout "$hang_limit" "$TESTFACTS" -c "$bad" --udev sda
		check "  the line goes to /dev/kmsg instead, the helper's exit 0" -- stdout_is "kmsg <30> sda: mq-deadline -> none
kmsg <28> $bad:1: unknown key 'colour'
exit 0"
		check "  the disk is written" -- written
		cp "$work/sda_sched" "$sda_sched"
		# A change line is never lost: a daemon that restarts between the helper's
		# connect() and its send(), or a stream it closes, gets it again on a new
		# connection, as glibc's syslog() sends it; without a syslog /dev/kmsg, and
		# without either standard error, which udevd reads.
		while IFS='|' read -r sink got; do
			check "under udev, $sink: exit 0, at once" -- \
				exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" "$sink" timeout "$hang_limit" "$TESTFACTS" -c "$conf" --udev sda
			check "  the change line reaches $got" -- stdout_is "$got <30> sda: mq-deadline -> none
exit 0"
			cp "$work/sda_sched" "$sda_sched"
		done <<TABLE
syslog-restart|syslog
stream-close|syslog
kmsg|kmsg
TABLE
		check "under udev, neither /dev/log nor /dev/kmsg: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" none "$TESTFACTS" -c "$conf" --udev sda
		check "  the change line is on stderr" -- stderr_is "hyperv-scheduler: sda: mq-deadline -> none"
		cp "$work/sda_sched" "$sda_sched"

		# A run by hand logs each change too, --quiet or not; a report logs nothing.
		check "by hand, a disk that changes: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" sda
		check "  printed, and one line in syslog" -- stdout_is "sda: mq-deadline -> none
syslog <30> sda: mq-deadline -> none
exit 0"
		cp "$work/sda_sched" "$sda_sched"
		for d in sr0 sdaa; do cp "$azure/sys/class/block/$d/queue/scheduler" "$work/$d-sched"; done
		check "by hand, --all --quiet: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --all --quiet
		check "  one line in syslog per change, nothing printed" -- stdout_is "syslog <30> sda: mq-deadline -> none
syslog <30> sr0: mq-deadline -> none
syslog <30> sdaa: bfq -> none
exit 0"
		cp "$work/sda_sched" "$sda_sched"
		for d in sr0 sdaa; do cp "$work/$d-sched" "$azure/sys/class/block/$d/queue/scheduler"; done
		check "by hand, --quiet, neither /dev/log nor /dev/kmsg: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" none "$TESTFACTS" -c "$conf" --quiet sda
		check "  the change line is on stderr" -- stderr_is "hyperv-scheduler: sda: mq-deadline -> none"
		cp "$work/sda_sched" "$sda_sched"
		check "by hand, --dry-run: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --dry-run sda
		check "  nothing in syslog" -- is "lines in syslog" "$(grep -c '^syslog' <<<"$out")" 0
		check "under udev --dry-run the warning is always shown" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog "$TESTFACTS" -c "$bad" --udev --dry-run --json sdb
		check "  in syslog" -- stdout_has "syslog <28> $bad:1: unknown key 'colour'"
		check "under udev, a FIFO config and a disk already on none: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog timeout "$hang_limit" "$TESTFACTS" -c "$fifo" --udev sdb
		check "  nothing is logged" -- stdout_is "exit 0"
		check "under udev, a FIFO config and a disk that would change: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog timeout "$hang_limit" "$TESTFACTS" -c "$fifo" --udev sda
		check "  the error is logged, exit 1" -- \
			stdout_is "syslog <27> cannot read '$fifo': a FIFO, not a regular file, nothing is changed
exit 1"
		# An exclude line read as meant is said with the change; one that cannot be read
		# keeps every disk, and is said with the disk that would have changed.
		commas=$(config "exclude = sdz, sdy")
		check "under udev, an exclude line read as meant and a disk that changes: exit 0" -- \
			exits 0 on hyperv-guest "$azure" env HYPERV_SCHEDULER_TEST_READBACK="$work/on-none" "${log_ns[@]}" syslog "$TESTFACTS" -c "$commas" --udev sda
		check "  the warning comes after the change" -- stdout_is "syslog <30> sda: mq-deadline -> none
syslog <28> $commas:1: read 'sdz, sdy' for 'exclude' as 'sdz sdy': patterns are separated by spaces, without quotes, commas, semicolons or /dev/
exit 0"
		cp "$work/sda_sched" "$sda_sched"
		class=$(config "exclude = sd[[:digt:]]")
		check "under udev, an exclude pattern that cannot be read and a disk already on none: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog "$TESTFACTS" -c "$class" --udev sdb
		check "  nothing is logged" -- stdout_is "exit 0"
		check "under udev, an exclude pattern that cannot be read and a disk that would change: exit 0" -- \
			exits 0 on hyperv-guest "$azure" "${log_ns[@]}" syslog "$TESTFACTS" -c "$class" --udev sda
		check "  the warning is logged, exit 1" -- \
			stdout_is "syslog <28> $class:1: bad pattern 'sd[[:digt:]]' for 'exclude': no character class '[:digt:]', nothing is changed
exit 1"
		check "  the disk is not written" -- is "sda's scheduler file" "$(cat "$sda_sched")" "$(cat "$work/sda_sched")"
		check "--udev, DEVPATH a device that is not a block device: exit 0" -- exits 0 on hyperv-guest "$azure" \
			env DEVPATH=/devices/virtual/dmi/id "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev id
		check "  refused as the same path given as an argument, exit 2" -- \
			stdout_is "syslog <27> cannot find '/sys/devices/virtual/dmi/id': not a block device
exit 2"
	fi
	check "the tree is as it was: nothing else was written" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
fi

# The kernel command line longer than 8 KiB, as bootconfig can make it.
if need_mounts "a long kernel command line" /proc && [ -e /proc/cmdline ]; then
	azure=$(make_tree azure)
	conf=$(config "mode = auto")
	{
		printf 'BOOT_IMAGE=/vmlinuz'
		printf ' x%.0s' $(seq 5000)
		printf ' hyperv_scheduler=off\n'
	} >"$work/cmdline"
	check "a command line of 10 KiB: exit 0" -- exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
		env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "  its last parameter counts" -- json_is "d['policy']['mode'] + ' ' + str(d['policy']['mode_from_cmdline'])" "off True"
	{
		printf 'hyperv_scheduler=off'
		head -c 1100000 /dev/zero | tr '\0' ' '
		printf 'hyperv_scheduler=always\n'
	} >"$work/cmdline"
	check "a command line over 1 MiB: exit 0" -- exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
		env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "  its first 1 MiB counts" -- json_is "d['policy']['mode']" off
	check "  and it says it was cut" -- stderr_is \
		"hyperv-scheduler: cannot read all of '/proc/cmdline': longer than 1 MiB, only the parameters in its first 1 MiB count"
	# The parameter that ends exactly at the 1 MiB mark is whole: it counts.
	last=hyperv_scheduler=always
	{
		printf 'hyperv_scheduler=off'
		head -c $((1048576 - 20 - ${#last})) /dev/zero | tr '\0' ' '
		printf '%s x\n' "$last"
	} >"$work/cmdline"
	check "a command line over 1 MiB, a parameter ending at 1 MiB: exit 0" -- exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
		env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "  that parameter counts" -- json_is "d['policy']['mode']" always
	check "  and it says the rest was cut" -- stderr_is \
		"hyperv-scheduler: cannot read all of '/proc/cmdline': longer than 1 MiB, only the parameters in its first 1 MiB count"
	{
		printf 'hyperv_scheduler=off'
		head -c $((1048576 - 20 - ${#last})) /dev/zero | tr '\0' ' '
		printf '%s\n' "$last"
	} >"$work/cmdline"
	check "a command line of 1 MiB and its newline: exit 0" -- exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
		env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "  its last parameter counts" -- json_is "d['policy']['mode']" always
	check "  and nothing was cut" -- stderr_is ""
	# Its first 1 MiB ends inside hyperv_scheduler=offline, after "off": the parameter cut
	# does not count, the whole one before it does, whichever of the kernel's blanks
	# (isspace(): lib/ctype.c) parts them.
	while IFS='|' read -r name blank; do
		printf -v blank '%b' "$blank"
		whole=' hyperv_scheduler=always' cut='hyperv_scheduler=off'
		{
			head -c $((1024 * 1024 - ${#whole} - ${#blank} - ${#cut})) /dev/zero | tr '\0' x
			printf '%s%s%sine\n' "$whole" "$blank" "$cut"
		} >"$work/cmdline"
		check "a command line over 1 MiB cut inside a parameter after a $name: exit 0" -- \
			exits 0 in_ns --sys "$azure" --cmdline "$work/cmdline" -- \
			env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json sda
		check "  the parameter cut does not count, the one before it does" -- \
			json_is "d['policy']['mode'] + ' ' + str(d['policy']['mode_from_cmdline'])" "always True"
		check "  and it says it was cut" -- stderr_is \
			"hyperv-scheduler: cannot read all of '/proc/cmdline': longer than 1 MiB, only the parameters in its first 1 MiB count"
	done <<'TABLE'
space|\x20
tab|\t
vertical tab|\v
form feed|\f
carriage return|\r
no-break space (0xa0)|\xa0
TABLE
fi

finish
