#!/bin/bash
# tests/vm/check.sh WORK: judges the guests' reports (WORK/NAME.report, written by
# tests/vm/guest/report.sh) of the boots WORK/queue lists (tests/vm/cases.sh) against cases 1-9 of the VM tests, one PASS or FAIL line each, then
# prints the schedulers each kernel gave and what the package changed, as a Markdown table.
# Each boot carries its own reference: the list the kernel had set on each disk when its add
# event began. Exits non-zero when a case failed.
set -u
work=$1
passed=0 failed=0
# A serial line may end in CR LF.
for r in "$work"/*.report; do
	[ -e "$r" ] && sed -i 's/\r$//' "$r"
done

pass() {
	passed=$((passed + 1))
	echo "PASS: vm: $1"
}
fail() {
	failed=$((failed + 1))
	echo "FAIL: vm: $1: $2"
}

# field BOOT PHASE KIND: the lines of that kind in that phase, without the prefix.
field() {
	sed -n "s/^$2 $3 //p" "$work/$1.report" 2>/dev/null
}
# sched BOOT PHASE DISK: the disk's scheduler list in that phase ("[none] mq-deadline").
sched() {
	field "$1" "$2" disk | sed -n "s/^$3 queues=[0-9]* sched=//p" | sed 's/ *$//'
}
# kernel BOOT PHASE DISK: the list the kernel had set when the disk's add event began.
kernel() {
	field "$1" "$2" kernel | sed -n "s/^$3 //p" | sed 's/ *$//'
}
selected() {
	sed -n 's/.*\[\(.*\)\].*/\1/p'
}
current() {
	sched "$@" | selected
}
json() {
	field "$1" "$2" json | jq -r "$3" 2>/dev/null
}
# lines_for BOOT PHASE DISK: the helper's journal lines of that phase naming DISK.
lines_for() {
	field "$1" "$2" journal | grep "^$3: " || true
}
disks_of() {
	field "$1" "$2" disk | cut -d' ' -f1
}
# runs BOOT: how many times udev started the helper at coldplug (tests/vm/guest/count-helper.sh).
runs() {
	field "$1" coldplug helper | sed -n 's/^runs=\([0-9?]*\) .*/\1/p'
}
# ran_for BOOT: the disks it started the helper for, sorted, on one line.
ran_for() {
	field "$1" coldplug helper | sed -n 's/^runs=[0-9?]* disks=//p'
}
# runs_for BOOT DISK: how many of those runs were for DISK.
runs_for() {
	ran_for "$1" | tr ' ' '\n' | grep -cx "$2"
}

# ran_exactly BOOT: udev started the helper at coldplug once for each disk the kernel had not
# put on none or noop, and for no other: the rule starts no process for a disk already there.
ran_exactly() {
	local d want=() expected
	if [ -z "$(runs "$1")" ] || [ "$(runs "$1")" = "?" ]; then
		echo "the helper's runs at coldplug were not counted"
		return
	fi
	for d in $(disks_of "$1" coldplug); do
		case $(kernel "$1" coldplug "$d" | selected) in
		none | noop) ;;
		*) want+=("$d") ;;
		esac
	done
	expected=$(printf '%s\n' "${want[@]}" | sort | xargs)
	[ "$(ran_for "$1")" = "$expected" ] ||
		echo "udev started the helper $(runs "$1") times at coldplug, for '$(ran_for "$1")'; expected once for each of '$expected'"
}

# Every boot: the guest got to its report and powered off, every disk QEMU attached was
# there, and udevd never named the helper.
boot_ok() {
	local r=$work/$1.report
	if [ ! -s "$r" ]; then
		echo "no report"
	elif [ "$(tail -n 1 "$r")" != end ]; then
		echo "report ends with '$(tail -n 1 "$r")'"
	elif grep -q '^[a-z]* udevd ' "$r"; then
		echo "systemd-udevd: $(sed -n 's/^[a-z]* udevd //p' "$r" | head -n 1)"
	elif grep -q '^coldplug note not every disk' "$r"; then
		echo "$(sed -n 's/^coldplug note //p' "$r"), only $(disks_of "$1" coldplug | tr '\n' ' ')"
	fi
}

# expect_change BOOT PHASE DISK: DISK runs none, and the journal has exactly one line for it,
# naming the scheduler the kernel had set, or none when that was none already.
expect_change() {
	local was now lines
	was=$(kernel "$1" "$2" "$3" | selected)
	now=$(current "$1" "$2" "$3")
	lines=$(lines_for "$1" "$2" "$3")
	if [ -z "$was" ]; then
		echo "$3: not there, or no record of the kernel's choice"
	elif [ "$now" != none ]; then
		echo "$3 runs '$now', not none"
	elif [ "$was" = none ] && [ -n "$lines" ]; then
		echo "$3 already ran none, yet the journal says '$lines'"
	elif [ "$was" != none ] && [ "$lines" != "$3: $was -> none" ]; then
		echo "journal for $3: '${lines:-nothing}', expected exactly '$3: $was -> none'"
	fi
}

# unchanged BOOT PHASE: every disk still runs what the kernel chose at coldplug. The names
# offered may have grown: case 7 loads mq-deadline, which Debian 13's cloud kernel builds as a
# module, to give vdb an add event the helper runs for.
unchanged() {
	local d k
	for d in $(disks_of "$1" coldplug); do
		k=$(kernel "$1" coldplug "$d")
		if [ -z "$k" ]; then
			echo "$d: no record of the kernel's choice"
			return
		elif [ "$(sched "$1" "$2" "$d" | selected)" != "$(echo "$k" | selected)" ]; then
			echo "$2: $d lists '$(sched "$1" "$2" "$d")', the kernel had set '$k'"
			return
		fi
	done
}

no_change_lines() {
	field "$1" "$2" journal | grep ' -> ' | head -n 1 | sed 's/^./journal: &/'
}

# result NAME WHY...: PASS when every WHY is empty, else FAIL with the first.
result() {
	local name=$1 why
	shift
	for why in "$@"; do
		if [ -n "$why" ]; then
			fail "$name" "$why"
			return
		fi
	done
	pass "$name"
}

# What Debian's kernels are known to do (12: 6.1, 13: cloud 6.12), so that a case stays about
# the kernel it claims to be about, and a bug only one of them shows cannot hide.
known() {
	local b=$1 d
	case $2-$3-$4 in
	bookworm-*-amd64)
		for d in vdb sda sr0; do
			[ "$(kernel "$b" coldplug $d)" = "[mq-deadline] none" ] ||
				echo "Debian 12: the kernel gave $d '$(kernel "$b" coldplug $d)', not '[mq-deadline] none'"
			[ "$(sched "$b" coldplug $d)" = "[none] mq-deadline" ] ||
				echo "Debian 12: $d lists '$(sched "$b" coldplug $d)' after the switch, not '[none] mq-deadline'"
		done
		;;
	trixie-cloud-amd64)
		for d in vdb sda sr0; do
			[ "$(kernel "$b" coldplug $d)" = "[none]" ] ||
				echo "Debian 13 cloud: the kernel gave $d '$(kernel "$b" coldplug $d)', not '[none]' alone"
		done
		[ "$(runs "$b")" = 0 ] ||
			echo "Debian 13 cloud: udev started the helper $(runs "$b") times at coldplug, not 0"
		;;
	esac
}

# change BOOT DISK: what the package did to DISK at coldplug, for the table.
change() {
	local was now
	was=$(kernel "$1" coldplug "$2" | selected)
	now=$(current "$1" coldplug "$2")
	if [ "$was" = "$now" ]; then
		echo "nothing: already \`$now\`"
	else
		echo "\`$was\` → \`$now\`"
	fi
}

# readme_ran BOOT PHASE STATUS: the README's --check line exited STATUS in that phase.
readme_ran() {
	local got
	got=$(field "$1" "$2" note | sed -n 's/^readme-check status=//p')
	[ "$got" = "$3" ] || echo "$2: the README's --check line exited '${got:-?}', not $3"
}
# changed_lines BOOT PHASE: the README's journal line's lines naming a change, their tails.
changed_lines() {
	field "$1" "$2" readme-journal | sed -n 's/^.*hyperv-scheduler\[[0-9]*\]: \(.* -> .*\)$/\1/p' | sort | xargs
}

table=()
while read -r name suite arch flavour case; do
	release=$([ "$suite" = bookworm ] && echo "Debian 12" || echo "Debian 13")
	kernel=$(cat "$work/$name.kernel" 2>/dev/null || echo "?")
	label="$suite $kernel"
	t=$(field "$name" coldplug uptime)
	t=" (report ${t:-?} s after kernel start, $(cat "$work/$name.wall" 2>/dev/null || echo "?") s for the whole boot; helper runs at coldplug: $(runs "$name")$(ran_for "$name" | sed 's/..*/ (&)/'))"
	bad=$(boot_ok "$name")
	[ -n "$bad" ] || bad=$(ran_exactly "$name")
	case $case in
	defaults)
		result "$label: 1 defaults: other-hypervisor, nothing changed or logged$t" "$bad" \
			"$([ "$(json "$name" coldplug .machine.verdict)" = other-hypervisor ] ||
				echo "verdict '$(json "$name" coldplug .machine.verdict)'")" \
			"$(field "$name" coldplug journal | head -n 1 | sed 's/^./journal: &/')" \
			"$(unchanged "$name" coldplug)" \
			"$(json "$name" coldplug '[.devices[] | select(.action != "skipped") | .name] | join(" ")' |
				sed 's/^./not skipped: &/')"
		life=()
		[ "$(field "$name" install note | sed -n 's/^before vdb=//p')" = mq-deadline ] ||
			life+=("vdb did not run mq-deadline before the install")
		[ "$(current "$name" install vdb)" = none ] || life+=("install: vdb runs '$(current "$name" install vdb)'")
		[ "$(lines_for "$name" install vdb)" = "vdb: mq-deadline -> none" ] ||
			life+=("install: the journal has '$(lines_for "$name" install vdb | tr '\n' ' ')', not 'vdb: mq-deadline -> none'")
		[ "$(current "$name" undo vdb)" = mq-deadline ] || life+=("remove: vdb runs '$(current "$name" undo vdb)', not the mq-deadline it had")
		[ "$(lines_for "$name" undo vdb)" = "vdb: none -> mq-deadline (undone)" ] ||
			life+=("remove: the journal has '$(lines_for "$name" undo vdb | tr '\n' ' ')', not the undo")
		[ "$(current "$name" reinstall vdb)" = none ] || life+=("install again: vdb runs '$(current "$name" reinstall vdb)'")
		field "$name" upgrade note | grep -q '^status=0 version=.*+vmtest1$' ||
			life+=("upgrade: $(field "$name" upgrade note | tail -n 1)")
		[ "$(current "$name" upgrade vdb)" = none ] || life+=("upgrade: vdb runs '$(current "$name" upgrade vdb)'")
		[ "$(json "$name" upgrade '.devices[] | select(.name == "vdb") | .changed.from')" = mq-deadline ] ||
			life+=("upgrade: the record of vdb is gone")
		[ "$(current "$name" remove vdb)" = mq-deadline ] || life+=("remove: vdb runs '$(current "$name" remove vdb)'")
		field "$name" purge note | grep -qx 'dpkg-L=none' || life+=("purge: dpkg -L still lists files")
		[ -z "$(field "$name" purge note | sed -n 's/^left=//p')" ] ||
			life+=("purge leaves $(field "$name" purge note | sed -n 's/^left=//p' | tr '\n' ' ')")
		result "$label: 8 in the running guest: install applies and logs, remove puts back, install again and upgrade keep, purge cleans" \
			"$bad" "${life[@]}"
		result "$label: 12 the README's CI lines on the defaults: --check exits 0 and says nothing, the journal names no change" \
			"$bad" "$(readme_ran "$name" readme 0)" \
			"$(field "$name" readme readme-check | head -n 1 | sed 's/^./--check says: &/')" \
			"$(changed_lines "$name" readme | sed 's/^./the journal names: &/')"
		;;
	always | readme)
		mode=$([ "$case" = readme ] && echo "hyperv_scheduler=always" || echo "mode = always")
		result "$label: 3 $mode: single-queue virtio vdb gets none from coldplug, one journal line naming the kernel's choice$t" \
			"$bad" "$(expect_change "$name" coldplug vdb)" "$(expect_change "$name" coldplug vda)" \
			"$(known "$name" "$suite" "$flavour" "$arch")"
		result "$label: 4 $mode: the IDE disk and the IDE CD-ROM get none" "$bad" \
			"$(expect_change "$name" coldplug sda)" "$(expect_change "$name" coldplug sr0)"
		if [ "$case" = readme ]; then
			want=()
			for d in vda vdb sda sr0; do
				was=$(kernel "$name" coldplug "$d" | selected)
				[ -z "$was" ] || [ "$was" = none ] || want+=("$d: $was -> none")
			done
			result "$label: 10 the README's CI lines after a boot with $mode: --check exits 0 and says nothing, the journal names each disk changed" \
				"$bad" "$(readme_ran "$name" readme 0)" \
				"$(field "$name" readme readme-check | head -n 1 | sed 's/^./--check says: &/')" \
				"$([ "$(json "$name" coldplug '.policy.mode + " " + (.policy.mode_from_cmdline | tostring)')" = "always true" ] ||
					echo "policy: $(json "$name" coldplug '.policy.mode + " " + (.policy.mode_from_cmdline | tostring)')")" \
				"$([ ${#want[@]} -gt 0 ] || echo "no disk started off none: nothing to change")" \
				"$([ "$(changed_lines "$name" readme)" = "$(printf '%s\n' "${want[@]}" | sort | xargs)" ] ||
					echo "the journal names '$(changed_lines "$name" readme)', expected '$(printf '%s\n' "${want[@]}" | sort | xargs)'")"
			result "$label: 11 vdb set back to mq-deadline after boot: the README's --check exits 1, naming it" \
				"$bad" "$(readme_ran "$name" setback 1)" \
				"$([ "$(field "$name" setback readme-check)" = "vdb: on mq-deadline, wants none" ] ||
					echo "--check says '$(field "$name" setback readme-check)', expected 'vdb: on mq-deadline, wants none'")"
		fi
		result "$label: 5 a single-queue disk hot-added through the QEMU monitor gets none" "$bad" \
			"$(grep -q '^hotplug ready' "$work/$name.report" || echo "the guest never got ready for it")" \
			"$(expect_change "$name" hotplug vdc)"
		for d in "vdb virtio, 1 queue" "sda IDE disk" "sr0 IDE CD-ROM"; do
			table+=("| $release | $flavour \`$kernel\` | ${d#* } | \`$(kernel "$name" coldplug "${d%% *}")\` | $(change "$name" "${d%% *}") | $(runs_for "$name" "${d%% *}") |")
		done
		;;
	smbios | nohv)
		verdict=$(json "$name" coldplug .machine.verdict)
		cpu=$([ "$case" = nohv ] && echo "no TCG signature, no hypervisor bit" || echo "no TCG signature")
		result "$label: 2 SMBIOS Microsoft Virtual Machine, $cpu: '$verdict', nothing changed$t" \
			"$bad" "$(unchanged "$name" coldplug)" "$(no_change_lines "$name" coldplug)" \
			"$([ "$case" != nohv ] || [ "$verdict" = bare-metal ] || echo "verdict '$verdict', not bare-metal")" \
			"$([ "$verdict" != hyperv-guest ] || echo "a Hyper-V verdict without Hyper-V's CPUID")"
		if [ "$case" = smbios ]; then
			broken=()
			# --dry-run shows every warning; under udev the helper logs one only where it
			# changes what happens to the event's disk, and with the defaults (the file
			# unreadable, or its mode line bad) nothing changes on a machine that is not
			# Hyper-V: the journal stays silent at coldplug and at each add event.
			for p in coldplug:'binary file (NUL bytes), nothing is changed' \
				binary:'binary file (NUL bytes), nothing is changed' \
				badline:"hyperv-scheduler.conf:1: " badline:"hyperv-scheduler.conf:2: " \
				huge:'(more than 64 KiB), nothing is changed'; do
				field "$name" "${p%%:*}" warning | grep -qF "${p#*:}" ||
					broken+=("${p%%:*}: --dry-run gives no warning with '${p#*:}'")
				broken+=("$(field "$name" "${p%%:*}" journal | head -n 1 | sed "s/^./${p%%:*}: the journal says: &/")")
				[ "$(json "$name" "${p%%:*}" .policy.mode)" = auto ] ||
					broken+=("${p%%:*}: mode '$(json "$name" "${p%%:*}" .policy.mode)', not the default")
				broken+=("$(unchanged "$name" "${p%%:*}")")
			done
			for p in coldplug binary huge; do
				[ "$(json "$name" $p .policy.config_unreadable)" = true ] ||
					broken+=("$p: the report does not say the config is unreadable")
			done
			result "$label: 7 broken config (binary, bad line, huge): boots, --dry-run warns, defaults shown, nothing changed or logged, no udevd failure" \
				"$bad" "${broken[@]}"
		fi
		;;
	off)
		result "$label: 6 hyperv_scheduler=off on the command line beats mode = always: nothing changes$t" \
			"$bad" "$(unchanged "$name" coldplug)" \
			"$(field "$name" coldplug journal | head -n 1 | sed 's/^./journal: &/')" \
			"$([ "$(json "$name" coldplug '.policy.mode + " " + (.policy.mode_from_cmdline | tostring)')" = "off true" ] ||
				echo "policy: $(json "$name" coldplug '.policy.mode + " " + (.policy.mode_from_cmdline | tostring)')")"
		;;
	arm64)
		verdict=$(json "$name" coldplug .machine.verdict)
		evidence=$(json "$name" coldplug '.machine.evidence | join("; ")')
		result "$label: 9 arm64: verdict '$verdict' from DMI ($evidence), mode = always gives vdb none$t" \
			"$bad" "$(case $verdict in hyperv*) echo "verdict $verdict on QEMU" ;; esac)" \
			"$([[ $evidence == *DMI* ]] || echo "no DMI in the evidence")" \
			"$(expect_change "$name" coldplug vdb)"
		table+=("| $release arm64 | cloud \`$kernel\` | virtio, 1 queue | \`$(kernel "$name" coldplug vdb)\` | $(change "$name" vdb) | $(runs_for "$name" vdb) |")
		;;
	esac
done <"$work/queue"

echo "vm: $passed passed, $failed failed"
echo
echo "QEMU guests (TCG, 1 vCPU), not Hyper-V: the list each kernel sets on a disk, and what the"
echo "package changed at coldplug with mode = always; helper runs at boot: how many times udev"
echo "started the helper for that disk at coldplug."
echo
echo "| release | kernel | disk | the kernel's list | the package changed | helper runs at boot |"
echo "| --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${table[@]}"

# BENCHMARKS.md shows this table condensed, a row per kernel whose disks all agree, after its
# line "<!-- make check-vm: kernel table -->": it must say what this run saw. The kernels' point
# releases are left out of the comparison (the archive moves them), and a run of some boots
# (VM_ONLY) has not the whole table to compare.
# rows COLUMNS: each Markdown table row on stdin as "release|flavour|list|changed|runs", the
# flavour without its version; COLUMNS 6 for this table (with a disk column), 5 for the page's.
rows() {
	awk -F'|' -v n="$1" '/^\| / {
		for (i = 2; i <= NF; i++) gsub(/^ +| +$/, "", $i)
		if ($2 == "release" || $2 == "---") next
		split($3, k, " ")
		print $2 "|" k[1] "|" $(n - 1) "|" $n "|" $(n + 1)
	}'
}
condense() {
	awk -F'|' '{
		key = $1 "|" $2; val = $3 "|" $4 "|" $5
		if (!(key in seen)) { order[++n] = key; seen[key] = val }
		else if (seen[key] != val) seen[key] = "the disks differ"
	} END { for (i = 1; i <= n; i++) print order[i] "|" seen[order[i]] }'
}
page=$(dirname "$0")/../../BENCHMARKS.md
if cmp -s <("$(dirname "$0")/cases.sh") "$work/queue"; then
	page_rows=$(awk 'f && /^\|/ { print; t = 1; next } f && t { exit }
		$0 == "<!-- make check-vm: kernel table -->" { f = 1 }' "$page" | rows 5)
	got=$(printf '%s\n' "${table[@]}" | rows 6 | condense)
	if [ -z "$page_rows" ]; then
		fail "BENCHMARKS.md's table of kernels" "no table after its line <!-- make check-vm: kernel table -->"
	elif [ "$page_rows" = "$got" ]; then
		pass "BENCHMARKS.md's table of kernels is this run's, condensed"
	else
		fail "BENCHMARKS.md's table of kernels" "not what this run saw; this run, condensed (release|kernel|list|changed|runs):
$got"
	fi
	echo "vm: $passed passed, $failed failed"
fi
[ "$failed" = 0 ]
