# shellcheck shell=bash
# Fake sysfs trees (tests/fixtures/mktree.sh) under the real libudev, in private mount namespaces
# (under umockdev where those are refused).
# The testfacts build reads the CPUID of a Hyper-V guest from tests/fixtures/cpuid, so a tree
# stands for a whole guest whatever this machine is.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# guest TREE ARGS...: the helper on a Hyper-V guest whose /sys is TREE.
guest() {
	local tree=$1
	shift
	on hyperv-guest "$tree" "$TESTFACTS" "$@"
}

if need_tree "fake sysfs trees"; then
	conf=$(config "mode = auto")
	azure=$(make_tree azure) || fail "build the azure tree" "mktree failed"
	before=$(tree_sum "$azure")

	check "the azure tree reports: exit 0" -- exits 0 guest "$azure" -c "$conf" --json
	check "  as a Hyper-V guest" -- json_is "d['machine']['verdict']" hyperv-guest
	check "  on Azure, Generation 2" -- json_is "d['machine']['flavour']" "['azure', 'gen2']"
	while read -r name want; do
		check "  $name is $want" -- disk_is "$name" "$want"
	done <<'TABLE'
sda would-change/None
sdb already/None
sdaa would-change/None
sr0 would-change/None
nvme0n1 already/None
loop0 skipped/not-vmbus
dm-0 skipped/no-scheduler
md0 skipped/no-scheduler
zram0 skipped/no-scheduler
TABLE
	check "  sda's scheduler is mq-deadline" -- json_is "$(disk sda current)" mq-deadline
	check "  sda's target is none" -- json_is "$(disk sda target)" none
	check "  sda has 1 hardware queue" -- json_is "$(disk sda queues)" 1
	check "  sdb has 2" -- json_is "$(disk sdb queues)" 2
	check "  the report wrote nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"

	check "named partitions: exit 0" -- exits 0 guest "$azure" -c "$conf" --json sda1 nvme0n1p1
	check "  sda1 is a partition" -- disk_is sda1 skipped/partition
	check "  nvme0n1p1 is a partition" -- disk_is nvme0n1p1 skipped/partition

	# The config's keys, one report each.
	while IFS='|' read -r what line name want; do
		check "$what: exit 0" -- exits 0 guest "$azure" -c "$(config "$line")" --json
		check "  $name is $want" -- disk_is "$name" "$want"
	done <<'TABLE'
exclude glob|exclude = sd[a-z]|sda|skipped/excluded
exclude glob|exclude = sd[a-z]|sdaa|would-change/None
include list|devices = nvme*|sda|skipped/excluded
include list|devices = nvme*|nvme0n1|already/None
mode off|mode = off|sda|skipped/disabled
mode always|mode = always|loop0|already/None
TABLE
	# A disk already on none starts no process, so the key takes none and noop only.
	kyber=$(config "scheduler = kyber")
	check "scheduler = kyber is refused: exit 0" -- exits 0 guest "$azure" -c "$kyber" --json
	check "  with a warning" -- stderr_is "hyperv-scheduler: $kyber:1: bad value 'kyber' for 'scheduler': expected none, noop, or both in either order"
	check "  sda would change" -- disk_is sda would-change/None
	check "  to the default none" -- json_is "$(disk sda target)" none

	# A write the fake file takes but that does not read back as selected: only the
	# read-back counts. The tree's other files stay as they were. How a regular file takes
	# libudev's write depends on libudev's version (systemd 252 writes over its start), so
	# the message must quote whatever the file then holds, escaped as the helper does.
	sda_sched=$azure/sys/class/block/sda/queue/scheduler
	sda_path=/sys/$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys/||")
	cp "$sda_sched" "$work/sda_sched"
	check "a write that does not read back as selected fails with exit 1" -- \
		exits 1 guest "$azure" -c "$conf" sda
	readback=$(sed -z 's/\\/\\\\/g; s/\n/\\n/g' "$sda_sched")
	check "  the message names the path and what it read" -- stderr_is \
		"hyperv-scheduler: cannot set '$sda_path/queue/scheduler': wrote 'none', it reads back '$readback'"
	cp "$work/sda_sched" "$sda_sched"
	check "  nothing but sda's scheduler was written" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"

	# Odd scheduler files: a clear outcome, never a crash, nothing written.
	while IFS='|' read -r what content want; do
		printf '%b' "$content" >"$sda_sched"
		check "scheduler file with $what: exit 0" -- exits 0 guest "$azure" -c "$conf" --dry-run --json sda
		check "  sda is $want" -- disk_is sda "$want"
	done <<'TABLE'
garbage|%%$#@!\n|skipped/no-suitable-scheduler
no brackets|none mq-deadline\n|would-change/None
two brackets|[none] [mq-deadline]\n|skipped/no-suitable-scheduler
only bfq|[bfq] mq-deadline\n|skipped/no-suitable-scheduler
empty|\n|skipped/no-scheduler
a NUL byte|none\0[mq-deadline]\n|skipped/no-scheduler
TABLE
	head -c 4096 /dev/zero | tr '\0' 'x' >"$sda_sched"
	check "scheduler file of 4 KiB: exit 0" -- exits 0 guest "$azure" -c "$conf" --dry-run --json sda
	check "  sda has no suitable scheduler" -- disk_is sda skipped/no-suitable-scheduler
	cp "$work/sda_sched" "$sda_sched"
	check "the odd-input runs wrote nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"

	# A scheduler file that is there but cannot be read is no absent one (a bio-based disk's):
	# the run fails and says why, and nothing is written. A FIFO never blocks the read.
	rm "$sda_sched"
	check "no scheduler file at all: exit 0" -- exits 0 guest "$azure" -c "$conf" --dry-run --json sda
	check "  sda has no scheduler" -- disk_is sda skipped/no-scheduler
	check "  bio-based, as the rule sees it" -- json_is "$(disk sda rule_skips)" bio-based
	while IFS='|' read -r what make why; do
		rm -rf "$sda_sched"
		eval "$make"
		before=$(tree_sum "$azure")
		check "scheduler file $what: exit 1" -- exits 1 on hyperv-guest "$azure" \
			timeout "$hang_limit" "$TESTFACTS" -c "$conf" --dry-run --json sda
		check "  sda is unreadable" -- disk_is sda skipped/unreadable
		check "  no bio-based disk" -- json_is "$(disk sda rule_skips)" None
		check "  the error says why" -- json_is "$(disk sda error)" \
			"cannot read '$sda_path/queue/scheduler': $why"
		check "  said once, in the report" -- stderr_is ""
		check "  a write run: exit 1" -- exits 1 on hyperv-guest "$azure" \
			timeout "$hang_limit" "$TESTFACTS" -c "$conf" sda
		check "    says why" -- stderr_is "hyperv-scheduler: cannot read '$sda_path/queue/scheduler': $why"
		check "    writes nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
	done <<'TABLE'
a directory|mkdir "$sda_sched"|Is a directory
a FIFO|mkfifo "$sda_sched"|a FIFO, not a regular file
TABLE
	# Under udev the read without libudev (DEVPATH) must not settle it as left alone.
	if need_mounts "under udev a scheduler file that cannot be read" /dev; then
		rm -rf "$sda_sched"
		mkdir "$sda_sched"
		check "under udev a scheduler file that is a directory: exit 1" -- exits 0 on hyperv-guest \
			"$azure" env DEVPATH="${sda_path#/sys}" DEVTYPE=disk "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
		check "  is an error: logged, exit 1" -- stdout_is "syslog <27> cannot read '$sda_path/queue/scheduler': Is a directory
exit 1"
	fi
	rm -rf "$sda_sched"
	cp "$work/sda_sched" "$sda_sched"
	# Nor is a zoned file that cannot be read a disk known not to be zoned: before Linux 6.10
	# none would lose a zoned disk's write order.
	sda_zoned=${sda_sched%/scheduler}/zoned
	cp "$sda_zoned" "$work/sda_zoned"
	rm "$sda_zoned"
	mkdir "$sda_zoned"
	before=$(tree_sum "$azure")
	check "zoned file a directory: exit 1" -- exits 1 guest "$azure" -c "$conf" --dry-run --json sda
	check "  sda is unreadable" -- disk_is sda skipped/unreadable
	check "  the error says why" -- json_is "$(disk sda error)" \
		"cannot read '$sda_path/queue/zoned': Is a directory"
	check "  a write run: exit 1" -- exits 1 guest "$azure" -c "$conf" sda
	check "    says why" -- stderr_is "hyperv-scheduler: cannot read '$sda_path/queue/zoned': Is a directory"
	check "    writes nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
	if need_mounts "under udev a zoned file that cannot be read" /dev; then
		check "under udev a zoned file that is a directory" -- exits 0 on hyperv-guest \
			"$azure" env DEVPATH="${sda_path#/sys}" DEVTYPE=disk "${log_ns[@]}" syslog "$TESTFACTS" -c "$conf" --udev sda
		check "  is an error: logged, exit 1, nothing written" -- stdout_is "syslog <27> cannot read '$sda_path/queue/zoned': Is a directory
exit 1"
		check "    writes nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
	fi
	rmdir "$sda_zoned"
	cp "$work/sda_zoned" "$sda_zoned"
	# Unreadable: root's 0400 file, the helper run as nobody; or a build user's 0000 file.
	if need_unreadable "a scheduler file that cannot be read" "$TESTFACTS"; then
		chmod "$unreadable" "$sda_sched"
		check "a scheduler file that cannot be read: exit 1" -- exits 1 on hyperv-guest "$azure" \
			"${as_reader[@]}" "$TESTFACTS" -c "$conf" --dry-run --json sda
		check "  sda is unreadable" -- disk_is sda skipped/unreadable
		check "  the error says why" -- json_is "$(disk sda error)" \
			"cannot read '$sda_path/queue/scheduler': Permission denied"
		chmod 0644 "$sda_sched"
	fi

	# DMI with non-UTF-8 bytes and 64 KiB of text: escaped in text, valid JSON.
	dmi=$azure/sys/class/dmi/id
	cp "$dmi/sys_vendor" "$work/sys_vendor"
	printf 'Micro\377soft \001Corp\n' >"$dmi/sys_vendor"
	head -c 65536 /dev/zero | tr '\0' 'A' >"$dmi/product_name"
	check "odd DMI strings still give a report" -- exits 0 guest "$azure" -c "$conf" --json
	check "  in valid JSON, of a Hyper-V guest" -- json_is "d['machine']['verdict']" hyperv-guest
	cp "$work/sys_vendor" "$dmi/sys_vendor"
	printf 'Virtual Machine\n' >"$dmi/product_name"

	# The device goes away between the lookup and the write (a hot-removed disk): the
	# debugger removes it right when the helper is about to write.
	if [ "${MEMCHECK:-}" = 1 ]; then
		skip "a disk removed before the write" "the debugger cannot drive valgrind"
	elif ! command -v gdb >/dev/null; then
		skip "a disk removed before the write" "gdb is missing"
	else
		for who in udev person; do
			rm -rf "$work/vanish"
			cp -a "$azure" "$work/vanish"
			dir=$(readlink -f "$work/vanish/sys/class/block/sda")
			# LeakSanitizer refuses to run under a debugger.
			debug=(env ASAN_OPTIONS=detect_leaks=0 gdb -q -batch -ex "break disk_write_scheduler"
				-ex run -ex "shell rm -rf '$dir'" -ex continue --args "$TESTFACTS" -c "$conf")
			if [ $who = udev ]; then
				check "under udev a disk removed before the write is no failure" -- \
					exits 0 on hyperv-guest "$work/vanish" "${debug[@]}" --udev sda
				check "  it exits 0" -- stdout_has "exited normally"
			else
				check "for a person a disk removed before the write fails" -- \
					exits 0 on hyperv-guest "$work/vanish" "${debug[@]}" sda
				check "  with exit 1" -- stdout_has "exited with code 01"
				check "  naming the path and errno" -- has "the output" "$out$err" \
					"hyperv-scheduler: cannot write '$sda_path/queue/scheduler': No such file or directory"
			fi
		done
	fi

	# Odd config files: documented behaviour, the exit status (1 for a file that cannot be
	# read whole: then nothing is changed), the message it names (none for a file that is
	# fine), and nothing written under /sys (sdb is already on none, so a run with a good
	# config writes nothing either).
	cfg=$work/odd.conf
	while IFS='@' read -r what code make want; do
		rm -rf "$cfg"
		eval "$make"
		before=$(tree_sum "$azure")
		# A FIFO used to block: the timeout guards against a hang, it is no timing goal.
		check "config $what: exit $code" -- \
			exits "$code" on hyperv-guest "$azure" timeout "$hang_limit" "$TESTFACTS" -c "$cfg" sdb
		want=${want//CFG/$cfg}
		check "  says so" -- stderr_is "${want//NL/$'\n'}"
		check "  writes nothing" -- is "the tree's checksum" "$(tree_sum "$azure")" "$before"
	done <<'TABLE'
missing@0@:@hyperv-scheduler: cannot open 'CFG': No such file or directory, defaults apply
empty@0@: >"$cfg"@
of 1 MiB@1@head -c 1048576 /dev/zero | tr '\0' '#' >"$cfg"@hyperv-scheduler: cannot read 'CFG': File too large (more than 64 KiB), nothing is changed
binary@1@printf 'mode = always\n\0\1\2' >"$cfg"@hyperv-scheduler: cannot use 'CFG': binary file (NUL bytes), nothing is changed
a FIFO@1@mkfifo "$cfg"@hyperv-scheduler: cannot read 'CFG': a FIFO, not a regular file, nothing is changed
a directory@1@mkdir "$cfg"@hyperv-scheduler: cannot read 'CFG': Is a directory, nothing is changed
unknown keys@0@printf 'colour = blue\nmode = auto\n' >"$cfg"@hyperv-scheduler: CFG:1: unknown key 'colour'
bad values@0@printf 'mode = sometimes\nscheduler = [none]\n' >"$cfg"@hyperv-scheduler: CFG:1: bad value 'sometimes' for 'mode': expected auto, always or offNLhyperv-scheduler: CFG:2: bad value '[none]' for 'scheduler': expected none, noop, or both in either order
a broken glob@1@printf 'exclude = sd[\n' >"$cfg"@hyperv-scheduler: CFG:1: bad pattern 'sd[' for 'exclude': '[' without a closing ']', nothing is changed
duplicate keys@0@printf 'mode = off\nmode = auto\n' >"$cfg"@hyperv-scheduler: CFG:2: 'mode' repeated: this line overrides line 1
CRLF endings@0@printf 'mode = auto\r\nexclude = sdz\r\n' >"$cfg"@
a line of 1024 bytes and CR LF@0@{ printf 'mode = auto%1013s\r\n' ''; } >"$cfg"@
a line of 10,000 characters@0@{ head -c 10000 /dev/zero | tr '\0' x; printf '\nmode = auto\n'; } >"$cfg"@hyperv-scheduler: CFG:1: line longer than 1024 bytes, ignored
TABLE
	# Unreadable: root's 0400 file, the helper run as nobody; or a build user's 0000 file.
	if need_unreadable "an unreadable config" "$TESTFACTS"; then
		printf 'mode = always\n' >"$cfg"
		chmod "$unreadable" "$cfg"
		check "an unreadable config: exit 1" -- exits 1 on hyperv-guest "$azure" \
			"${as_reader[@]}" "$TESTFACTS" -c "$cfg" --dry-run --json sdb
		check "  the report shows the defaults" -- json_is "d['policy']['mode']" auto
		check "  and says the config cannot be read" -- json_is "d['policy']['config_unreadable']" True
		check "  and so does stderr" -- stderr_is "hyperv-scheduler: cannot read '$cfg': Permission denied, nothing is changed"
	fi

	legacy=$(make_tree legacy)
	check "pre-5.0 kernel: exit 0" -- exits 0 guest "$legacy" -c "$conf" --json
	check "  sda would change" -- disk_is sda would-change/None
	check "  from cfq" -- json_is "$(disk sda current)" cfq
	check "  to noop" -- json_is "$(disk sda target)" noop
	check "  on Generation 1" -- json_is "d['machine']['flavour']" "['gen1']"

	check "zoned disk: exit 0" -- exits 0 guest "$(make_tree zoned)" -c "$conf" --json
	check "  sda is skipped as zoned" -- disk_is sda skipped/zoned
	check "zoned disk: the report" -- exits 0 guest "$(make_tree zoned)" -c "$conf" --dry-run
	check "  says what is true for which kernels" -- stdout_has "sda: zoned: left alone; before Linux 6.10 only mq-deadline kept its writes in order, from 6.10 the block layer's zone write plugging does, whatever the scheduler"
	# What the kernel starts it on follows the running kernel's release: mq-deadline on 6.8,
	# whatever its 2 queues; on 6.12 and 5.3 the queues decide; with a release it cannot read,
	# nothing.
	if [ ! -e /proc/sys/kernel/osrelease ]; then
		skip "zoned disk: what the kernel starts it on" "no /proc/sys/kernel/osrelease to mount over"
	elif need_mounts "zoned disk: what the kernel starts it on" /proc; then
		zoned=$(make_tree zoned)
		release=$work/osrelease-zoned
		while IFS='|' read -r name want; do
			echo "$name" >"$release"
			check "zoned disk on release $name: the report" -- exits 0 in_ns --sys "$zoned" \
				--osrelease "$release" -- env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" \
				"$TESTFACTS" -c "$conf" --dry-run --json
			check "  the kernel starts sda on $want" -- json_is "$(disk sda kernel_default)" "$want"
		done <<'TABLE'
6.8.0-49-generic|mq-deadline
6.12.57+deb13-amd64|none
5.3.18-azure|none
unknown|None
TABLE
		echo 6.1.0-28-cloud-amd64 >"$release"
		check "zoned disk on 6.1: the text report" -- exits 0 in_ns --sys "$zoned" \
			--osrelease "$release" -- env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" \
			"$TESTFACTS" -c "$conf" --dry-run
		check "  says the kernel starts it on mq-deadline" -- stdout_has "sda: zoned, on Linux 5.4 to 6.9: the kernel starts it on mq-deadline, whatever its queues"
	fi

	check "bare none, as a bio-based queue prints: exit 0" -- exits 0 guest "$(make_tree barenone)" -c "$conf" --json
	check "  sda has no scheduler" -- disk_is sda skipped/no-scheduler

	check "the text report: exit 0" -- exits 0 guest "$azure" -c "$conf"
	check "  heads with the verdict and flavour" -- is "the first line" "${out%%$'\n'*}" "Hyper-V guest (Azure, Gen 2):"
fi

# tests/lib.sh keeps its work directory while anything is mounted under it (a chroot's /sys
# bound in, say: rm -rf would go through it), and the script fails. The mount is in a private
# namespace that ends with the script; the directory left is removed here.
if need_mounts "tests/lib.sh keeps a work directory with a mount under it" "a directory of its own"; then
	# shellcheck disable=SC2016 # expanded by the inner shell
	check "tests/lib.sh keeps a work directory with a mount under it: exit 1" -- exits 1 \
		"${ns_enter[@]}" -- bash -c 'lib_name=mounted prog=mounted; . "$1" && echo "$work" &&
                        mkdir "$work/m" && mount -t tmpfs hyperv-scheduler-test "$work/m"' sh "$top/tests/lib.sh"
	check "  says so" -- stderr_is "mounted: mounts left under $out; not removing it"
	check "  and the directory is still there" -- test -d "$out"
	[[ $out != */hyperv-scheduler-mounted.* ]] || rm -rf "$out"
fi

# What the helper logs of a fake disk ("sda: mq-deadline -> none") must not reach this machine's
# log, where it would read as a change of its own sda: in_ns gives /dev/kmsg /dev/null.
if [ ! -c /dev/kmsg ]; then
	skip "a fake tree's messages kept from this machine's log" "this machine has no /dev/kmsg"
elif need_mounts "a fake tree's messages kept from this machine's log" /dev; then
	check "a fake tree's messages kept from this machine's log: /dev/kmsg is /dev/null there" -- \
		is "/dev/kmsg in in_ns --sys" "$(in_tree "$azure" stat -L -c %t:%T /dev/kmsg)" "$(stat -L -c %t:%T /dev/null)"
fi

finish
