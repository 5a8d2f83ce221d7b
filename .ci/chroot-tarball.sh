#!/bin/bash
# chroot-tarball RELEASE [PACKAGE...]: prints the path of a minimal Debian chroot tarball of
# RELEASE (mmdebstrap --variant=minbase: the Essential and required packages, apt, and the
# PACKAGEs named), made once and kept in CHROOT_CACHE (default /var/cache/hyperv-scheduler-chroot)
# for a day, so that every step of one CI run (the README's commands on a fresh system, sbuild,
# reprotest, a release's udevd) starts from the same tree. sbuild installs build-essential
# itself, as it does on a buildd. Two runs for the same tarball wait for each other (flock).
#
# Environment: MIRROR (default: the Debian archive apt on this machine uses); CI=true installs
# mmdebstrap first. Where this machine's apt does not expire Release files (a fixed snapshot of
# the archive), the tarball's apt is told the same. Needs root. Output: only the path.
set -euo pipefail

[ $# -ge 1 ] || {
	echo "usage: $0 RELEASE [PACKAGE...]" >&2
	exit 2
}
release=$1
shift
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=chroot-tarball prog="chroot-tarball $release"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
cache=${CHROOT_CACHE:-/var/cache/hyperv-scheduler-chroot}
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap --mode=root)"
if [ -z "${MIRROR:-}" ]; then
	# shellcheck disable=SC2016 # apt's format, not the shell's
	MIRROR=$(apt-get indextargets --format '$(REPO_URI)' | grep -m1 '/debian/$' || true)
	[ -n "$MIRROR" ] || die "no Debian archive in apt's sources here: set MIRROR"
fi
# The packages, sorted, name the tarball: trixie-minbase+systemd+udev.tar.
name=$release-minbase
include=$(printf '%s\n' "$@" | LC_ALL=C sort -u | paste -sd,)
[ -z "$include" ] || name+=+${include//,/+}
tarball=$cache/$name.tar
mkdir -p "$cache"
exec {lock}>"$cache/$name.lock"
flock "$lock"
if [ -n "$(find "$tarball" -mmin -1440 2>/dev/null)" ]; then
	echo "$tarball"
	exit 0
fi
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		mmdebstrap >/dev/null
fi
opts=()
[ -z "$include" ] || opts+=(--include="$include")
valid_until=
eval "$(apt-config shell valid_until Acquire::Check-Valid-Until)"
[ "$valid_until" != false ] || opts+=(--aptopt='Acquire::Check-Valid-Until "false"')
log=$cache/$name.log
# mmdebstrap reads the format from the name.
tmp=$cache/$name.new.tar
mmdebstrap --mode=root --variant=minbase "${opts[@]}" "$release" "$tmp" "$MIRROR" \
	>"$log" 2>&1 || {
	tail -n 20 "$log" >&2
	rm -f "$tmp"
	die "mmdebstrap failed"
}
chmod 0644 "$tmp"
mv "$tmp" "$tarball"
echo "$tarball"
