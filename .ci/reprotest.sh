#!/bin/bash
# reprotest RELEASE: Debian's reprotest builds the source package (.ci/source-package.sh: `make
# dist`'s tarball as the .orig.tar.gz, and debian/) twice in a fresh chroot of RELEASE
# (default trixie, from .ci/chroot-tarball.sh) and compares the .debs, bit for bit. Between the
# two builds it varies the build path, the time (faketime, a year and more ahead), the time
# zone, the umask, the locale, the user and group (a second user through sudo), the order
# in which directories list their files (disorderfs, FUSE: this machine's /dev/fuse), the
# environment, $HOME and $PATH. Left out: domain_host, kernel, aslr and num_cpus (not asked
# for). The builds skip the test suite (nocheck): .ci/sbuild.sh runs it, and nothing it makes
# goes into a .deb.
#
# reprotest runs as root in the chroot with its null backend; every mount lives in a private
# mount namespace that ends with the run. Exit 0 when the .debs are identical; otherwise
# diffoscope's report is printed. The last line: 'reprotest RELEASE: reproducible: …'.
set -euo pipefail

release=${1:-trixie}
# The work directory in /var/tmp: it holds the chroot.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=reprotest lib_tmp=/var/tmp prog="reprotest $release"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
debversion=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$(id -u)" = 0 ] || die "needs root (chroot, mounts)"
tarball=$("$top/.ci/chroot-tarball.sh" "$release")

root=$work/root
t0=$SECONDS
mkdir "$root"
tar -C "$root" -xf "$tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
"$top/.ci/source-package.sh" "$root/build"
dpkg-source -x "$root/build/${pkg}_$debversion.dsc" "$root/build/$pkg-$version" >/dev/null

cat >"$root/build/steps" <<'STEPS'
set -euo pipefail
pkg=$1 version=$2 debversion=$3
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
cd /build
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 \
	reprotest faketime sudo dpkg-dev diffoscope-minimal disorderfs fuse3 >/dev/null
(cd "$pkg-$version" && apt-get build-dep -y -q --no-install-recommends -o Dpkg::Use-Pty=0 ./) >/dev/null
useradd --create-home --user-group reprotest-user
chmod 0755 /build
export DEB_BUILD_OPTIONS=nocheck
reprotest --verbosity=1 --vary=-all,+environment,+build_path,+time,+timezone,+umask,+locales,+user_group,+home,+exec_path,+fileordering \
	--vary=user_group.available+=reprotest-user:reprotest-user \
	--store-dir=/build/out "${pkg}_$debversion.dsc" -- null
STEPS

echo "=== reprotest $release: two builds of ${pkg}_$debversion.dsc"
status=0
# shellcheck disable=SC2016 # the inner shell's arguments
unshare -m --propagation private -- bash -c '
	mount --bind "$1" "$1"
	mount -t proc proc "$1/proc"
	mount --rbind /dev "$1/dev"
	exec chroot "$1" bash /build/steps "$2" "$3" "$4"
' reprotest "$root" "$pkg" "$version" "$debversion" >"$work/log" 2>&1 || status=$?
grep -vE '^(PASS|dpkg-|dh|   )' "$work/log" | tail -n 40
# reprotest fails when a variation cannot be set up (the disorderfs mount, sudo to the other
# user); these say that both were asked for.
grep -E 'DISORDERFS variation|USER_GROUP variation|user_group' "$work/log" | sort -u | head -n 4
grep -q 'DISORDERFS variation' "$work/log" || die "the file order was not varied"
[ "$status" = 0 ] || die "not reproducible, or reprotest failed ($status), after $((SECONDS - t0)) s"
echo "reprotest $release: reproducible: the .debs of two builds are identical, varying build path, time, time zone, umask, locale, user and group, file order (disorderfs), environment, HOME and PATH; $((SECONDS - t0)) s"
