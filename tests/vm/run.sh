#!/bin/bash
# make check-vm: the package in real Debian guests under QEMU, each boot the first boot of a
# pristine image. Builds (or takes from VM_DEBS=DIR, as DIR/bookworm, DIR/trixie, DIR/arm64; an
# arm64 one missing from DIR is cross-built) each release's own .deb, builds one image per release and architecture with mmdebstrap,
# boots every case (tests/vm/cases.sh) two at a time under TCG, and checks each guest's report.
# Prints one line per case, "vm: N passed, N failed" and what each kernel gives the disks.
# Root only. Touches no disk, rule or udev of this machine: everything lives in one temporary
# directory, removed at the end, whatever happened. binfmt_misc (for the arm64 image) is
# mounted and qemu-aarch64 registered only for the run when they were not already.
# mmdebstrap needs arch-test (only recommended) to build the arm64 image: without it that
# image fails with "install arch-test for foreign architecture support".
set -euo pipefail
# The work directory in /var/tmp: it holds the images.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=vm lib_tmp=/var/tmp prog=check-vm die_status=2
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
mirror=${VM_MIRROR:-http://deb.debian.org/debian}
# One boot is 25-60 s here under TCG; arm64 about three times that.
boot_seconds=${VM_BOOT_SECONDS:-240}
arm64_seconds=${VM_ARM64_SECONDS:-600}
slots=${VM_SLOTS:-2}
efi=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd
binfmt=/proc/sys/fs/binfmt_misc

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap --mode=root, mke2fs -d of a root-owned tree)"
missing=()
for need in qemu-system-x86_64:qemu-system-x86 qemu-system-aarch64:qemu-system-arm \
	qemu-img:qemu-utils mmdebstrap:mmdebstrap mke2fs:e2fsprogs dpkg-deb:dpkg jq:jq \
	timeout:coreutils flock:util-linux qemu-aarch64-static:qemu-user-static arch-test:arch-test \
	/usr/lib/apt/apt-helper:apt; do
	command -v "${need%%:*}" >/dev/null || missing+=("${need%%:*} (Debian package ${need##*:})")
done
[ -f "$efi" ] || missing+=("$efi (Debian package qemu-efi-aarch64)")
[ ${#missing[@]} = 0 ] || die "missing: ${missing[*]}"

mounted_binfmt='' registered_binfmt=''
stop_all() {
	local p
	set +e
	# Lanes and builds run in their own process groups (set -m); qemu runs under timeout, in
	# its own: each is ended by its PID.
	cat "$work"/*.pid 2>/dev/null | while read -r p; do
		kill -- "$p" 2>/dev/null
	done
	for p in $(jobs -p); do
		kill -- "-$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	[ -z "$registered_binfmt" ] || echo -1 >"$binfmt/qemu-aarch64" || true
	[ -z "$mounted_binfmt" ] || umount "$binfmt" || true
}
at_exit+=(stop_all)
trap 'exit 130' INT TERM

for suite in bookworm trixie; do
	/usr/lib/apt/apt-helper -q download-file "$mirror/dists/$suite/InRelease" \
		"$work/$suite.InRelease" >/dev/null 2>&1 ||
		die "missing: the Debian archive ($mirror/dists/$suite/InRelease cannot be fetched)"
done

# Every background job gets its own process group, so that an early end stops all it started.
set -m

# locked FILE COMMAND...: runs COMMAND in the background holding an exclusive lock on FILE,
# which others wait on with flock -s; the lock goes when COMMAND ends. Only that job keeps the
# file open: jobs started later do not inherit it.
locked() {
	local fd file=$1
	shift
	exec {fd}>"$file"
	flock "$fd"
	"$@" &
	exec {fd}>&-
}

# VM_ONLY=REGEX: only the boots whose line matches (tests/vm/cases.sh), e.g. VM_ONLY=bookworm-cloud.
"$here/cases.sh" | grep -E -- "${VM_ONLY:-.}" >"$work/queue" || die "VM_ONLY='${VM_ONLY:-}' matches no boot"

# mmdebstrap runs the arm64 tree's programs through qemu-user, and so does the arm64 build's
# chroot where a build dependency of the host architecture has maintainer scripts.
if grep -q ' arm64 ' "$work/queue" || [ -z "${VM_DEBS:-}" ]; then
	if ! mountpoint -q "$binfmt"; then
		mount -t binfmt_misc binfmt_misc "$binfmt"
		mounted_binfmt=1
	fi
	if [ ! -e "$binfmt/qemu-aarch64" ]; then
		cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$binfmt/register"
		registered_binfmt=1
	fi
fi

# The package as built for each release: given in VM_DEBS (CI passes sbuild's, built with
# the tests and lintian), else built by tests/vm/build-debs.sh; the arm64 one cross-built. They
# build while the images do: each image's customize hook waits for its release's package
# (tests/vm/install-deb.sh).
debs=$work/debs
start=$SECONDS
built() {
	"$@" >"$work/build-$name.log" 2>&1 && return
	tail -n 30 "$work/build-$name.log" >&2
	echo "check-vm: cannot build the package for $name" >&2
}
if [ -n "${VM_DEBS:-}" ]; then
	debs=$(cd "$VM_DEBS" && pwd)
	for d in bookworm trixie; do
		ls "$debs/$d"/hyperv-scheduler_*.deb >/dev/null 2>&1 ||
			die "missing: the package for $d (no $debs/$d/hyperv-scheduler_*.deb)"
	done
	# Those builds are native; the arm64 one is cross-built here if not given.
	if ! ls "$debs/arm64"/hyperv-scheduler_*.deb >/dev/null 2>&1; then
		mkdir -p "$debs/arm64"
		name=arm64 locked "$debs/arm64/.lock" built env VM_DEB_BUILDS=arm64 "$here/build-debs.sh" "$debs"
	fi
else
	mkdir -p "$debs/bookworm" "$debs/trixie" "$debs/arm64"
	for name in bookworm trixie arm64; do
		locked "$debs/$name/.lock" built env VM_DEB_BUILDS=$name "$here/build-debs.sh" "$debs"
	done
fi

# Each image is built under a lock its boots wait on.
img=$work/img
mkdir -p "$img"
image() {
	if "$here/build-image.sh" "$1" "$2" "$3" "$img" >"$img/$1-$2.log" 2>&1; then
		touch "$img/$1-$2.ok"
	else
		tail -n 30 "$img/$1-$2.log" >&2
	fi
}
for i in "bookworm amd64 bookworm" "trixie amd64 trixie" "bookworm arm64 arm64"; do
	read -r suite arch pkgdir <<<"$i"
	if grep -q " $suite $arch " "$work/queue"; then
		locked "$img/$suite-$arch.lock" image "$suite" "$arch" "$debs/$pkgdir"
	fi
done

# The boots, in the order of tests/vm/cases.sh; each lane takes the next one, waits for its image
# and boots it.
echo 0 >"$work/next"
next() {
	# shellcheck disable=SC2016 # expanded by that sh
	flock "$work/next" sh -c 'n=$(($(cat "$1") + 1)); echo "$n" >"$1"; sed -n "${n}p" "$2"' \
		sh "$work/next" "$work/queue"
}
lane() {
	local line name suite arch flavour case seconds
	while line=$(next) && [ -n "$line" ]; do
		read -r name suite arch flavour case <<<"$line"
		flock -s "$img/$suite-$arch.lock" true
		if [ ! -e "$img/$suite-$arch.ok" ]; then
			echo "image $suite-$arch failed to build" >"$work/$name.report"
			continue
		fi
		seconds=$boot_seconds
		[ "$arch" = amd64 ] || seconds=$arm64_seconds
		VM_EFI=$efi "$here/boot.sh" "$work" "$img" "$name" "$suite" "$arch" "$flavour" "$case" \
			"$seconds" || true
	done
}
for _ in $(seq "$slots"); do
	lane &
done
wait
echo "check-vm: packages, images and boots took $((SECONDS - start)) s"

"$here/check.sh" "$work"
