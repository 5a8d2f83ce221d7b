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
	# guest [--ro] ARGS...: the test build over the fake Azure guest, $records as its
	# /run/hyperv-scheduler (--ro: read-only), the read-back of a write reading $readback,
	# HYPERV_SCHEDULER_BY=$by, under a `timeout "$hang_limit"` guard (a FIFO as a record).
	readback=$work/on-none by=
	guest() {
		local ro=''
		[ "$1" != --ro ] || {
			ro=,ro
			shift
		}
		# shellcheck disable=SC2016 # expanded by the inner shell
		on hyperv-guest "$azure" sh -c 'dir=$1 ro=$2
			shift 2
			mkdir /run/hyperv-scheduler && mount --bind "$dir" /run/hyperv-scheduler &&
				mount -o "remount,bind$ro" /run/hyperv-scheduler && exec "$@"' sh "$records" "$ro" \
			env HYPERV_SCHEDULER_TEST_READBACK="$readback" HYPERV_SCHEDULER_BY="$by" \
			timeout "$hang_limit" "$TESTFACTS" -c "$conf" "$@"
	}
	# on_sched TEXT: sda's scheduler file as the kernel would show it.
	on_sched() { printf '%s\n' "$1" >"$sda_sched"; }
	seq_of_sda=$(cat "$azure/sys/class/block/sda/diskseq")

	check "a disk changed by hand: exit 0" -- exits 0 guest sda
	check "  the change line" -- stdout_is "sda: mq-deadline -> none"
	check "  its record" -- is "the record" "$(grep -v '^at=' "$record")" "name=sda
diskseq=$seq_of_sda
devpath=$(cd -P "$azure/sys/class/block/sda" && pwd | sed "s|^$azure/sys||")
devnum=8:0
from=mq-deadline
to=none
by=hand"
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
	readback=$work/on-none
	cp "$work/sda_sched" "$sda_sched"
fi

finish
