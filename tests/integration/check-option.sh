# shellcheck shell=bash
# --check over fake sysfs trees (the testfacts build, a machine's CPUID): the disks the rule acts
# on that are not on their target fail it, one line each; the devices the rule never runs for,
# disks the config leaves out or that are opted out, and every disk where the policy wants
# nothing, never do. Nothing is written.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# guest TREE ARGS...: the helper on a Hyper-V guest whose /sys is TREE.
guest() {
	local tree=$1
	shift
	on hyperv-guest "$tree" "$TESTFACTS" "$@"
}

check "usage: --check with --all: exit 2" -- exits 2 "$HELPER" --check --all
check "  says why" -- stderr_is "hyperv-scheduler: --check and --all exclude each other"
check "usage: --check with --udev: exit 2" -- exits 2 "$HELPER" --check --udev sda
check "  says why" -- stderr_is "hyperv-scheduler: --check and --udev exclude each other"
check "usage: --check of a bad name: exit 2" -- exits 2 "$HELPER" --check ../sda
check "  writes nothing to stdout" -- stdout_is ""

if need_tree "--check on fake sysfs trees"; then
	auto=$(config "mode = auto")
	tree=$work/check-tree
	"$MKTREE" azure "$tree" >/dev/null || fail "build the azure tree" "mktree failed"
	# The devices the rule never runs for, on mq-deadline: the policy of mode always would
	# change them, the rule never starts the helper for them.
	blk=$tree/sys/devices/virtual/block
	for d in loop0 zram0 dm-0; do
		printf '[mq-deadline] none\n' >"$blk/$d/queue/scheduler"
	done
	before=$(tree_sum "$tree")

	check "a Hyper-V guest with disks on mq-deadline and bfq: exit 1" -- \
		exits 1 guest "$tree" -c "$auto" --check
	check "  one line per disk not on none" -- stdout_is "sda: on mq-deadline, wants none
sdaa: on bfq, wants none
sr0: on mq-deadline, wants none"
	check "  nothing on stderr" -- stderr_is ""
	check "  nothing written" -- is "the tree's checksum" "$(tree_sum "$tree")" "$before"
	check "  named: only sda and sdb: exit 1" -- exits 1 guest "$tree" -c "$auto" --check sda sdb
	check "  names sda alone" -- stdout_is "sda: on mq-deadline, wants none"
	check "  sdb alone, already on none: exit 0" -- exits 0 guest "$tree" -c "$auto" --check sdb
	check "  prints nothing" -- silent

	check "--check --json: exit 1" -- exits 1 guest "$tree" -c "$auto" --check --json
	check "  the check fails, naming the three" -- json_is "d['check']" \
		"{'ok': False, 'failing': ['sda', 'sdaa', 'sr0']}"
	check "  the report is whole" -- json_is "$(disk sda action)" would-change
	check "  no text line besides" -- stderr_is ""

	always=$(config "mode = always" "devices = loop* zram* dm-*")
	check "loop, zram and dm on mq-deadline, mode always: exit 0" -- \
		exits 0 guest "$tree" -c "$always" --check --json
	check "  the policy would change loop0" -- disk_is loop0 would-change/None
	check "  but the rule never runs for it" -- json_is "$(disk loop0 rule_skips)" loop
	check "  dm-0 neither" -- json_is "$(disk dm-0 rule_skips)+' '+$(disk dm-0 action)" \
		"dm would-change"
	check "  the check passes" -- json_is "d['check']" "{'ok': True, 'failing': []}"
	check "  in text, nothing said" -- exits 0 guest "$tree" -c "$always" --check
	check "    at all" -- silent

	check "sd* excluded by the config: exit 1" -- \
		exits 1 guest "$tree" -c "$(config "exclude = sd*")" --check
	check "  for sr0 alone, no sd*" -- stdout_is "sr0: on mq-deadline, wants none"
	check "sd* and sr* excluded: exit 0" -- exits 0 guest "$tree" -c "$(config "exclude = sd* sr*")" --check
	check "  prints nothing" -- silent

	if need_mounts "an opted-out disk" /run; then
		# The udev database of the namespace's empty /run: sda (8:0) as a rule below 60 left it.
		optout() {
			on hyperv-guest "$tree" sh -c 'mkdir -p /run/udev/data &&
				echo E:HYPERV_SCHEDULER=skip >/run/udev/data/b8:0 && exec "$@"' sh "$TESTFACTS" "$@"
		}
		check "sda opted out: exit 1, for the others" -- exits 1 optout -c "$auto" --check
		check "  sda not named" -- stdout_is "sdaa: on bfq, wants none
sr0: on mq-deadline, wants none"
		check "  sda alone: exit 0" -- exits 0 optout -c "$auto" --check --json sda
		check "  as opted out" -- disk_is sda skipped/opted-out
	fi

	check "KVM, mode auto: exit 0" -- exits 0 on kvm "$tree" "$TESTFACTS" -c "$auto" --check
	check "  nothing wanted, nothing said" -- silent

	# What --all leaves: a write the kernel keeps (tests/README.md, HYPERV_SCHEDULER_TEST_READBACK),
	# and each disk it wrote then reads [none] as the kernel shows it.
	printf '[none] mq-deadline kyber bfq\n' >"$work/kept"
	check "--all on the guest: exit 0" -- \
		exits 0 on hyperv-guest "$tree" env HYPERV_SCHEDULER_TEST_READBACK="$work/kept" "$TESTFACTS" -c "$auto" --all
	# The disks it names as changed, not the files it wrote: libudev 262 writes without
	# truncating, which a plain file keeps as "none [mq-deadline] ...".
	sed -n 's/^\([^:]*\): .* -> none$/\1/p' "$work/out" | while read -r d; do
		cp "$work/kept" "$tree/sys/class/block/$d/queue/scheduler"
	done
	check "  then --check: exit 0" -- exits 0 guest "$tree" -c "$auto" --check
	check "  prints nothing" -- silent
	check "  --check --json: every disk already" -- exits 0 guest "$tree" -c "$auto" --check --json
	check "    sda already on none" -- disk_is sda already/None
	check "    the check passes" -- json_is "d['check']" "{'ok': True, 'failing': []}"

	printf 'none mq-deadline kyber\n' >"$tree/sys/class/block/sda/queue/scheduler"
	check "a scheduler file without a current one: exit 1" -- exits 1 guest "$tree" -c "$auto" --check
	check "  names it" -- stdout_is "sda: on ?, wants none"
	printf '%%%%$#@!\n' >"$tree/sys/class/block/sda/queue/scheduler"
	check "a scheduler file that is no list: exit 1" -- exits 1 guest "$tree" -c "$auto" --check
	check "  says so" -- stdout_is "sda: queue/scheduler is not a list of scheduler names"

	# A scheduler file that cannot be read fails it with its error, said once, and is no
	# bio-based disk the rule never runs for.
	sda_sched=$tree/sys/class/block/sda/queue/scheduler
	sda_path=/sys/$(cd -P "$tree/sys/class/block/sda" && pwd | sed "s|^$tree/sys/||")
	while IFS='|' read -r what make why; do
		rm -rf "$sda_sched"
		eval "$make"
		check "a scheduler file that is $what: exit 1" -- exits 1 guest "$tree" -c "$auto" --check sda sdb
		check "  says why, for sda alone" -- stdout_is "sda: cannot read '$sda_path/queue/scheduler': $why"
		check "  nothing on stderr" -- stderr_is ""
	done <<'TABLE'
a directory|mkdir "$sda_sched"|Is a directory
a FIFO|mkfifo "$sda_sched"|a FIFO, not a regular file
TABLE
	check "  --check --json: exit 1" -- exits 1 guest "$tree" -c "$auto" --check --json sda
	check "    the check fails, naming sda" -- json_is "d['check']" "{'ok': False, 'failing': ['sda']}"
	check "    sda is unreadable, no bio-based disk" -- \
		json_is "$(disk sda action)+'/'+$(disk sda reason)+'/'+str($(disk sda rule_skips))" \
		skipped/unreadable/None
	rm -rf "$sda_sched"
	printf '[mq-deadline] none\n' >"$sda_sched"
	if need_unreadable "--check of a scheduler file that cannot be read" "$TESTFACTS"; then
		chmod "$unreadable" "$sda_sched"
		check "a scheduler file that cannot be read: exit 1" -- exits 1 on hyperv-guest "$tree" \
			"${as_reader[@]}" "$TESTFACTS" -c "$auto" --check sda
		check "  says why" -- stdout_is "sda: cannot read '$sda_path/queue/scheduler': Permission denied"
		chmod 0644 "$sda_sched"
	fi

	# A config that cannot be read changes nothing, and fails the check, whatever the disks.
	cfg=$work/check.conf
	mkdir "$cfg"
	check "a config that cannot be read, sdb on none: exit 1" -- exits 1 guest "$tree" -c "$cfg" --check sdb
	check "  says why" -- stderr_is "hyperv-scheduler: cannot read '$cfg': Is a directory, nothing is changed"
	check "  no disk named" -- stdout_is ""
	check "  --check --json: exit 1" -- exits 1 guest "$tree" -c "$cfg" --check --json sdb
	check "    the check fails, no disk failing" -- json_is "d['check']" "{'ok': False, 'failing': []}"
	check "    the config cannot be read" -- json_is "d['policy']['config_unreadable']" True
fi

finish
