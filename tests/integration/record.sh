# shellcheck shell=bash
# The record of each change under /run/hyperv-scheduler (hyperv-scheduler(8), RECORD): made by
# a write, its first "before" kept, shown by a report, never shown for a disk that is another
# one now, refused unless a regular file of root's; one that cannot be written never stops the
# change; and --undo, which puts back only what is still ours.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

if need_tree "records" && need_mounts "records: a private /run" /run; then
	azure=$(make_tree azure)
	sda_sched=$azure/sys/class/block/sda/queue/scheduler
	cp "$sda_sched" "$work/sda_sched"
	conf=$(config "mode = auto")
	printf '[none] mq-deadline kyber bfq\n' >"$work/on-none"
	printf 'none [mq-deadline] kyber bfq\n' >"$work/on-deadline"
	records=$work/records
	mkdir -m 0755 "$records"
	record=$records/sda
	# guest [--ro|--link|--fresh|--noboot|--none|--rorun|--full] ARGS...: the test build over
	# the fake Azure guest, $records as its /run/hyperv-scheduler (--ro: read-only; --link: a
	# symbolic link to $records in its place; --fresh: none, the helper makes it, under umask
	# 077, and the modes of the directory and of sda's record go to $work/modes; --noboot: no
	# boot id to read; --none: no directory; --rorun: none, in a read-only /run; --full: a
	# directory of its own on a file system with no room left), the read-back of a write reading
	# $readback, HYPERV_SCHEDULER_BY=$by, HYPERV_SCHEDULER_TEST_AFTER_WRITE=$after, and $fault
	# (a VARIABLE=VALUE of a fault point of tests/README.md, where set), under a
	# `timeout "$hang_limit"` guard (a FIFO as a record), after "${pre[@]}" (an event's).
	readback=$work/on-none by='' after='' fault='' pre=()
	guest() {
		local how=''
		case $1 in --ro | --link | --fresh | --noboot | --none | --rorun | --full) how=$1 && shift ;; esac
		# shellcheck disable=SC2016 # expanded by the inner shell
		on hyperv-guest "$azure" sh -c 'dir=$1 how=$2 modes=$3
			shift 3
			case $how in
			--link) ln -s "$dir" /run/hyperv-scheduler ;;
			--noboot) mount --bind /dev/null /proc/sys/kernel/random/boot_id ;;
			--none) ;;
			--rorun) mount -t tmpfs -o ro,mode=0755 hyperv-scheduler-rorun /run ;;
			--full) mkdir /run/hyperv-scheduler &&
				mount -t tmpfs -o size=4k,mode=0755 hyperv-scheduler-full /run/hyperv-scheduler &&
				! dd if=/dev/zero of=/run/hyperv-scheduler/.fill bs=4k 2>/dev/null ;;
			--fresh) umask 077 && "$@"; s=$?
				stat -c %a /run/hyperv-scheduler /run/hyperv-scheduler/sda >"$modes"
				exit $s ;;
			*) mkdir /run/hyperv-scheduler && mount --bind "$dir" /run/hyperv-scheduler &&
				mount -o "remount,bind${how:+,ro}" /run/hyperv-scheduler ;;
			esac && exec "$@"' sh "$records" "$how" "$work/modes" \
			env HYPERV_SCHEDULER_TEST_READBACK="$readback" HYPERV_SCHEDULER_BY="$by" \
			HYPERV_SCHEDULER_TEST_AFTER_WRITE="$after" ${fault:+"$fault"} \
			"${pre[@]}" timeout "$hang_limit" "$TESTFACTS" -c "$conf" "$@"
	}
	# on_sched TEXT: sda's scheduler file as the kernel would show it.
	on_sched() { printf '%s\n' "$1" >"$sda_sched"; }
	seq_of_sda=$(cat "$azure/sys/class/block/sda/diskseq")
	# Where the boot cannot be told (a build host's /proc without sys/), records name none.
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
	boot_line=${boot:+$'\n'boot=$boot} boot_key=${boot:+boot }

	check "a disk changed by hand: exit 0" -- exits 0 guest sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  its record" -- is "the record" "$(grep -v '^at=' "$record")" "name=sda
diskseq=$seq_of_sda
devpath=$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys||")
devnum=8:0
from=mq-deadline
to=none
by=hand$boot_line"
	check "  written whole: no file left beside it" -- is "files" "$(ls -A "$records")" sda
	check "  root's alone to write" -- is "its mode" "$(stat -c %a "$record")" 644

	on_sched '[none] mq-deadline kyber bfq'
	check "a report on it: exit 0" -- exits 0 guest --dry-run sda
	check "  its row says it was changed" -- stdout_has "already       changed"
	check "  a line says from what, when and by what" -- \
		stdout_has "sda: changed mq-deadline -> none at $(date -u +%Y-%m-%d)T"
	check "  ... by a run by hand" -- stdout_has " by a run by hand"
	check "the JSON report: exit 0" -- exits 0 guest --json sda sdb
	check "  changed: from, to, by" -- \
		json_is "[$(disk sda changed)[k] for k in ('from', 'to', 'by')]" "['mq-deadline', 'none', 'hand']"
	check "  at, in RFC 3339" -- json_is "bool(__import__('re').fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ', $(disk sda changed)['at']))" True
	check "  a disk never changed: null" -- json_is "$(disk sdb changed)" None

	on_sched '[bfq] none mq-deadline kyber'
	by=install
	check "changed again, by the package: exit 0" -- exits 0 guest --quiet sda
	by=
	check "  the record keeps the first before" -- has "the record" "$(cat "$record")" "from=mq-deadline"
	check "  and names the install" -- has "the record" "$(cat "$record")" "by=install"
	on_sched '[none] mq-deadline kyber bfq'
	check "  a report on it: exit 0" -- exits 0 guest --dry-run sda
	check "  ... by the package's install" -- stdout_has " by the package's install"

	# Another disk with the same name: a record of another diskseq is not this disk's.
	on_sched '[none] mq-deadline kyber bfq'
	sed -i "s/^diskseq=.*/diskseq=$((seq_of_sda + 100))/" "$record"
	check "a record of another diskseq: exit 0" -- exits 0 guest --json sda
	check "  is not shown as this disk's" -- json_is "$(disk sda changed)" None

	# Only a regular file of root's, of at most 1 KiB, is a record.
	cp "$record" "$work/record"
	rm "$record"
	mkfifo "$record"
	check "a FIFO as the record: exit 0, at once" -- exits 0 guest --json sda
	check "  named and refused" -- stderr_is "hyperv-scheduler: cannot read '/run/hyperv-scheduler/sda': a FIFO, not a regular file"
	check "  not shown" -- json_is "$(disk sda changed)" None
	rm "$record"
	ln -s "$work/record" "$record"
	check "a symbolic link as the record: exit 0" -- exits 0 guest --json sda
	check "  named and refused" -- stderr_is "hyperv-scheduler: cannot read '/run/hyperv-scheduler/sda': a symbolic link, not a regular file"
	rm "$record"
	{
		cat "$work/record"
		head -c 1100 /dev/zero | tr '\0' x
	} >"$record"
	# Root's and no one else's, whatever the umask (make coverage runs the suite under 0).
	chmod 0644 "$record"
	check "a record over 1 KiB: exit 0" -- exits 0 guest --json sda
	check "  named and refused" -- stderr_is "hyperv-scheduler: cannot read '/run/hyperv-scheduler/sda': File too large (more than 1 KiB)"
	cp "$work/record" "$record"
	chmod 0666 "$record"
	check "a record others may write: exit 0" -- exits 0 guest --json sda
	check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler/sda': writable by another user than root"
	rm "$record"

	# A record that cannot be written never stops the change.
	cp "$work/sda_sched" "$sda_sched"
	check "a read-only /run: the write is made, exit 0" -- exits 0 guest --ro sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  and a warning" -- stderr_is "hyperv-scheduler: cannot write '/run/hyperv-scheduler/sda': Read-only file system"
	check "  no record" -- is "files" "$(ls -A "$records")" ""

	# --undo puts back only what is still ours.
	cp "$work/sda_sched" "$sda_sched"
	check "a change to undo: exit 0" -- exits 0 guest sda
	on_sched '[none] mq-deadline kyber bfq'
	check "--undo --dry-run: exit 0" -- exits 0 guest --undo --dry-run
	check "  says what it would put back" -- stdout_is "sda: none -> mq-deadline (would be undone)"
	check "  changes nothing" -- scheduler_is "$sda_sched" none
	check "  and keeps the record" -- is "files" "$(ls -A "$records")" sda
	on_sched '[bfq] none mq-deadline kyber'
	check "--undo of a disk changed since: exit 1" -- exits 1 guest --undo sda
	check "  says why, in one line" -- stderr_is "hyperv-scheduler: sda: not undone: on bfq now, not none (changed since)"
	check "  the disk untouched" -- scheduler_is "$sda_sched" bfq
	check "  the record kept" -- is "files" "$(ls -A "$records")" sda
	on_sched '[none] mq-deadline kyber bfq'
	cp "$record" "$work/record"
	sed -i "s/^diskseq=.*/diskseq=$((seq_of_sda + 100))/" "$record"
	check "--undo of another disk of that name: exit 1" -- exits 1 guest --undo
	check "  says why, in one line" -- stderr_is "hyperv-scheduler: sda: not undone: another disk has its name now"
	check "  the disk untouched" -- scheduler_is "$sda_sched" none
	cp "$work/record" "$records/sdz"
	sed -i "s/^name=.*/name=sdz/" "$records/sdz"
	check "--undo of a disk that is gone: exit 1" -- exits 1 guest --undo sdz
	check "  says why, in one line" -- stderr_is "hyperv-scheduler: sdz: not undone: the disk is gone"
	check "  the record kept" -- test -f "$records/sdz"
	rm "$records/sdz"
	cp "$work/record" "$record"
	readback=$work/on-deadline
	check "--undo: exit 0" -- exits 0 guest --undo
	check "  puts back the old scheduler" -- stdout_is "sda: none -> mq-deadline (undone)"
	check "  written to the disk" -- is "sda's scheduler file, first 11 bytes" "$(head -c 11 "$sda_sched")" mq-deadline
	check "  the record removed" -- is "files" "$(ls -A "$records")" ""
	check "--undo with nothing to undo: exit 0" -- exits 0 guest --undo
	check "  silent" -- silent
	check "--undo -v of a disk with no record: exit 0" -- exits 0 guest --undo -v sdb
	check "  says so" -- stderr_has "hyperv-scheduler: sdb: nothing to undo (no record of a change)"
	check "--undo with no record directory: exit 0" -- exits 0 guest --none --undo
	check "  silent" -- silent
	check "--undo of a path that is no disk: exit 2" -- exits 2 guest --undo /sys/block/sdz
	check "  says why" -- stderr_is "hyperv-scheduler: cannot find '/sys/block/sdz': No such device"
	fault=HYPERV_SCHEDULER_TEST_LIBUDEV=missing
	check "--undo without libudev: exit 1" -- exits 1 guest --undo
	check "  naming the library, with dlerror()'s reason" -- stderr_is \
		"hyperv-scheduler: cannot load 'libudev.so.1': /nonexistent/libudev.so.1: cannot open shared object file: No such file or directory"
	fault=''

	# A disk that goes while --undo puts it back is not put back: exit 1, the record kept.
	readback=$work/on-none
	cp "$work/sda_sched" "$sda_sched"
	check "a change, for --undo of a disk that goes: exit 0" -- exits 0 guest sda
	on_sched '[none] mq-deadline kyber bfq'
	fault=HYPERV_SCHEDULER_TEST_WRITE_ERROR=ENODEV
	check "--undo, the disk gone at the write: exit 1" -- exits 1 guest --undo
	sda_attr=/sys$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys||")/queue/scheduler
	check "  says why" -- stderr_is "hyperv-scheduler: cannot write '$sda_attr': No such device"
	check "  the record kept" -- is "files" "$(ls -A "$records")" sda
	fault='' readback=$work/absent
	check "--undo, the disk gone at the read-back: exit 1" -- exits 1 guest --undo
	check "  says why" -- stderr_is "hyperv-scheduler: cannot read back '$sda_attr': No such file or directory"
	check "  the record kept" -- is "files" "$(ls -A "$records")" sda
	readback=$work/on-none
	rm "$record"

	# A record that cannot be written never stops the change, whatever stops it.
	cp "$work/sda_sched" "$sda_sched"
	check "no record directory in a read-only /run: the change made, exit 0" -- exits 0 guest --rorun sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  and a warning" -- stderr_is "hyperv-scheduler: cannot open '/run/hyperv-scheduler': Read-only file system"
	cp "$work/sda_sched" "$sda_sched"
	check "no room left for the record: the change made, exit 0" -- exits 0 guest --full sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  and a warning" -- stderr_is "hyperv-scheduler: cannot write '/run/hyperv-scheduler/sda': No space left on device"
	cp "$work/sda_sched" "$sda_sched"
	mkdir "$record"
	check "a directory in the record's place: the change made, exit 0" -- exits 0 guest sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  and warnings: it is no record, and none is written" -- stderr_is "hyperv-scheduler: cannot read '/run/hyperv-scheduler/sda': a directory, not a regular file
hyperv-scheduler: cannot write '/run/hyperv-scheduler/sda': Is a directory"
	check "  no file left beside it" -- is "files" "$(ls -A "$records")" sda
	rmdir "$record"
	readback=$work/on-none
	cp "$work/sda_sched" "$sda_sched"

	# Hostile and careless machines: owners, modes and links as only root makes them (a user
	# namespace maps no other user, and its root's files are not root's to the kernel).
	if [ "$(id -u)" != 0 ]; then
		skip "records on a hostile machine" "needs root"
	else
		# The directory itself: root's, writable by root alone, no symbolic link, or no record
		# in it is read or kept (a user who may write it could swap a record in).
		cp "$work/sda_sched" "$sda_sched"
		check "a change, for the cases below: exit 0" -- exits 0 guest sda
		cp "$record" "$work/record"
		on_sched '[none] mq-deadline kyber bfq'
		chmod 0777 "$records"
		check "a record directory others may write: --json exits 0" -- exits 0 guest --json sda
		check "  named once, and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler': writable by another user than root, no record is read or kept"
		check "  its records not shown" -- json_is "$(disk sda changed)" None
		check "--undo there: exit 1" -- exits 1 guest --undo
		check "  the same warning" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler': writable by another user than root, no record is read or kept"
		check "  the disk untouched" -- scheduler_is "$sda_sched" none
		chmod 0755 "$records"
		# In a user namespace (the suite run without root) no other user is mapped.
		if chown nobody "$records" 2>/dev/null; then
			check "a record directory of another user's: --undo exits 1" -- exits 1 guest --undo
			check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler': owned by another user than root, no record is read or kept"
			check "  the disk untouched" -- scheduler_is "$sda_sched" none
			chown root "$records"
		else
			skip "a record directory of another user's" "no other user to give it to here"
		fi
		check "a symbolic link as the record directory: --undo exits 1" -- exits 1 guest --link --undo
		check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler': not a directory (a symbolic link too), no record is read or kept"
		check "  the disk untouched" -- scheduler_is "$sda_sched" none
		cp "$work/sda_sched" "$sda_sched"
		rm "$record"
		check "a change through a symbolic link: made, exit 0" -- exits 0 guest --link sda
		check "  no record written there" -- is "files" "$(ls -A "$records")" ""
		check "  and a warning" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler': not a directory (a symbolic link too), no record is read or kept"

		# A record of another user's, even one only its owner may write.
		on_sched '[none] mq-deadline kyber bfq'
		cp "$work/record" "$record"
		if chown nobody "$record" 2>/dev/null; then
			check "a record of another user's, mode 0644: exit 0" -- exits 0 guest --json sda
			check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler/sda': owned by another user than root"
			check "  not shown" -- json_is "$(disk sda changed)" None
			check "  --undo of it: exit 1" -- exits 1 guest --undo sda
			check "  the disk untouched" -- scheduler_is "$sda_sched" none
		else
			skip "a record of another user's, mode 0644" "no other user to give it to here"
		fi
		rm "$record"
		cp "$work/record" "$record"
		ln "$record" "$records/.second-name"
		check "a record with a second name: --undo exits 1" -- exits 1 guest --undo sda
		check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler/sda': a file with more than one name"
		rm "$records/.second-name"

		# Whatever the umask, the modes a user's report needs.
		rm -f "$record"
		cp "$work/sda_sched" "$sda_sched"
		check "a change under umask 077, no directory yet: exit 0" -- exits 0 guest --fresh sda
		check "  the directory 0755, the record 0644" -- is "modes" "$(tr '\n' ' ' <"$work/modes")" "755 644 "

		cp "$work/sda_sched" "$sda_sched"
		# Where no boot can be told (a build chroot's /proc), records name none, and only such a
		# run takes them.
		# (Where there is none to read, every case here is such a run.)
		if [ -n "$boot" ]; then
			check "no boot id to read: the change made, exit 0" -- exits 0 guest --noboot sda
			check "  the change line" -- stdout_is "sda: mq-deadline -> none"
			check "  nothing else" -- stderr_is ""
		fi

		# A record of another boot (a /run that outlived it) is not this boot's.
		if [ -n "$boot" ]; then
			cp "$work/record" "$record"
			sed -i 's/^boot=.*/boot=00000000-0000-0000-0000-000000000000/' "$record"
			on_sched '[none] mq-deadline kyber bfq'
			check "a record of another boot: -v --json exits 0" -- exits 0 guest -v --json sda
			check "  not shown" -- json_is "$(disk sda changed)" None
			check "  -v says why" -- stderr_has "sda: a record of another boot, not this disk's"
			check "  --undo: exit 0" -- exits 0 guest --undo
			check "  silent" -- silent
			check "  the disk untouched" -- scheduler_is "$sda_sched" none
			cp "$work/sda_sched" "$sda_sched"
			check "  a change over it: exit 0" -- exits 0 guest sda
			check "  keeps this boot's before, not the old record's" -- \
				is "the record" "$(grep -E '^(from|boot)=' "$record")" "from=mq-deadline
boot=$boot"
		else
			skip "a record of another boot" "no boot id to read here"
			cp "$work/record" "$record"
		fi
		sed -i '/^diskseq=/d' "$record"
		on_sched '[none] mq-deadline kyber bfq'
		check "a record without diskseq on a kernel with it: --undo exits 1" -- exits 1 guest --undo
		check "  named and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler/sda': not a record of hyperv-scheduler"
		check "  the disk untouched" -- scheduler_is "$sda_sched" none

		# A kernel without diskseq (before 5.15): the DEVPATH and the device number stand for it.
		rm "$record"
		mv "$azure/sys/class/block/sda/diskseq" "$work/diskseq"
		cp "$work/sda_sched" "$sda_sched"
		check "no diskseq: a change, exit 0" -- exits 0 guest sda
		check "  its record, without diskseq" -- is "keys" "$(cut -d= -f1 "$record" | tr '\n' ' ')" "name devpath devnum from to by ${boot_key}at "
		on_sched '[none] mq-deadline kyber bfq'
		check "  shown by a report" -- exits 0 guest --json sda
		check "  as this disk's" -- json_is "$(disk sda changed)['from']" mq-deadline
		readback=$work/on-deadline
		check "  --undo: exit 0" -- exits 0 guest --undo
		check "  undone" -- stdout_is "sda: none -> mq-deadline (undone)"
		check "  the record removed" -- is "files" "$(ls -A "$records")" ""
		readback=$work/on-none
		mkdir "$azure/sys/class/block/sda/diskseq"
		cp "$work/sda_sched" "$sda_sched"
		check "an identity that cannot be read: the change made, exit 0" -- exits 0 guest sda
		check "  said as a read" -- stderr_is "hyperv-scheduler: cannot read '/sys$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys||")/diskseq': Is a directory, no record is kept"
		cp "$work/record" "$record"
		check "  --undo of it: exit 1" -- exits 1 guest --undo
		check "  says why, in one line" -- stderr_is "hyperv-scheduler: sda: not undone: Is a directory"
		check "  the record kept" -- is "files" "$(ls -A "$records")" sda
		rm "$record"
		rmdir "$azure/sys/class/block/sda/diskseq"
		mv "$work/diskseq" "$azure/sys/class/block/sda/diskseq"

		# --undo's names, and what it cannot use.
		check "--undo of a name that is none: exit 2" -- exits 2 guest --undo 'sd a'
		check "  says why" -- stderr_has "hyperv-scheduler: "
		check "  nothing else" -- is "stdout" "$out" ""
		cp "$work/sda_sched" "$sda_sched"
		check "a change, for --undo by path: exit 0" -- exits 0 guest sda
		on_sched '[none] mq-deadline kyber bfq'
		check "--undo --dry-run /sys/block/sda: exit 0" -- exits 0 guest --undo --dry-run /sys/block/sda
		check "  the record of sda" -- stdout_is "sda: none -> mq-deadline (would be undone)"
		# An AoE disk: the kernel's name etherd!e0.0, libudev's sysname etherd/e0.0 (events.sh).
		aoe_name='etherd!e0.0' aoe_dir=$azure/sys/devices/virtual/block/etherd!e0.0
		cp -a "$azure/sys/devices/virtual/block/loop0" "$aoe_dir"
		printf 'MAJOR=152\nMINOR=0\nDEVNAME=etherd/e0.0\nDEVTYPE=disk\n' >"$aoe_dir/uevent"
		echo 152:0 >"$aoe_dir/dev"
		ln -s "../../devices/virtual/block/$aoe_name" "$azure/sys/class/block/$aoe_name"
		ln -s "../devices/virtual/block/$aoe_name" "$azure/sys/block/$aoe_name"
		printf '[none] mq-deadline kyber bfq\n' >"$aoe_dir/queue/scheduler"
		sed -e "s/^name=.*/name=$aoe_name/" -e "s/^diskseq=.*/diskseq=$(cat "$aoe_dir/diskseq")/" \
			-e "s|^devpath=.*|devpath=/devices/virtual/block/$aoe_name|" -e 's/^devnum=.*/devnum=152:0/' \
			"$record" >"$records/$aoe_name"
		chmod 0644 "$records/$aoe_name"
		check "--undo --dry-run /sys/block/$aoe_name: exit 0" -- exits 0 guest --undo --dry-run "/sys/block/$aoe_name"
		check "  its record, by the kernel's name" -- stdout_is "$aoe_name: none -> mq-deadline (would be undone)"
		rm "$records/$aoe_name"
		printf 'x\n' >"$records/$(printf 'a\nb')"
		chmod 0644 "$records/$(printf 'a\nb')"
		check "a file named with a newline: --undo --dry-run exits 1" -- exits 1 guest --undo --dry-run
		check "  named escaped, and refused" -- stderr_is "hyperv-scheduler: cannot use '/run/hyperv-scheduler/a\\nb': not a record of hyperv-scheduler"
		rm "$records/$(printf 'a\nb')"
		cp "$record" "$work/record"
		sed -i 's/^from=.*/from=bfq/' "$record"
		printf '[none] mq-deadline kyber\n' >"$sda_sched"
		check "--undo to a scheduler the disk does not offer: exit 1" -- exits 1 guest --undo --dry-run
		check "  says why" -- stderr_is "hyperv-scheduler: sda: not undone: it offers no scheduler bfq now"
		cp "$work/record" "$record"
		on_sched '[none] mq-deadline kyber bfq'
		check "--undo whose read-back differs: exit 1" -- exits 1 guest --undo
		check "  no undone line" -- is "stdout" "$out" ""
		check "  the record kept" -- is "files" "$(ls -A "$records")" sda
		check "  says why" -- stderr_has "hyperv-scheduler: "

		# A record --undo cannot remove: the disk is put back all the same, and the next --undo
		# and a report know it.
		readback=$work/on-deadline
		on_sched '[none] mq-deadline kyber bfq'
		check "--undo with a read-only /run: exit 0" -- exits 0 guest --ro --undo
		check "  undone" -- stdout_is "sda: none -> mq-deadline (undone)"
		check "  the record could not go" -- stderr_is "hyperv-scheduler: cannot remove '/run/hyperv-scheduler/sda': Read-only file system"
		on_sched 'none [mq-deadline] kyber bfq'
		check "  the next --undo: exit 0" -- exits 0 guest --undo
		check "  silent" -- silent
		check "  and removes it" -- is "files" "$(ls -A "$records")" ""
		cp "$work/record" "$record"
		check "  a report on a disk put back: exit 0" -- exits 0 guest --dry-run --json sda
		check "  shows no change" -- json_is "$(disk sda changed)" None

		# A record written while --undo puts the disk back (a udev event for the disk) is kept.
		on_sched '[none] mq-deadline kyber bfq'
		cp "$work/record" "$work/newer"
		sed -i 's/^at=.*/at=1/' "$work/newer"
		after="cp $work/newer $records/.new && mv $records/.new $record"
		check "--undo as a new record comes: exit 0" -- exits 0 guest --undo
		check "  undone" -- stdout_is "sda: none -> mq-deadline (undone)"
		check "  the new record kept" -- has "the record" "$(cat "$record" 2>&1)" "at=1"
		after=''
		readback=$work/on-none
		rm -f "$record"
		cp "$work/sda_sched" "$sda_sched"
	fi

	# The record of an event's change, down both paths: through libudev (no DEVPATH: the
	# disk is looked up) and without it (udev's DEVPATH, libudev made unloadable, which only
	# a run through libudev would say). Its lines go to stderr: a private /dev without
	# /dev/log or /dev/kmsg (log_ns).
	if need_mounts "records of an event: a private /dev" /dev; then
		sda_path=$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys||")
		for path in "through libudev" "without libudev"; do
			pre=(env "${log_ns[@]}" none)
			[ "$path" = "through libudev" ] ||
				pre=(env DEVPATH="$sda_path" DEVTYPE=disk HYPERV_SCHEDULER_TEST_LIBUDEV=missing "${log_ns[@]}" none)
			rm -f "$record"
			cp "$work/sda_sched" "$sda_sched"
			check "an event $path, a disk that changes: exit 0" -- exits 0 guest --udev sda
			check "  the change line" -- stderr_is "hyperv-scheduler: sda: mq-deadline -> none"
			check "  its record, by udev" -- is "the record" "$(grep -v '^at=' "$record")" "name=sda
diskseq=$seq_of_sda
devpath=$sda_path
devnum=8:0
from=mq-deadline
to=none
by=udev$boot_line"
			on_sched '[bfq] none mq-deadline kyber'
			check "an event $path, changed again: exit 0" -- exits 0 guest --udev sda
			check "  the record keeps the first before" -- has "the record" "$(cat "$record")" "from=mq-deadline"
			rm "$record"
			cp "$work/sda_sched" "$sda_sched"
			check "an event $path, a read-only /run: the write is made, exit 0" -- exits 0 guest --ro --udev sda
			check "  the change line and a warning" -- stderr_is "hyperv-scheduler: sda: mq-deadline -> none
hyperv-scheduler: cannot write '/run/hyperv-scheduler/sda': Read-only file system"
			check "  no record" -- is "files" "$(ls -A "$records")" ""
			cp "$work/sda_sched" "$sda_sched"
			check "an event $path, a symbolic link as the record directory: exit 0" -- exits 0 guest --link --udev sda
			check "  the change line and a warning" -- stderr_is "hyperv-scheduler: sda: mq-deadline -> none
hyperv-scheduler: cannot use '/run/hyperv-scheduler': not a directory (a symbolic link too), no record is read or kept"
			check "  no record" -- is "files" "$(ls -A "$records")" ""
		done
		pre=()
		cp "$work/sda_sched" "$sda_sched"
	fi
fi

finish
