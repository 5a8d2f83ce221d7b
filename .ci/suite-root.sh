#!/bin/bash
# suite-root RELEASE: the whole suite, `make check`, as root in a minbase chroot of RELEASE
# that holds the build dependencies (debian/control's Build-Depends, build-essential, mount
# for losetup: .ci/chroot-tarball.sh RELEASE PACKAGE...), on this kernel. A package build
# (sbuild) runs the suite as a user, where the cases that need root or a private /run and /dev
# say SKIP; here they run with that release's udev, as in a build as root
# (dpkg-buildpackage in a chroot), so a new udev in the archive fails CI, not a user.
# Everything happens in a private mount namespace: the chroot's /proc, /sys, /dev, /run and
# /tmp are mounts of its own, gone when it ends; nothing is installed on this machine, and the
# tests' loop devices are detached by the tests. Needs root. Prints make check's output and
# how long the run took.
#   .ci/suite-root.sh sid
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# = 1 ] || {
	echo "usage: $0 RELEASE" >&2
	exit 2
}
release=$1
[ "$(id -u)" = 0 ] || {
	echo "suite-root: needs root (a chroot, loop devices)" >&2
	exit 1
}

# Build-Depends: names only, without versions or build profiles; of an alternative the last
# (udev: every release has it, systemd-dev only from Debian 13).
mapfile -t deps < <(sed -n '/^Build-Depends:/,/^[A-Z][a-zA-Z-]*:/p' debian/control |
	sed -e '1s/^Build-Depends://' -e '/^[A-Z][a-zA-Z-]*:/d' | tr ',' '\n' |
	sed -e 's/.*|//' -e 's/([^)]*)//g' -e 's/<[^>]*>//g' -e 's/[[:space:]]//g' |
	grep -v -e '^$' -e '^debhelper-compat$')
tarball=$(bash .ci/chroot-tarball.sh "$release" build-essential mount util-linux "${deps[@]}")

work=$(mktemp -d "${TMPDIR:-/tmp}/suite-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"
tar -C "$root" --numeric-owner -xf "$tarball"
# The tree as git has it (tracked, and new files not ignored): no build products.
mkdir "$root/src"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done |
	tar --null -T - -cf - | tar -C "$root/src" -xf -

start=$SECONDS
status=0
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m --propagation private -- sh -c '
	set -e
	root=$1
	# A mount point as the root: unshare -m in the tests makes / private, which a plain
	# directory as root refuses (EINVAL).
	mount --bind "$root" "$root"
	mount --rbind /sys "$root/sys"
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/run"
	mount -t tmpfs tmpfs "$root/tmp"
	exec chroot "$root" sh -c "cd /src && make -s -j2 all tests/unit tests/hyperv-scheduler-testfacts && make check"
' suite-root "$root" || status=$?
echo "suite-root: make check as root in $release: exit status $status, $((SECONDS - start)) s"
exit "$status"
