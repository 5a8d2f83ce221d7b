#!/bin/bash
# tests/vm/boot.sh WORK IMAGES NAME SUITE ARCH FLAVOUR CASE SECONDS: one first boot of the pristine
# image IMAGES/SUITE-ARCH.img (through a throw-away qcow2 overlay) with its FLAVOUR kernel,
# under TCG, with the disks every case looks at: the root disk vda, vdb (virtio, one queue)
# and, on a PC, an IDE disk and an IDE CD-ROM. CASE picks the machine QEMU shows and, on the
# kernel command line (hstest.case=), the guest's configuration. The guest's report lands in
# WORK/NAME.report, its console in WORK/NAME.console, the seconds qemu ran in WORK/NAME.wall.
# Cases "always" and "readme" also get vdc attached through the QEMU monitor once the guest says it is
# ready. qemu runs under timeout: a hung guest is ended by its PID after SECONDS;
# WORK/NAME.pid names it for an early end.
# shellcheck disable=SC2054 # commas separate QEMU's sub-options, not array elements
set -euo pipefail
work=$1 images=$2 name=$3 suite=$4 arch=$5 flavour=$6 case=$7 seconds=$8
w=$work/$name
base=$images/$suite-$arch
qemu-img create -q -f qcow2 -b "$base.img" -F raw "$w.qcow2"
truncate -s 64M "$w.vdb" "$w.vdc" "$w.ide"
: >"$w.report"
mkfifo "$w.mon.in" "$w.mon.out"
cmdline="root=LABEL=root rw hstest.case=$case systemd.show_status=0"
machine=()
microsoft=(-smbios "type=0,vendor=Microsoft Corporation"
	-smbios "type=1,manufacturer=Microsoft Corporation,product=Virtual Machine")
case $case in
# No "TCGTCGTCGTCG" at CPUID 0x40000000, so DMI has the last word.
smbios) machine=(-cpu qemu64,tcg-cpuid=off "${microsoft[@]}") ;;
# No hypervisor bit either: what bare metal from Microsoft would show.
nohv) machine=(-cpu qemu64,tcg-cpuid=off,hypervisor=off "${microsoft[@]}") ;;
off) cmdline+=" hyperv_scheduler=off" ;;
# The README's way for a CI boot: the mode from the kernel command line, the package's config.
readme) cmdline+=" hyperv_scheduler=always" ;;
esac
disks=(-drive "file=$w.qcow2,if=none,id=root,format=qcow2" -device virtio-blk-pci,drive=root
	-drive "file=$w.vdb,if=none,id=vdb,format=raw" -device virtio-blk-pci,drive=vdb,num-queues=1
	-drive "file=$w.vdc,if=none,id=hot,format=raw")
case $arch in
amd64)
	[ ${#machine[@]} != 0 ] || machine=(-cpu qemu64)
	qemu=(qemu-system-x86_64 -machine pc,accel=tcg "${machine[@]}"
		-drive "file=$w.ide,if=ide,index=0,format=raw" -drive if=ide,index=2,media=cdrom
		-serial "file:$w.console" -serial "file:$w.report")
	# With DMI saying Microsoft Virtual Machine, Linux's ata_piix leaves the IDE hard disks
	# to storvsc, as on Hyper-V: those boots have no sda.
	case $case in
	smbios | nohv) cmdline+=" hstest.disks=vda,vdb,sr0" ;;
	*) cmdline+=" hstest.disks=vda,vdb,sda,sr0" ;;
	esac
	cmdline+=" console=ttyS0"
	;;
arm64)
	# QEMU's SMBIOS reaches an arm64 guest only through UEFI; the PL011 is the only UART.
	qemu=(qemu-system-aarch64 -machine virt,accel=tcg -cpu cortex-a57 -bios "${VM_EFI:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}"
		-serial "file:$w.console" -device virtio-serial-pci
		-chardev "file,id=report,path=$w.report" -device virtconsole,chardev=report)
	cmdline+=" console=ttyAMA0 hstest.port=hvc0 hstest.disks=vda,vdb"
	;;
esac
cat "$w.mon.out" >"$w.monitor" &
started=$SECONDS
timeout --kill-after=10 "$seconds" "${qemu[@]}" -m 768 -smp 1 -nodefaults -no-user-config \
	-display none -no-reboot -monitor "pipe:$w.mon" -kernel "$base-$flavour.vmlinuz" \
	-initrd "$base-$flavour.initrd" -append "$cmdline" "${disks[@]}" &
qemu_pid=$!
echo "$qemu_pid" >"$w.pid"
if { [ "$case" = always ] || [ "$case" = readme ]; } &&
	grep -q -m 1 '^hotplug ready' < <(tail -n +1 -F --pid="$qemu_pid" "$w.report" 2>/dev/null); then
	echo "device_add virtio-blk-pci,drive=hot,num-queues=1,id=hot0" >"$w.mon.in"
fi
rc=0
wait "$qemu_pid" || rc=$?
echo "$((SECONDS - started))" >"$w.wall"
rm -f "$w.pid" "$w.qcow2" "$w.vdb" "$w.vdc" "$w.ide" "$w.mon.in" "$w.mon.out"
cp "$base-$flavour.version" "$w.kernel"
case $rc in
0) ;;
124 | 137) echo "no power-off within $seconds s, qemu ended" >>"$w.report" ;;
*) echo "qemu exited with status $rc" >>"$w.report" ;;
esac
