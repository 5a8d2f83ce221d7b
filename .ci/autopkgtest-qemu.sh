#!/bin/bash
# autopkgtest-qemu [--release RELEASE] [--image-only] [DEBDIR]: the package's autopkgtests
# (debian/tests) in a booted Debian guest, with autopkgtest's qemu runner, under TCG. Every test
# gets a whole machine, so loop-scheduler (isolation-machine, needs-root) runs there; it must run
# and pass, not skip. --image-only makes the guest's image ready in the cache (below) and stops:
# CI builds it while other steps use the CPUs.
#
#   RELEASE  the guest's release: trixie (Debian 13, the default, what CI boots), bookworm
#            or sid. On bookworm udev-verify may skip, as it says (udev 252 has no udevadm
#            verify); every other test must pass.
#   DEBDIR   a directory with the package as built for RELEASE: hyperv-scheduler_*.deb
#            (the dbgsym package is left out) and, where it has one, the .dsc the tests are
#            taken from (else from this tree). Without DEBDIR the package is built first, in
#            a clean RELEASE chroot (tests/vm/build-debs.sh).
#
# The image: mmdebstrap's minbase of RELEASE with the generic kernel (the cloud kernel has no
# 9p, which autopkgtest-virt-qemu shares its files through), made ready for
# autopkgtest-virt-qemu by autopkgtest's own setup-testbed (the script autopkgtest-build-qemu
# runs: a root shell on ttyS1, apt and dpkg settings), the tests' Depends preinstalled and
# the apt lists kept, as an ext4 image made with mke2fs -d: nothing is mounted and no loop
# device is used on this machine (autopkgtest-build-qemu's vmdb2 needs both). The kernel is
# booted directly (no boot loader), through a qemu wrapper that also turns KVM off:
# autopkgtest-virt-qemu adds -enable-kvm wherever /dev/kvm exists, and that /dev/kvm may not
# boot a stock kernel. The guest reaches the archive through QEMU's user-mode network.
# The image is cached in $CHROOT_CACHE/qemu-RELEASE-amd64 (default
# /var/cache/hyperv-scheduler-chroot) and rebuilt when older than a week or made by another
# recipe; autopkgtest boots it through a throw-away overlay, so it stays pristine.
#
# The tests run in one autopkgtest run and one guest: they declare the same Depends, so
# autopkgtest boots no fresh guest between them. A run that ends in a testbed failure is tried
# once more, and says so.
#
# Environment: MIRROR (default: the Debian archive apt uses here), CI=true installs the tools.
# Root only. Output: one line per test as autopkgtest's summary gives it, then
#   'autopkgtest-qemu RELEASE: dry-run-json PASS, loop-scheduler PASS, … (image Ns, tests Ns)'.
# Exit status 0 when every test passed, loop-scheduler among them; 1 otherwise; 2 on bad use.
# A QEMU that outlives its autopkgtest is ended by the pid this run's wrapper recorded.
set -euo pipefail
# The work directory in /var/tmp: it holds the image's tree and the guests' overlays.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=autopkgtest-qemu lib_tmp=/var/tmp prog=autopkgtest-qemu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
suite=trixie arch=amd64
cache=${CHROOT_CACHE-/var/cache/hyperv-scheduler-chroot}
# Bump when the image's recipe changes, so that a cached image of the old one is rebuilt.
recipe=2

usage="usage: $0 [--release bookworm|trixie|sid] [--image-only] [DEBDIR]"
image_only=no
while [ $# -gt 0 ]; do
	case $1 in
	--release)
		[ $# -ge 2 ] || die_status=2 die "$usage"
		suite=$2
		shift 2
		;;
	--image-only)
		image_only=yes
		shift
		;;
	*) break ;;
	esac
done
case $suite in
bookworm | trixie | sid) ;;
*) die_status=2 die "$usage" ;;
esac
[ $# -le 1 ] || die_status=2 die "$usage"
[ "$image_only" = no ] || [ $# = 0 ] || die_status=2 die "$usage"
[ "$(id -u)" = 0 ] || die_status=2 die "needs root (mmdebstrap --mode=root, mke2fs -d of a root-owned tree)"
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		autopkgtest mmdebstrap e2fsprogs qemu-system-x86 qemu-utils >/dev/null
fi
for need in autopkgtest autopkgtest-virt-qemu mmdebstrap mke2fs qemu-system-x86_64 qemu-img; do
	command -v "$need" >/dev/null || die_status=2 die "missing: $need"
done
setup_testbed=/usr/share/autopkgtest/setup-commands/setup-testbed
[ -x "$setup_testbed" ] || die_status=2 die "missing: $setup_testbed (Debian package autopkgtest)"
if [ -z "${MIRROR:-}" ]; then
	# shellcheck disable=SC2016 # apt's format, not the shell's
	MIRROR=$(apt-get indextargets --format '$(REPO_URI)' | grep -m1 '/debian/$' || true)
	[ -n "$MIRROR" ] || die_status=2 die "no Debian archive in apt's sources here: set MIRROR"
fi

chmod 0755 "$work"
# Any guest of the autopkgtest run left. The wrapper execs qemu: the pids it wrote are qemu's.
# Only those processes are ended, and only while they still run a guest of this run.
stop_guests() {
	local pid
	set +e
	for pid in "$work"/pids/*; do
		pid=${pid##*/}
		if grep -qaF "$work/" "/proc/$pid/cmdline" 2>/dev/null; then
			kill "$pid"
		fi
	done
}
at_exit+=(stop_guests)
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------
# The package.
debdir=${1:-}
if [ "$image_only" = yes ]; then
	:
elif [ -z "$debdir" ]; then
	echo "=== autopkgtest-qemu: building the package in a clean $suite chroot"
	VM_DEB_BUILDS=$suite VM_MIRROR=$MIRROR "$top/tests/vm/build-debs.sh" "$work/debs" ||
		die "cannot build the package for $suite"
	debdir=$work/debs/$suite
fi
if [ "$image_only" = no ]; then
	[ -d "$debdir" ] || die_status=2 die "no directory $debdir"
	deb=$(find "$debdir" -maxdepth 1 -name "${pkg}_*_$arch.deb" | sort -V | tail -n 1)
	[ -n "$deb" ] || die_status=2 die "no ${pkg}_*_$arch.deb in $debdir"
	dsc=$(find "$debdir" -maxdepth 1 -name "${pkg}_*.dsc" | sort -V | tail -n 1)
	if [ -n "$dsc" ]; then
		source=$dsc from=${dsc##*/}
	else
		# What git tracks or would track: no build products of the working tree.
		mkdir "$work/src"
		git -C "$top" ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$top/$f" ] && printf '%s\0' "$f"
			done |
			tar -C "$top" --null -T - -cf - | tar -C "$work/src" -xf -
		source=$work/src/ from="this tree"
	fi
	echo "=== autopkgtest-qemu: ${deb##*/}, tests from $from"
fi

# ---------------------------------------------------------------------------------------
# The image. Runs share it under a shared lock, held until they end (their guests read it);
# one that finds it missing or stale takes the lock alone to build it.
img=${cache:-$work}/qemu-$suite-$arch
mkdir -p "$img"
fresh() {
	[ "$(cat "$img/recipe" 2>/dev/null)" = "$recipe" ] &&
		[ -n "$(find "$img/root.img" -mtime -7 2>/dev/null)" ]
}
exec {lock}>"$img/.lock"
flock -s "$lock"
t0=$SECONDS
fresh || flock "$lock"
if ! fresh; then
	echo "=== autopkgtest-qemu: building the $suite image from $MIRROR"
	rm -f "$img/root.img" "$img/vmlinuz" "$img/initrd" "$img/recipe"
	tree=$work/tree
	aptopts=()
	valid_until=
	eval "$(apt-config shell valid_until Acquire::Check-Valid-Until)"
	if [ "$valid_until" = false ]; then
		aptopts=(--aptopt='Acquire::Check-Valid-Until "false"')
	fi
	# In root mode mmdebstrap mounts /proc, /sys and /dev into the tree: in a private mount
	# namespace those mounts end with it, however it ends. The initramfs needs only the root
	# disk's drivers (MODULES=list), as in tests/vm/build-image. setup-testbed installs what
	# autopkgtest's own images have (dbus, eatmydata, dpkg-dev, ...): included here, so that
	# it finds them there, and apt-utils, which autopkgtest installs for its local archive.
	# autopkgtest-virt-qemu gives the guest 10 s to mount its 9p share after each boot: the
	# modules are loaded at boot. QEMU's user network: 10.0.2.15, the host 10.0.2.2, DNS 10.0.2.3.
	# shellcheck disable=SC2016 # the hooks are shell run by mmdebstrap, with the tree as $1
	unshare -m --propagation private -- env MIRROR="$MIRROR" RELEASE="$suite" \
		AUTOPKGTEST_BUILD_QEMU=1 \
		mmdebstrap --quiet --mode=root --variant=minbase --architectures="$arch" \
		--skip=cleanup/apt/lists "${aptopts[@]}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
		--essential-hook='echo MODULES=list >"$1/etc/initramfs-tools/conf.d/autopkgtest"' \
		--essential-hook='printf "virtio_pci\nvirtio_blk\next4\n" >"$1/usr/share/initramfs-tools/modules.d/autopkgtest"' \
		--include="systemd-sysv,udev,kmod,initramfs-tools,e2fsprogs,linux-image-$arch,login" \
		--include="python3,mount,util-linux,dbus,libpam-systemd,eatmydata,rng-tools,dpkg-dev,apt-utils" \
		--customize-hook='printf "9p\n9pnet_virtio\nvirtio_console\n" >"$1/etc/modules-load.d/autopkgtest.conf"' \
		--customize-hook='echo testbed >"$1/etc/hostname"' \
		--customize-hook='echo "LABEL=root / ext4 rw 0 1" >"$1/etc/fstab"' \
		--customize-hook='printf "[Match]\nType=ether\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\n" >"$1/etc/systemd/network/20-qemu-user.network"' \
		--customize-hook='chroot "$1" systemctl enable systemd-networkd.service' \
		--customize-hook="'$setup_testbed' \"\$1\"" \
		"$suite" "$tree" "$MIRROR" >"$work/image.log" 2>&1 ||
		{
			tail -n 30 "$work/image.log" >&2
			die "cannot build the $suite image"
		}
	# setup-testbed copied this machine's resolv.conf in for the build: the guest's is QEMU's.
	echo "nameserver 10.0.2.3" >"$tree/etc/resolv.conf"
	set -- "$tree"/boot/vmlinuz-*
	[ $# = 1 ] || die "expected one kernel in the image, found: $*"
	version=${1##*/vmlinuz-}
	cp "$1" "$img/vmlinuz"
	cp "$tree/boot/initrd.img-$version" "$img/initrd"
	rm -rf "${tree:?}/boot"
	size=$(du -sm "$tree" | cut -f1)
	# Room for what the tests install and write.
	mke2fs -q -t ext4 -L root -d "$tree" "$img/root.img" "$((size * 5 / 4 + 1024))M"
	rm -rf "$tree"
	echo "$version" >"$img/kernel"
	echo "$recipe" >"$img/recipe"
fi
flock -s "$lock"
t_image=$((SECONDS - t0))
echo "=== autopkgtest-qemu: image $img/root.img, kernel $(cat "$img/kernel")"
if [ "$image_only" = yes ]; then
	echo "autopkgtest-qemu $suite: image ready (${t_image}s)"
	exit 0
fi

# ---------------------------------------------------------------------------------------
# The wrapper autopkgtest-virt-qemu runs as qemu: TCG instead of KVM, the image's kernel
# booted directly, its consoles where autopkgtest looks (login prompt on ttyS0, root shell
# on ttyS1), and no ssh port forwarded: nothing uses it, and runs side by side would race
# for the port. Each boot records its pid in $work/pids. systemd waits for a device at most
# 90 s by default: on a busy machine, udev's coldplug in a TCG guest took longer, the jobs for
# /dev/ttyS0 and /dev/hvc0 timed out ("Dependency failed for serial-getty@ttyS0.service"), and
# the login prompt autopkgtest waits for never came. The guest waits as long as autopkgtest.
mkdir "$work/pids"
cat >"$work/qemu" <<EOF
#!/bin/sh
for a in "\$@"; do
	shift
	case \$a in
	-enable-kvm) ;;
	user,hostfwd=*) set -- "\$@" user ;;
	*) set -- "\$@" "\$a" ;;
	esac
done
echo \$\$ >'$work/pids/'\$\$
exec qemu-system-x86_64 -accel tcg "\$@" -kernel '$img/vmlinuz' -initrd '$img/initrd' \\
	-append 'root=LABEL=root rw console=ttyS0 systemd.show_status=0 systemd.default_device_timeout_sec=1800'
EOF
chmod 0755 "$work/qemu"

# autopkgtest-virt-qemu with room: a copy whose fixed setup timeouts (5 to 30 s: the login, the
# guest's root shell, the 9p mount; no option sets them in autopkgtest 5.28) are ten times
# longer. A TCG guest on a busy machine misses them, and a miss ends the run as a testbed
# failure that says nothing of the package. Fails when the copy finds none of them: a new
# autopkgtest then needs a look.
virt=$work/autopkgtest-virt-qemu
perl -pe 's/(VirtSubproc\.(?:expect|timeout|execute_timeout)\((?:.*?, )?)(\d+)(?=\s*[,)])/$1 . ($2 > 1 ? $2 * 10 : $2)/e' \
	"$(command -v autopkgtest-virt-qemu)" >"$virt"
chmod 0755 "$virt"
roomed=$(diff "$(command -v autopkgtest-virt-qemu)" "$virt" | grep -c '^>' || true)
[ "$roomed" -gt 0 ] || die "autopkgtest-virt-qemu: no fixed timeout found to give room to"
echo "=== autopkgtest-qemu: autopkgtest-virt-qemu with $roomed fixed timeouts ten times longer"

# All the tests in one autopkgtest run and one guest: they declare the same Depends, so
# autopkgtest reverts (reboots) the testbed between none of them. A run that ends in a testbed
# failure (exit status 16) is not the tests': it is tried once more, and the output says so; a
# second one stands. A boot takes minutes under TCG beside CI's other guests, and a retry
# starts it again from nothing: up to 30 minutes to the login prompt before autopkgtest gives
# up. The guest console goes to the log.
mapfile -t names < <(sed -n 's/^Features: *test-name=//p' "$top/debian/tests/control")
t0=$SECONDS
retried=''
for try in 1 2; do
	status=0
	rm -rf "$work/out"
	TMPDIR=$work autopkgtest --output-dir "$work/out" \
		"$deb" "$source" -- "$virt" --qemu-command="$work/qemu" --qemu-options='-cpu qemu64' \
		--timeout-reboot=1800 --ram-size=1024 --show-boot --overlay-dir="$work" \
		"$img/root.img" >>"$work/log" 2>&1 || status=$?
	if [ "$status" != 16 ] || [ "$try" = 2 ]; then
		break
	fi
	retried="; tried twice after a testbed failure"
	echo "=== autopkgtest-qemu: testbed failure (exit status 16), trying once more: $(grep -m1 -E 'timed out|failed to connect|testbed failure' "$work/log" || true)"
	echo "=== autopkgtest-qemu: the second try, after a testbed failure" >>"$work/log"
done
fails=()
results=()
for name in "${names[@]}"; do
	result=$(sed -n "s/^$name  *//p" "$work/out/summary" 2>/dev/null || true)
	results+=("$name ${result:-did not run}")
	# autopkgtest keeps a test's output only where it wrote some.
	[ ! -s "$work/out/$name-stdout" ] || sed "s/^/$name: /" "$work/out/$name-stdout"
	# Every test must pass: loop-scheduler's SKIP is a failure here, where it has a machine.
	# udev-verify's is not, where the guest's udev has no udevadm verify and the test says so.
	if [ "$name" = udev-verify ] && [ "${result%% *}" = SKIP ] &&
		grep -q '^SKIP: udevadm verify needs udev 253 or later' "$work/out/$name-stdout" 2>/dev/null; then
		continue
	fi
	[ "${result%% *}" = PASS ] || fails+=("$name")
done
# autopkgtest's exit status: 0 all passed, 2 some skipped (udev-verify's, above), else failed.
case $status in
0 | 2) ;;
*) fails+=("autopkgtest (exit status $status)") ;;
esac
if [ ${#fails[@]} != 0 ]; then
	echo "=== autopkgtest-qemu: autopkgtest exit status $status; the end of its log:"
	tail -n 60 "$work/log"
fi
t_tests=$((SECONDS - t0))
echo "=== autopkgtest-qemu: summary"
printf '%s\n' "${results[@]}"
echo "autopkgtest-qemu $suite: $(printf '%s\n' "${results[@]}" | paste -sd, | sed 's/,/, /g') (image ${t_image}s, tests ${t_tests}s$retried)"
[ ${#fails[@]} = 0 ] || die "failed: ${fails[*]}"
