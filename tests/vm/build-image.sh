#!/bin/bash
# tests/vm/build-image.sh SUITE ARCH DEBDIR OUTDIR: a bootable guest image of SUITE for ARCH with
# the package from DEBDIR installed (tests/vm/install-deb.sh), as OUTDIR/SUITE-ARCH.img (ext4, the
# root file system; no partition table, the kernel is booted directly) and, for each kernel
# flavour in it, OUTDIR/SUITE-ARCH-FLAVOUR.vmlinuz and .initrd. mmdebstrap builds the base
# (kept for a week), dpkg -i puts the package in, mke2fs -d makes the image: no loop device is
# used, and the only mounts, in the tree, live in a private mount namespace.
# shellcheck disable=SC2016 # the hooks are shell run by mmdebstrap and bash -c, with arguments
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=build-image prog=build-image
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
suite=$1 arch=$2 debdir=$3 out=$4
mirror=${VM_MIRROR:-http://deb.debian.org/debian}
name=$suite-$arch
tree=$out/$name.tree

case $arch in
amd64) kernels=linux-image-cloud-amd64,linux-image-amd64 ;;
arm64) kernels=linux-image-cloud-arm64 ;;
*)
	echo "build-image: no kernel known for $arch" >&2
	exit 2
	;;
esac

# The base: minbase with udev and the kernels, the package not yet in it. It is kept as a
# tarball in $CHROOT_CACHE (default /var/cache/hyperv-scheduler-chroot) and built again when
# older than a week or made by another recipe; CHROOT_CACHE= keeps it in OUTDIR only.
# In root mode mmdebstrap mounts /proc, /sys and /dev into the tree: in a private mount
# namespace those mounts end with it, however it ends. The initramfs needs only the root
# disk's drivers (MODULES=list): that keeps mkinitramfs short, most of all under qemu-user.
# Bump when the base's recipe changes, so that a cached base of the old one is built again.
recipe=1
cache=${CHROOT_CACHE-/var/cache/hyperv-scheduler-chroot}
base=${cache:-$out}/vm-$name.tar
mkdir -p "${base%/*}"
fresh() {
	[ "$(cat "$base.recipe" 2>/dev/null)" = "$recipe $mirror" ] &&
		[ -n "$(find "$base" -mtime -7 2>/dev/null)" ]
}
exec {lock}>"$base.lock"
flock "$lock"
if ! fresh; then
	rm -f "$base" "$base.recipe"
	unshare -m --propagation private -- mmdebstrap --quiet --mode=root --format=tar --variant=minbase --architectures="$arch" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
		--essential-hook='echo MODULES=list >"$1/etc/initramfs-tools/conf.d/hstest"' \
		--essential-hook='printf "virtio_pci\nvirtio_blk\next4\n" >"$1/usr/share/initramfs-tools/modules.d/hstest"' \
		--include="systemd-sysv,udev,kmod,initramfs-tools,e2fsprogs,$kernels" \
		--customize-hook='echo hstest >"$1/etc/hostname"' \
		--customize-hook='echo "LABEL=root / ext4 rw 0 1" >"$1/etc/fstab"' \
		"$suite" "$base.new" "$mirror"
	mv "$base.new" "$base"
	echo "$recipe $mirror" >"$base.recipe"
fi
exec {lock}>&-

# The image: the base, the package installed as an image build installs it (dpkg -i in the
# tree, with /proc, /sys and /dev as mmdebstrap's hooks have them), and the guest's test files,
# the README's lines for a CI boot among them, as the README writes them.
for m in readme-check readme-journal; do
	readme_command "make check-vm $m" >"$work/$m" || die "README.md: no $m line"
done
mkdir "$tree"
tar -C "$tree" --numeric-owner --xattrs --xattrs-include='*' -xf "$base"
unshare -m --propagation private -- bash -euc '
	tree=$1 here=$2 debdir=$3 work=$4
	mount -t proc proc "$tree/proc"
	mount --rbind /sys "$tree/sys"
	mount --rbind /dev "$tree/dev"
	"$here/install-deb.sh" "$tree" "$debdir"
	mkdir -p "$tree/usr/local/lib/hstest" "$tree/usr/local/share/hstest"
	cp -r "$here/guest/conf" "$tree/usr/local/share/hstest/"
	cp "$work/readme-check" "$work/readme-journal" "$tree/usr/local/share/hstest/"
	for f in setup report count-helper; do
		cp "$here/guest/$f.sh" "$tree/usr/local/lib/hstest/$f"
	done
	cp "$here"/guest/*.service "$tree/etc/systemd/system/"
	cp "$here"/guest/*.rules "$tree/etc/udev/rules.d/"
	chroot "$tree" systemctl enable hstest-setup.service hstest-report.service
' build-image "$tree" "$here" "$debdir" "$work"

for k in "$tree"/boot/vmlinuz-*; do
	v=${k##*/vmlinuz-}
	case $v in *-cloud-*) flavour=cloud ;; *) flavour=generic ;; esac
	cp "$k" "$out/$name-$flavour.vmlinuz"
	cp "$tree/boot/initrd.img-$v" "$out/$name-$flavour.initrd"
	echo "$v" >"$out/$name-$flavour.version"
done
rm -rf "${tree:?}/boot"
size=$(du -sm "$tree" | cut -f1)
mke2fs -q -t ext4 -L root -d "$tree" "$out/$name.img" "$((size * 5 / 4 + 64))M"
rm -rf "$tree"
