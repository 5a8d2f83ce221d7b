# shellcheck shell=bash
# Every kind of machine, through the binary: the testfacts build reads CPUID from a file
# (tests/fixtures/cpuid/), and a private mount namespace gives it the machine's /sys (a fake
# tree with that machine's DMI, VMBus or none) and kernel release. The report must give the
# verdict, the hypervisor and the flavour, and say what happens to the VMBus disk sda; on a
# machine that is no Hyper-V guest a real run must leave every file of the tree as it was.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

# DMI as sys_vendor|product_name|bios_vendor|chassis_asset_tag.
declare -A dmi_of=(
	[azure]="Microsoft Corporation|Virtual Machine|Microsoft Corporation|7783-7084-3265-9085-8269-3286-77"
	[hyperv]="Microsoft Corporation|Virtual Machine|Microsoft Corporation|4316-9423-5217-1742-6321-4498-72"
	[nutanix]="Nutanix|NX-3060-G7|American Megatrends Inc.|"
	[amazon]="Amazon EC2|m5.metal|Amazon EC2|Amazon EC2"
	[qemu]="QEMU|Standard PC (Q35 + ICH9, 2009)|EDK II|"
	[xen]="Xen|HVM domU|Xen|"
)

# fadt_bytes FILE LENGTH REVISION ID: the ACPI FADT as firmware writes it, LENGTH bytes with
# the revision at byte 8 and ID at 268 ("" for zeros), root's only (0400) as the kernel makes
# it. The tree's own table is 0400 too: replaced, not written over, which a user other than
# root may not do.
fadt_bytes() {
	rm -f "$1"
	{
		printf 'FACP'
		printf '%b' "$(printf '\\0%03o\\0%03o\\0%03o\\0%03o\\0%03o' $(($2 & 255)) $(($2 >> 8 & 255)) \
			$(($2 >> 16 & 255)) $(($2 >> 24 & 255)) "$3")"
		head -c 259 /dev/zero
		if [ -n "$4" ]; then printf '%s' "$4"; else head -c 8 /dev/zero; fi
	} | head -c "$2" >"$1" && chmod 0400 "$1"
}

# machine_tree NAME BASE DMI VMBUS [FADT]: a copy of fixture tree BASE with DMI (as in dmi_of;
# "-" leaves the tree's, "none" removes DMI, as WSL2 has none), when VMBUS is "no", no
# /sys/bus/vmbus, and FADT: "-" or empty the tree's (revision 6, MsHyperV), "none" no table,
# "rev5" the same bytes in a revision-5 table, "short" a 268-byte table, "zero" a zero
# hypervisor_id. Prints its root.
machine_tree() {
	local dir=$work/machine-$1 base dmi=$3 id fadt
	fadt=$dir/sys/firmware/acpi/tables/FACP
	base=$(make_tree "$2") || return 1
	cp -a "$base" "$dir" || return 1
	id=$dir/sys/devices/virtual/dmi/id
	case $dmi in
	-) ;;
	none) rm -rf "$id" "$dir/sys/class/dmi" ;;
	*)
		IFS='|' read -r sys_vendor product_name bios_vendor asset_tag <<<"$dmi"
		printf '%s\n' "$sys_vendor" >"$id/sys_vendor"
		printf '%s\n' "$product_name" >"$id/product_name"
		printf '%s\n' "$bios_vendor" >"$id/bios_vendor"
		printf '%s\n' "$asset_tag" >"$id/chassis_asset_tag"
		;;
	esac
	[ "$4" != no ] || rm -rf "$dir/sys/bus/vmbus"
	case ${5:--} in
	-) ;;
	none) rm -f "$fadt" ;;
	rev5) fadt_bytes "$fadt" 276 5 MsHyperV ;;
	short) fadt_bytes "$fadt" 268 6 "" ;;
	zero) fadt_bytes "$fadt" 276 6 "" ;;
	esac
	echo "$dir"
}

if need_tree "every kind of machine"; then
	if [ ! -x "$TESTFACTS" ]; then
		fail "every kind of machine" "$TESTFACTS is not built (make tests/hyperv-scheduler-testfacts)"
		finish
		exit
	fi
	conf=$(config "mode = auto")
	wsl=$work/osrelease-wsl
	echo 5.15.167.4-microsoft-standard-WSL2 >"$wsl"
	generic=$work/osrelease-debian
	echo 6.1.0-28-cloud-amd64 >"$generic"

	# event_agrees NAME TREE CPUID DISK ACTION [IN_NS-OPTION...]: the rule's event for DISK
	# (udev's DEVPATH, libudev made unloadable) writes DISK where the report's ACTION is
	# would-change, and only there: the run without libudev and the report, which reads
	# through libudev, decide alike. The read-back shows the target kept: none, or noop
	# where the disk offers no none (Linux before 5.0).
	event_agrees() {
		local name=$1 tree=$2 cpuid=$3 disk=$4 want=no devpath before target=none
		[ "${5%%/*}" != would-change ] || want=yes
		shift 5
		devpath=$(cd -P "$tree/sys/class/block/$disk" && pwd)
		grep -qw none "$devpath/queue/scheduler" || target=noop
		printf '[%s]\n' "$target" >"$work/on-target"
		before=$(tree_sum "$tree")
		check "$name: an event for $disk without libudev exits 0" -- exits 0 in_ns --sys "$tree" "$@" -- \
			env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/$cpuid" HYPERV_SCHEDULER_TEST_LIBUDEV=missing \
			HYPERV_SCHEDULER_TEST_READBACK="$work/on-target" DEVPATH="${devpath#"$tree/sys"}" DEVTYPE=disk \
			"$TESTFACTS" -c "$conf" --udev "$disk"
		check "$name: and writes $disk only if the report says it would change" -- \
			is "$disk written" "$([ "$(tree_sum "$tree")" = "$before" ] && echo no || echo yes)" "$want"
	}

	# machine | CPUID file | tree | DMI | VMBus | kernel release | verdict hypervisor flavour | sda
	# [| FADT, for the machines without CPUID]
	while IFS='|' read -r name cpuid base dmi vmbus osrelease want sda fadt; do
		[ -n "$name" ] || continue
		case $dmi in - | none) ;; *) dmi=${dmi_of[$dmi]} ;; esac
		tree=$(machine_tree "$name" "$base" "$dmi" "$vmbus" "$fadt") ||
			{
				fail "$name" "cannot build its tree"
				continue
			}
		# Without /proc/sys (a minimal /proc) the helper sees no kernel release at all.
		# Under umockdev (no /proc to mount over) it sees this machine's: one without
		# WSL's marks (src/verdict.c) decides as the Debian release does.
		release=(--osrelease "$work/osrelease-$osrelease")
		if [ ! -e /proc/sys/kernel/osrelease ]; then
			if [ "$osrelease" = wsl ]; then
				skip "$name" "no /proc/sys/kernel/osrelease to mount over"
				continue
			fi
			release=()
		elif [ "$ns_mounts" = no ]; then
			if [ "$osrelease" = wsl ]; then
				need_mounts "$name" /proc
				continue
			fi
			if grep -qiE 'microsoft|wsl' /proc/sys/kernel/osrelease; then
				skip "$name" "this kernel's release is WSL's, and umockdev redirects /sys only"
				continue
			fi
			release=()
		fi
		run=(in_ns --sys "$tree" "${release[@]}" --
			env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/$cpuid" "$TESTFACTS" -c "$conf")
		check "$name: the report exits 0" -- exits 0 "${run[@]}" --dry-run --json sda
		check "$name: $want" -- json_is \
			"' '.join([d['machine']['verdict'], str(d['machine']['hypervisor'])] + d['machine']['flavour'])" "$want"
		check "$name: sda is $sda" -- disk_is sda "$sda"
		if [ "${sda%%/*}" != would-change ]; then
			before=$(tree_sum "$tree")
			check "$name: a real run on every disk exits 0" -- exits 0 "${run[@]}" --all
			check "$name: and writes nothing" -- is "the tree's checksum" "$(tree_sum "$tree")" "$before"
		fi
		event_agrees "$name" "$tree" "$cpuid" sda "$sda" "${release[@]}"
	done <<'TABLE'
hyper-v gen1|hyperv-guest|legacy|-|yes|debian|hyperv-guest microsoft gen1|would-change/None
azure gen1|hyperv-guest|gen1|-|yes|debian|hyperv-guest microsoft azure gen1|would-change/None
hyper-v gen2|hyperv-guest|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
azure|hyperv-guest|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
azure l1vh|hyperv-l1vh|azure|azure|yes|debian|hyperv-guest microsoft l1vh azure gen2|would-change/None
hyper-v root|hyperv-root|azure|hyperv|no|debian|hyperv-root microsoft|skipped/not-hyperv
hyper-v root 0x000039ff|hyperv-root-real|azure|hyperv|no|debian|hyperv-root microsoft|skipped/not-hyperv
root privileges without config_mshv_root: vmbus up|hyperv-root|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
root privileges 0x000039ff, vmbus up|hyperv-root-real|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
microsoft hv with qemu dmi and vmbus up|hyperv-guest|azure|qemu|yes|debian|hyperv-guest microsoft|would-change/None
nested hyper-v root 0x002bb9ff|hyperv-root-nested|azure|azure|yes|debian|hyperv-root microsoft nested|would-change/None
cpumanagement alone 0x003b9030|hyperv-cpumgmt|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
hyper-v guest 0x00388030|hyperv-guest-388030|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
azure tdx 0x00628030|hyperv-tdx|azure|azure|yes|debian|hyperv-guest microsoft confidential azure gen2|would-change/None
kvm emulating a hyper-v root|kvm-hyperv-root|azure|azure|yes|debian|other-hypervisor kvm|skipped/not-hyperv
xen signature with too few leaves|xen-short|azure|hyperv|yes|debian|hyperv-guest microsoft gen2|would-change/None
hyper-v root on nutanix hardware|hyperv-root|azure|nutanix|no|debian|hyperv-root microsoft|skipped/not-hyperv
hyper-v root on amazon hardware|hyperv-root|azure|amazon|no|debian|hyperv-root microsoft|skipped/not-hyperv
azure confidential|hyperv-confidential|azure|azure|yes|debian|hyperv-guest microsoft confidential azure gen2|would-change/None
wsl2|hyperv-guest|azure|none|yes|wsl|hyperv-guest microsoft wsl2|would-change/None
kvm with hyper-v enlightenments|kvm-hyperv|azure|qemu|no|debian|other-hypervisor kvm|skipped/not-hyperv
xen with viridian|xen-viridian|azure|xen|no|debian|other-hypervisor xen|skipped/not-hyperv
qemu kvm=off with hyper-v enlightenments|qemu-kvm-off|azure|qemu|no|debian|other-hypervisor qemu|skipped/not-hyperv
plain kvm|kvm|azure|qemu|no|debian|other-hypervisor kvm|skipped/not-hyperv
kvm over a tree with vmbus and azure dmi|kvm|azure|azure|yes|debian|other-hypervisor kvm|skipped/not-hyperv
bare metal with microsoft dmi|bare-metal|azure|hyperv|no|debian|bare-metal None|skipped/not-hyperv
arm64 hyper-v guest|none|azure|azure|yes|debian|hyperv-guest microsoft azure gen2|would-change/None
arm64 hyper-v guest without vmbus or dmi yet|none|azure|none|no|debian|hyperv-guest microsoft|would-change/None|-
arm64 revision-5 fadt, microsoft dmi|none|azure|azure|no|debian|unknown None|skipped/not-hyperv|rev5
arm64 short fadt, microsoft dmi|none|azure|azure|no|debian|unknown None|skipped/not-hyperv|short
arm64 zero hypervisor_id, microsoft dmi|none|azure|azure|no|debian|unknown None|skipped/not-hyperv|zero
arm64 without a fadt, microsoft dmi|none|azure|azure|no|debian|hyperv-guest microsoft azure gen2|would-change/None|none
arm64 qemu|none|azure|qemu|no|debian|other-hypervisor qemu|skipped/not-hyperv|none
arm64 devicetree boot: no fadt, no dmi, vmbus up|none|azure|none|yes|debian|hyperv-guest microsoft|would-change/None|none
TABLE

	# A confidential guest's isolation type and paravisor, from 0x4000000C.
	tree=$(machine_tree tdx azure azure yes)
	check "tdx: the report" -- exits 0 in_ns --sys "$tree" -- env \
		HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-tdx" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "tdx: isolation TDX, a paravisor" -- json_is \
		"d['machine']['isolation'] + ' ' + str(d['machine']['paravisor'])" "TDX True"
	check "tdx: the evidence names leaf 0x4000000c" -- json_is \
		"[e for e in d['machine']['evidence'] if e.startswith('CPUID 0x4000000c')][0]" \
		"CPUID 0x4000000c EBX 0x00000c03: isolation type 3 (TDX); EAX 0x00000001: paravisor present"
	# Azure Generation 1 as a real one lists it: the OS and resource disks on the IDE fast
	# path (one queue each), data disks on SCSI controller f8b3781b with one queue per vCPU,
	# the DVD on the emulated IDE controller, off VMBus.
	tree=$(machine_tree gen1-disks gen1 - yes)
	check "azure gen1: the report" -- exits 0 in_ns --sys "$tree" -- env \
		HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf" --dry-run --json
	check "azure gen1: each disk's action" -- json_is \
		"' '.join(x['name'] + '=' + x['action'] + '/' + str(x['reason']) + '/' + str(x['queues']) for x in d['devices'])" \
		"sda=would-change/None/1 sdb=would-change/None/1 sdc=already/None/4 sdd=already/None/4 sr0=skipped/not-vmbus/1"
	check "azure gen1: the resource disk is on the IDE fast path" -- json_is "$(disk sdb queues_why)" "an IDE controller (Generation 1)"
	check "azure gen1: the data disks start on none" -- json_is "$(disk sdc kernel_default)" none
	event_agrees "azure gen1" "$tree" hyperv-guest sr0 skipped/not-vmbus
	event_agrees "azure gen1" "$tree" hyperv-guest sda would-change/None
	# A guest whose VMBus did not come up (hv_vmbus not loaded, or not built, as Linux 6.18
	# allows without CONFIG_HYPERV_VMBUS; or a host whose VMBus versions the kernel no longer
	# speaks): no storvsc either, the Generation 1 IDE disks on ata_piix. Still a guest, every
	# disk not-vmbus, a real run changes nothing, and the report says why.
	tree=$(make_tree novmbus)
	novmbus=(in_ns --sys "$tree" -- env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest"
		"$TESTFACTS" -c "$conf")
	check "guest without vmbus: the report" -- exits 0 "${novmbus[@]}" --dry-run --json
	check "guest without vmbus: still a guest" -- json_is "d['machine']['verdict']" hyperv-guest
	check "guest without vmbus: every disk is left alone as not on VMBus" -- json_is \
		"' '.join(x['name'] + '=' + x['action'] + '/' + str(x['reason']) for x in d['devices'])" \
		"sda=skipped/not-vmbus sr0=skipped/not-vmbus"
	check "guest without vmbus: the evidence says nothing is to change" -- json_is \
		"[e for e in d['machine']['evidence'] if e.startswith('no /sys/bus/vmbus')][0]" \
		"no /sys/bus/vmbus: VMBus is not up (hv_vmbus not loaded, or not built, as Linux 6.18 allows; or a host too old for this kernel's VMBus): a guest with no VMBus disk, nothing to change"
	before=$(tree_sum "$tree")
	check "guest without vmbus: a real run on every disk exits 0" -- exits 0 "${novmbus[@]}" --all
	check "guest without vmbus: and writes nothing" -- is "the tree's checksum" "$(tree_sum "$tree")" "$before"
	event_agrees "guest without vmbus" "$tree" hyperv-guest sda skipped/not-vmbus
	tree=$(machine_tree nested azure azure yes)
	check "nested root: the report" -- exits 0 in_ns --sys "$tree" -- env \
		HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-root-nested" "$TESTFACTS" -c "$conf" --dry-run --json sda
	check "nested root: the evidence names leaf 0x40000004 EAX bit 12" -- json_is \
		"[e for e in d['machine']['evidence'] if e.startswith('CPUID 0x40000004')][0]" \
		"CPUID 0x40000004 EAX 0x00005e24: bit 12 (nested) set: inside another Hyper-V's VM, whose synthetic disks are on VMBus"

	# The report, as a person reads it, over the Azure tree.
	tree=$(machine_tree report azure - yes)
	text=(in_ns --sys "$tree" -- env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest"
		"$TESTFACTS" -c "$conf")
	check "report: leaves out what the rule never runs for, and counts it" -- \
		exits 0 "${text[@]}" --dry-run
	check "report: the count line" -- stdout_has "
4 dm, loop, md, zram devices not shown (-v shows them)"
	check "report: no loop0 row" -- is "a loop0 row" "$(grep -c '^loop0 ' <<<"$out")" 0
	check "report: -v shows them" -- exits 0 "${text[@]}" --dry-run -v
	check "report: -v has the loop0 row" -- is "a loop0 row" "$(grep -c '^loop0 ' <<<"$out")" 1
	check "report: -v has no count line" -- is "a count line" "$(grep -c 'not shown' <<<"$out")" 0
	check "report: JSON" -- exits 0 "${text[@]}" --dry-run --json
	check "report: JSON keeps loop0" -- json_is "$(disk loop0 rule_skips)" loop
	# Empty /run in the namespace: no udev control socket.
	check "report: no udev daemon running is said" -- exits 0 "${text[@]}" --dry-run sda
	check "report: the udev note" -- stdout_has "Note: no udev daemon is running (no /run/udev/control): the rule never runs here; run hyperv-scheduler --all at boot instead (hyperv-scheduler(8))."
	check "report: JSON without udev" -- exits 0 "${text[@]}" --dry-run --json sda
	check "report: udev_running false in JSON" -- json_is "d['udev_running']" False
	# A socket at /run/udev/control, as systemd-udevd and eudev make, silences it.
	if need_mounts "report: with a udev control socket" /run; then
		sock=(in_ns --sys "$tree" -- sh -c 'mkdir -p /run/udev &&
                        python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"/run/udev/control\")" &&
                        exec "$@"' sh env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest"
			"$TESTFACTS" -c "$conf")
		check "report: with a udev control socket" -- exits 0 "${sock[@]}" --dry-run sda
		check "report: no udev note then" -- is "a udev note" "$(grep -c 'no udev daemon' <<<"$out")" 0
		check "report: JSON with a udev control socket" -- exits 0 "${sock[@]}" --dry-run --json sda
		check "report: udev_running true in JSON" -- json_is "d['udev_running']" True
	fi
	# elevator= on the kernel command line: noted in both reports, never under --udev.
	if [ ! -e /proc/cmdline ]; then
		skip "report: elevator= noted" "no /proc/cmdline to mount over"
	elif need_mounts "report: elevator= noted" /proc; then
		echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 elevator=noop" >"$work/cmdline-elevator"
		elev=(in_ns --sys "$tree" --cmdline "$work/cmdline-elevator" -- env
			HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/hyperv-guest" "$TESTFACTS" -c "$conf")
		check "report: elevator= noted" -- exits 0 "${elev[@]}" --dry-run sda
		check "report: the elevator note" -- stdout_has "Note: elevator= on the kernel command line does nothing since Linux 5.0 (the kernel only warns): this package sets the scheduler, and hyperv_scheduler= on the command line sets its mode."
		check "report: JSON with elevator=" -- exits 0 "${elev[@]}" --dry-run --json sda
		check "report: the elevator note in JSON" -- json_is "[n for n in d['notes'] if n.startswith('elevator=')][0][:40]" "elevator= on the kernel command line doe"
		check "report: nothing about elevator= under --udev" -- exits 0 "${elev[@]}" --udev sdb
		check "report: --udev is silent" -- silent
	fi
	# What the kernel starts each disk on, from the disk's own facts (elevator_get_default()).
	check "report: each disk's kernel default" -- exits 0 "${text[@]}" --dry-run sda sdb
	check "report: sda, one queue, mq-deadline offered" -- stdout_has "sda: 1 hardware queue: the kernel starts it on mq-deadline"
	check "report: sdb, two queues" -- stdout_has "sdb: 2 hardware queues: the kernel starts it on none (mq-deadline if they share one tag set)"
	check "report: each disk's kernel default in JSON" -- exits 0 "${text[@]}" --dry-run --json sda sdb
	check "report: kernel_default of sda and sdb" -- json_is \
		"[x['kernel_default'] for x in d['devices']]" "['mq-deadline', 'none']"
	# One hardware queue, and why: one present CPU, the storvsc module parameter, IDE.
	mkdir -p "$tree/sys/devices/system/cpu" "$tree/sys/module/hv_storvsc/parameters"
	echo 0 >"$tree/sys/devices/system/cpu/present"
	echo 1 >"$tree/sys/module/hv_storvsc/parameters/storvsc_max_hw_queues"
	check "report: why sda has one queue" -- exits 0 "${text[@]}" --dry-run sda
	check "report: one CPU and the parameter" -- stdout_has "sda: 1 hardware queue: one present CPU, hv_storvsc.storvsc_max_hw_queues=1"
	echo 0-3 >"$tree/sys/devices/system/cpu/present"
	echo 0 >"$tree/sys/module/hv_storvsc/parameters/storvsc_max_hw_queues"
	sed -i 's/ba6163d9-04a1-4d29-b605-72e2ffb1dc7f/32412632-86cb-44a2-9b5c-50d1417354f5/' \
		"$tree"/sys/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0004:00/VMBUS:00/f8b3781a-1e82-4818-a1c3-63d806ec15bb/class_id
	check "report: an IDE disk" -- exits 0 "${text[@]}" --dry-run --json sda sdb
	check "report: an IDE controller in JSON" -- json_is "$(disk sda queues_why)" "an IDE controller (Generation 1)"
	check "report: nothing to explain for sdb's two queues" -- json_is "$(disk sdb queues_why)" None

	# The FADT is root's only (0400): a report without root says so and decides from VMBus.
	if need_unreadable "arm64 without root" "$TESTFACTS"; then
		tree=$(machine_tree arm64-nobody azure azure yes) && chmod -R a+rX "$tree" &&
			chmod "$unreadable" "$tree/sys/firmware/acpi/tables/FACP"
		run=(in_ns --sys "$tree" -- "${as_reader[@]}"
			env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/none" "$TESTFACTS" -c "$conf")
		check "arm64 without root: the report exits 0" -- exits 0 "${run[@]}" --dry-run --json sda
		check "arm64 without root: says it could not read the FADT" -- json_is \
			"[e for e in d['machine']['evidence'] if 'FACP' in e][0]" \
			"cannot read '/sys/firmware/acpi/tables/FACP': Permission denied: deciding from /sys/bus/vmbus and DMI"
		check "arm64 without root: still a guest by VMBus" -- json_is "d['machine']['verdict']" hyperv-guest
	fi

	# An FACP that is not a table, or another table: the report says what it is, and decides
	# from VMBus. A FIFO, a socket or a device is refused unread.
	tree=$(machine_tree arm64-odd azure azure yes)
	facp=$tree/sys/firmware/acpi/tables/FACP
	odd=(in_ns --sys "$tree" -- env HYPERV_SCHEDULER_TEST_CPUID="$FIXTURES/cpuid/none"
		timeout "$hang_limit" "$TESTFACTS" -c "$conf" --dry-run --json sda)
	while IFS='|' read -r what want; do
		rm -f "$facp"
		case $what in
		FIFO) mkfifo "$facp" ;;
		# Bound by its name in its directory: the whole path may be longer than a
		# socket address holds (108 bytes), as under a build host's long TMPDIR.
		socket) (cd "${facp%/*}" && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("FACP")') ;;
		device) ln -s /dev/zero "$facp" ;;
		"table of another kind") head -c 276 /dev/zero | tr '\0' A >"$facp" ;;
		esac
		check "arm64, the FACP a $what: the report exits 0" -- exits 0 "${odd[@]}"
		check "  says what it is" -- json_is "[e for e in d['machine']['evidence'] if 'FACP' in e][0]" "$want"
		check "  a guest by VMBus" -- json_is "d['machine']['verdict']" hyperv-guest
	done <<'TABLE'
FIFO|cannot read '/sys/firmware/acpi/tables/FACP': a FIFO, not a regular file: deciding from /sys/bus/vmbus and DMI
socket|cannot read '/sys/firmware/acpi/tables/FACP': a socket, not a regular file: deciding from /sys/bus/vmbus and DMI
device|cannot read '/sys/firmware/acpi/tables/FACP': a character device, not a regular file: deciding from /sys/bus/vmbus and DMI
table of another kind|'/sys/firmware/acpi/tables/FACP' is not an ACPI FADT
TABLE
fi

finish
