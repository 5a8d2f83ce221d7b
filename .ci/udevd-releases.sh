#!/bin/bash
# udevd-releases RELEASE...: tests/integration/order.sh (which rule wins, under a running
# systemd-udevd) and tests/integration/rule.sh (udevadm test, read by tests/lib.sh's one
# reader of its output) with the udev of each RELEASE: a minbase chroot of it
# (.ci/chroot-tarball.sh RELEASE udev systemd), its systemd-udevd and udevadm run chrooted on this
# kernel, on loop devices. "host" stands for this machine's own udev. Ends with a table: what
# each release's udevd did in each case. Needs root, loop devices and the network to Debian's
# archive (once a day, for each release's tarball).
#   .ci/udevd-releases.sh host trixie sid
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 1 ] || {
	echo "usage: $0 RELEASE... (host for this machine's udev)" >&2
	exit 2
}
[ "$(id -u)" = 0 ] || {
	echo "udevd-releases: needs root (loop devices, chroots)" >&2
	exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/udevd-releases.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A plain build of its own, in a copy of the tree: the tree's may be built with the sanitizers
# (CI's fast tier), whose runtime libraries another release's chroot does not have.
mkdir "$work/src"
git ls-files -z | tar --null -T - -cf - | tar -C "$work/src" -xf -
make -C "$work/src" -s hyperv-scheduler rules/60-hyperv-scheduler.rules.out
cd "$work/src"

status=0 columns=()
for release; do
	root=
	if [ "$release" != host ]; then
		tarball=$(bash .ci/chroot-tarball.sh "$release" udev systemd)
		root=$work/$release
		mkdir "$root"
		tar -C "$root" --numeric-owner -xf "$tarball"
	fi
	for t in order rule; do
		echo "=== $release: tests/integration/$t.sh"
		UDEV_ROOT=$root RESULTS=/dev/null bash "tests/integration/$t.sh" | tee "$work/$release.$t" ||
			status=1
	done
	version=$(sed -n 's/^order: udev \([^:]*\): .*/\1/p' "$work/$release.order" | head -n 1)
	columns+=("$release ($version)")
	sed -n 's/^order: udev [^:]*: \(.*\): helper runs: \(.*\), ends on \(.*\)$/\1|\2, \3/p' \
		"$work/$release.order" >"$work/$release.table"
	[ -n "$root" ] && rm -rf "$root"
done

# The table: one row per case, one column per release, "helper runs, scheduler after".
echo
echo "which rule wins, under each release's systemd-udevd (the helper runs: yes/no, the loop ends on):"
{
	printf 'case'
	printf '|%s' "${columns[@]}"
	echo
	cut -d'|' -f1 "$work/$1.table" | while read -r case; do
		printf '%s' "$case"
		for release; do
			printf '|%s' "$(grep -F "$case|" "$work/$release.table" | cut -d'|' -f2)"
		done
		echo
	done
} | column -t -s'|'
exit $status
