#!/bin/bash
# Runs once coldplug is done; writes the report to the second serial port, one fact a line:
#   PHASE disk NAME queues=N sched=LIST   every disk with a scheduler
#   PHASE kernel NAME LIST                 its list when its last add event began: the
#                                          kernel's own choice (59-hstest-kernel.rules)
#   PHASE journal LINE                     the helper's journal lines since the last phase
#   PHASE udevd LINE                       systemd-udevd's lines naming the helper since then
#   PHASE json REPORT                      hyperv-scheduler --dry-run --json, on one line
#   PHASE uptime SECONDS                   since the kernel started
#   coldplug helper runs=N disks=NAME...   the runs of the helper udev started at coldplug
#                                          (count-helper), or runs=? when they were not counted
#   PHASE note TEXT                        facts of a phase (package files, exit statuses)
# then "end" and powers the guest off. The case (hstest.case= on the kernel command line)
# decides what happens after the coldplug phase.
set -u
arg() {
	sed -n "s/.*hstest\\.$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline
}
case=$(arg case)
# A second serial port where the machine has one (ttyS1 on a PC), else a virtio console. Its
# driver may be a module udev loads at coldplug (virtio_console in Debian's arm64 cloud kernel),
# and this runs once coldplug has been triggered, not handled: opened before the kernel made
# the node, /dev/hvc0 would be a new regular file and the report would reach nobody.
port=/dev/$(arg port)
[ "$port" != /dev/ ] || port=/dev/ttyS1
if ! udevadm wait --timeout=120 "$port" || [ ! -c "$port" ]; then
	echo "hstest: no report: $port is not there" >&2
	systemctl poweroff --force --force
	exit 1
fi
exec 3>"$port"
stty -onlcr <&3 2>/dev/null
cursors=/run/hstest
mkdir -p "$cursors"

finish() {
	echo end >&3
	exec 3>&-
	systemctl poweroff --force --force
}
trap finish EXIT

say() {
	printf '%s\n' "$*" >&3
}

disks() {
	local d n q
	for d in /sys/block/*; do
		n=${d##*/}
		[ -e "$d/queue/scheduler" ] || continue
		case $n in loop* | ram* | zram*) continue ;; esac
		q=$(find "$d/mq" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l)
		say "$1 disk $n queues=$q sched=$(cat "$d/queue/scheduler")"
		say "$1 kernel $n $(udevadm info -q property -n "/dev/$n" |
			sed -n 's/^HSTEST_KERNEL_SCHED=//p' | sed 's/_\([^_ ]*\)_/[\1]/')"
	done
}

# The journal since the previous call of this phase kind, one cursor per source.
journal() {
	journalctl --sync
	journalctl -q -b -o cat --cursor-file="$cursors/helper" -t hyperv-scheduler |
		sed "s/^/$1 journal /" >&3
	# udevd's own lines (its workers' included), not those of the programs it runs.
	journalctl -q -b -o cat --cursor-file="$cursors/udevd" -t systemd-udevd -t '(udev-worker)' |
		grep -F hyperv-scheduler | sed "s/^/$1 udevd /" >&3
}

phase() {
	local json
	udevadm settle
	disks "$1"
	journal "$1"
	if command -v hyperv-scheduler >/dev/null; then
		json=$(hyperv-scheduler --dry-run --json 2>/run/hstest-dry-run.err | tr -d '\n')
		say "$1 json $json"
		while IFS= read -r line; do
			say "$1 warning $line"
		done </run/hstest-dry-run.err
	fi
	say "$1 uptime $(cut -d' ' -f1 /proc/uptime)"
}

sched() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"
}

# The README's two lines for a CI boot ("Verify it in your CI"), each run as written: its exit
# status, then its output, one line each (PHASE readme-check LINE, PHASE readme-journal LINE).
readme() {
	local m out rc
	journalctl --sync
	for m in readme-check readme-journal; do
		rc=0
		out=$(bash -c "$(cat "/usr/local/share/hstest/$m")" 2>&1) || rc=$?
		say "$1 note $m status=$rc"
		[ -z "$out" ] || printf '%s\n' "$out" | sed "s/^/$1 $m /" >&3
	done
}

# Case 8: the package's life in this running system. The image's own copy goes first.
package_life() {
	local debs=/usr/local/share/hstest/debs
	modprobe mq-deadline 2>/dev/null
	dpkg --purge hyperv-scheduler >/dev/null
	echo mq-deadline >/sys/block/vdb/queue/scheduler
	say "install note before vdb=$(sched vdb)"
	printf 'mode = always\ndevices = vd*\n' >/etc/hyperv-scheduler.conf
	dpkg --force-confold -i "$debs"/old.deb >/dev/null
	say "install note status=$?"
	phase install
	# The removal puts back what the install changed; installed again, the change and its
	# record stay through an upgrade, whose prerm is no removal.
	dpkg --remove hyperv-scheduler >/dev/null
	say "undo note status=$?"
	phase undo
	dpkg --force-confold -i "$debs"/old.deb >/dev/null
	say "reinstall note status=$?"
	phase reinstall
	dpkg --force-confold -i "$debs"/new.deb >/dev/null
	say "upgrade note status=$? version=$(dpkg-query -W -f='${Version}' hyperv-scheduler)"
	phase upgrade
	dpkg --remove hyperv-scheduler >/dev/null
	say "remove note status=$?"
	phase remove
	dpkg --purge hyperv-scheduler >/dev/null
	say "purge note status=$?"
	if dpkg -L hyperv-scheduler >/dev/null 2>&1; then
		say "purge note dpkg-L=listed"
	else
		say "purge note dpkg-L=none"
	fi
	for f in /etc/hyperv-scheduler.conf /usr/sbin/hyperv-scheduler \
		/lib/udev/rules.d/60-hyperv-scheduler.rules /usr/lib/udev/rules.d/60-hyperv-scheduler.rules; do
		[ -e "$f" ] && say "purge note left=$f"
	done
	phase purge
}

# An add event for vdb that starts the helper: the rule starts nothing for a disk already on
# none (all of them on Debian 13's cloud kernel), so vdb is on mq-deadline for the event and
# back on the kernel's choice before the phase looks.
add_vdb() {
	local was
	was=$(sched vdb)
	modprobe mq-deadline 2>/dev/null
	echo mq-deadline >/sys/block/vdb/queue/scheduler
	udevadm trigger --action=add --settle /sys/block/vdb
	echo "$was" >/sys/block/vdb/queue/scheduler
}

# Case 7 after coldplug, with each broken file applied by an add event as udev sends it: the
# binary file of the coldplug phase again, a bad line, then a huge file.
broken_configs() {
	add_vdb
	phase binary
	printf 'mode = sometimes\nthis is not a setting\n' >/etc/hyperv-scheduler.conf
	add_vdb
	phase badline
	{
		yes '# padding' | head -c 70000
		printf '\nmode = always\n'
	} >/etc/hyperv-scheduler.conf
	add_vdb
	phase huge
}

# The runs count-helper saw, then the real helper back in place: the package's life (case 8)
# replaces and removes /usr/sbin/hyperv-scheduler, which a mount point would refuse.
helper_runs() {
	local count=/run/hstest-count runs
	if [ -e "$count/counting" ]; then
		runs=$(grep -c . "$count/runs")
		say "coldplug helper runs=$runs disks=$(sort "$count/runs" | xargs)"
		umount /usr/sbin/hyperv-scheduler
	else
		say "coldplug helper runs=? disks="
	fi
}

# The ATA bus is probed asynchronously: coldplug is over once every disk QEMU was given
# (hstest.disks=) is there and udev has handled it, and the queue is empty.
IFS=, read -ra expected <<<"$(arg disks)"
udevadm wait --timeout=120 "${expected[@]/#//dev/}" || say "coldplug note not every disk appeared: ${expected[*]}"
phase coldplug
helper_runs
case $case in
defaults)
	readme readme
	package_life
	;;
smbios) broken_configs ;;
readme)
	readme readme
	# A disk set back after boot: the check must fail, naming it.
	echo mq-deadline >/sys/block/vdb/queue/scheduler
	readme setback
	echo none >/sys/block/vdb/queue/scheduler
	say "hotplug ready"
	udevadm wait --timeout=120 /dev/vdc
	phase hotplug
	;;
always)
	say "hotplug ready"
	udevadm wait --timeout=120 /dev/vdc
	phase hotplug
	;;
esac
