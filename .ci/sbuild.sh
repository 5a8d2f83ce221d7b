#!/bin/bash
# sbuild RELEASE OUTDIR: builds the package as Debian's build daemons do, and as a sponsor
# would: the source package made from `make dist`'s tarball as hyperv-scheduler_VERSION.orig.tar.gz
# and debian/ (3.0 (quilt)), then sbuild from Debian's packages, in unshare mode, as an
# ordinary user (.ci/build-user.sh), in a minbase chroot tarball of RELEASE (.ci/chroot-tarball.sh:
# bookworm, trixie, sid). The build and its test suite run as that user in sbuild's chroot,
# inside its user namespace; Linux gives a chrooted process no user namespace of its own, so
# there the cases that mount a fake tree over /sys say SKIP, and say why.
#
# Checks, each failing the run:
#   - .ci/source-package.sh: `dpkg-source -x` of the .dsc gives back what git tracks, and
#     licensecheck finds no license but MIT, as debian/'s Files: * says;
#   - the suite ran in the build: the unit tests, and the integration cases with 0 failed;
#   - that release's lintian (sbuild runs it in the chroot), --pedantic --display-info --info
#     on the .changes, the .dsc and the .debs: no error and no warning but
#     initial-upload-closes-no-bugs (no ITP bug exists);
#   - the .deb holds what `make install` from the same tarball installs (.ci/install-files.sh,
#     run in the chroot after the build);
#   - autopkgtest of the built package in a fresh chroot of the same tarball
#     (autopkgtest-virt-unshare, as the same user): nothing failed (loop-scheduler needs a
#     whole machine and is skipped there; the QEMU testbed runs it).
# AUTOPKGTEST=no leaves the last out (about 2 minutes; apt-get update and the tests'
# dependencies in the testbed). OUTDIR is created if missing and gets the .changes, every
# file it lists (then an empty file 'built', once they are checked), the .build log, lintian's tags and autopkgtest's log and summary. Root only
# creates the user and the tarball. The last line: 'package: sbuild RELEASE: …' with the
# cases run and skipped, lintian's tags, times.
set -euo pipefail

[ $# = 2 ] || {
	echo "usage: $0 RELEASE OUTDIR" >&2
	exit 2
}
release=$1
# The work directory in /var/tmp: it holds the build.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=sbuild lib_tmp=/var/tmp prog="sbuild $release"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
debversion=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
[ "$(id -u)" = 0 ] || die "needs root (the build user, the chroot tarball)"
[ "${debversion%-*}" = "$version" ] || die "debian/changelog has $debversion, VERSION $version"
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		sbuild mmdebstrap uidmap autopkgtest dpkg-dev licensecheck >/dev/null
fi
user=$("$top/.ci/build-user.sh")
tarball=$("$top/.ci/chroot-tarball.sh" "$release")
mkdir -p "$2"
outdir=$(cd "$2" && pwd)
rm -f "$outdir/${pkg}_"* "$outdir/${pkg}-dbgsym_"* "$outdir/built"

chmod 0755 "$work"
as_user() { setpriv --reuid="$user" --regid="$user" --init-groups env HOME="$(getent passwd "$user" | cut -d: -f6)" USER="$user" LOGNAME="$user" "$@"; }

t0=$SECONDS
src=$work/src
dsc=$("$top/.ci/source-package.sh" "$src" | tee -a /dev/stderr | tail -n 1)
chown -R "$user:" "$work"

echo "=== sbuild $release (unshare, as $user) from $tarball"
mkdir "$work/out"
chown "$user:" "$work/out"
status=0
# The .changes names the changelog's distribution (unstable, where an upload goes); the
# chroot is RELEASE's. Debian 12 has no systemd-dev, the first alternative of Build-Depends,
# and Debian's buildds take only the first: there sbuild is told to try the others (an upload
# to bookworm-backports would need its own debian/control).
opts=()
[ "$release" != bookworm ] || opts+=(--resolve-alternatives)
(cd "$work/out" && as_user sbuild --chroot-mode=unshare --chroot="$tarball" \
	--dist="$(dpkg-parsechangelog -l "$top/debian/changelog" -S Distribution)" "${opts[@]}" \
	--arch="$arch" --no-arch-all --source --force-orig-source --no-run-piuparts \
	--no-run-autopkgtest --run-lintian \
	--lintian-opts="--pedantic --display-info --info --display-experimental" \
	--finished-build-commands="bash %SBUILD_PKGBUILD_DIR/.ci/install-files.sh %SBUILD_BUILD_DIR" \
	--build-dir="$work/out" "$dsc") >"$work/sbuild.out" 2>&1 || status=$?
t_build=$((SECONDS - t0))
log=$(find "$work/out" -maxdepth 1 -type f -name "${pkg}_${debversion}_$arch*.build" | head -n 1)
[ -n "$log" ] || {
	tail -n 40 "$work/sbuild.out"
	die "sbuild left no log"
}
cp "$log" "$outdir/${pkg}_${debversion}_$arch.build"
log=$outdir/${pkg}_${debversion}_$arch.build
[ "$status" = 0 ] || {
	tail -n 60 "$log"
	die "sbuild failed ($status); the log: $log"
}

grep -E '^(FAIL|SKIP): ' "$log" || true
units=$(grep -Em1 '^100%: Checks: [0-9]+, Failures: 0, Errors: 0$' "$log") || die "the unit tests did not run"
cases=$(grep -Em1 '^integration: [0-9]+ passed, 0 failed, [0-9]+ skipped$' "$log") ||
	die "the integration tests did not run, or failed"
grep -q '^install-files: same ' "$log" || die "the .deb and make install differ"
# Lintian's tags, from its part of the log. Warnings fail the run, but for those that need
# what only a maintainer can supply: an ITP bug for the first upload to close.
sed -n '/^Running lintian\.\.\.$/,/^I: Lintian run was/p' "$log" | grep -E '^[EWIPXO]: ' |
	grep -v '^I: Lintian run was' >"$outdir/lintian.txt" || true
cat "$outdir/lintian.txt"
grep -q 'Lintian run was successful' "$log" || die "lintian did not run"
! grep '^[EW]: ' "$outdir/lintian.txt" | grep -v ': initial-upload-closes-no-bugs ' ||
	die "lintian: errors or warnings"
tags=$(awk '{ print $1 " " ($3 ~ /:$/ ? $4 : $3) }' "$outdir/lintian.txt" | sort | uniq -c |
	awk '{ printf "%s%s %s (%d)", sep, $2, $3, $1; sep = ", " }')

changes=$work/out/${pkg}_${debversion}_$arch.changes
[ -f "$changes" ] || die "no $changes"
awk '/^Files:/ { f = 1; next } /^[^ ]/ { f = 0 } f { print $5 }' "$changes" |
	sed "s|^|$work/out/|" | xargs cp -t "$outdir"
cp "$changes" "$outdir/"
# The packages are there, checked: a step that boots them may start before the autopkgtest.
touch "$outdir/built"

if [ "${AUTOPKGTEST:-yes}" = no ]; then
	echo "package: sbuild $release: ${units#100%: }; ${cases}; lintian --pedantic: ${tags:-no tags}; autopkgtest not run (AUTOPKGTEST=no); build ${t_build}s"
	exit 0
fi
echo "=== autopkgtest (unshare, as $user) in a fresh $release chroot"
t1=$SECONDS
mkdir "$work/autopkgtest-tmp"
chown "$user:" "$work/autopkgtest-tmp"
# sbuild's own files, which this user owns (the kernel lets it hard-link only those), and a
# log it opens itself (autopkgtest reopens /dev/stderr).
rc=0
# shellcheck disable=SC2016 # the user's shell expands them
as_user sh -c '"$@" >"$0" 2>&1' "$work/autopkgtest-tmp/log" \
	autopkgtest -U --output-dir "$work/autopkgtest-tmp/out" "$changes" -- \
	unshare --release "$release" --tarball "$tarball" || rc=$?
cp "$work/autopkgtest-tmp/log" "$outdir/autopkgtest.log"
cp "$work/autopkgtest-tmp/out/summary" "$outdir/autopkgtest-summary" 2>/dev/null || true
cat "$outdir/autopkgtest-summary" 2>/dev/null || tail -n 30 "$outdir/autopkgtest.log"
# 2: a test skipped (loop-scheduler without a machine, udev-verify on udev 252).
[ "$rc" = 0 ] || [ "$rc" = 2 ] || {
	tail -n 30 "$outdir/autopkgtest.log"
	die "autopkgtest failed ($rc)"
}
# Each test once: autopkgtest (5.28) lists a test skipped for its restrictions twice.
autopkgtest=$(awk '!seen[$1]++ { print $1 " " $2 }' "$outdir/autopkgtest-summary" | paste -sd, | sed 's/,/, /g')
t_test=$((SECONDS - t1))

echo "package: sbuild $release: ${units#100%: }; ${cases}; lintian --pedantic: ${tags:-no tags}; autopkgtest: $autopkgtest; build ${t_build}s, autopkgtest ${t_test}s"
