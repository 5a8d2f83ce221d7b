#!/bin/bash
# build-package.sh deb|rpm: the package for the system this runs on, built from this checkout
# into ./build/ (`make deb`, `make rpm`). It installs nothing. When a build dependency is
# missing it names each one and prints the command that installs them, and exits 1.
#
# deb: a copy of the tree in build/hyperv-scheduler-VERSION (the files git tracks when there is
# git, else everything but build/), built there with `dpkg-buildpackage -us -uc -b` against
# the packages this system has, so the package is this release's (on Debian 12 the rule goes to
# /lib/udev, on 13 to /usr/lib/udev); the .deb lands in build/. DEB_BUILD_OPTIONS=nocheck skips
# the test suite, as in any Debian build.
# rpm: packaging/rpm/hyperv-scheduler.spec with rpmbuild, from a tarball of the same files, in
# build/rpm; the RPM lands in build/. Where rpm has no package database of its own (Debian),
# rpmbuild cannot check BuildRequires and is given --nodeps.
set -euo pipefail

# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name='build-package'
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
build=$top/build

# copy_tree DEST: the tree as a checkout has it, without build output.
copy_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
		# shellcheck disable=SC2016 # expanded by the inner sh
		(cd "$top" && git ls-files -z |
			xargs -0 sh -c 'for f; do [ ! -e "$f" ] || printf "%s\0" "$f"; done' sh |
			tar --null -T - -cf -) | tar -C "$1" -xf -
	else
		(cd "$top" && tar --exclude=./build --exclude=./.git -cf - .) | tar -C "$1" -xf -
		make -s -C "$1" clean >/dev/null
	fi
}

# deb_missing: the Build-Depends this system lacks, one group a line (empty: none).
deb_missing() {
	dpkg-checkbuilddeps "$top/debian/control" 2>&1 >/dev/null |
		sed -n 's/.*Unmet build dependencies: //p' |
		sed -e 's/ *([^)]*)//g' -e 's/ *<[^>]*>//g' -e 's/ *| */|/g' | tr ' ' '\n' | grep . || true
}

build_deb() {
	if ! command -v dpkg-buildpackage >/dev/null || ! command -v dpkg-checkbuilddeps >/dev/null; then
		die "needs dpkg-dev; as root: apt-get install -y dpkg-dev"
	fi
	missing=$(deb_missing)
	if [ -n "$missing" ]; then
		# Of each group of alternatives, the first this system's apt knows.
		names=$(for group in $missing; do
			pick=${group%%|*}
			for alt in $(echo "$group" | tr '|' ' '); do
				if apt-cache show "$alt" >/dev/null 2>&1; then
					pick=$alt
					break
				fi
			done
			echo "$pick"
		done | tr '\n' ' ')
		echo "make deb: missing build dependencies: $(echo "$missing" | paste -sd " ")" >&2
		echo "make deb: as root: apt-get install -y ${names% }" >&2
		echo "make deb:   (or: apt-get build-dep -y ./)" >&2
		exit 1
	fi
	src=$build/$pkg-$version
	copy_tree "$src"
	rm -f "$build/${pkg}_"* "$build/$pkg-dbgsym_"*
	(cd "$src" && dpkg-buildpackage -us -uc -b) || die "dpkg-buildpackage failed"
	rm -rf "$src"
	echo "make deb: built $(cd "$build" && ls "${pkg}_"*.deb); install it, as root:"
	echo "    apt-get install -y ./build/${pkg}_*.deb"
}

build_rpm() {
	command -v rpmbuild >/dev/null || die "needs rpmbuild (package rpm-build; on Debian, rpm)"
	topdir=$build/rpm
	rm -rf "$topdir"
	mkdir -p "$topdir/SOURCES"
	copy_tree "$topdir/$pkg-$version"
	tar -C "$topdir" --exclude="$pkg-$version/debian" --owner=0 --group=0 --numeric-owner \
		-czf "$topdir/SOURCES/$pkg-$version.tar.gz" "$pkg-$version"
	rm -rf "${topdir:?}/$pkg-$version"
	nodeps=
	if ! rpm -q rpm >/dev/null 2>&1; then
		echo "make rpm: rpm here has no package database (not an RPM distribution): BuildRequires not checked"
		nodeps=--nodeps
	fi
	# shellcheck disable=SC2086 # nodeps: empty or one word
	"$top/packaging/rpm/rpmbuild.sh" "$topdir" -bb $nodeps "$top/packaging/rpm/$pkg.spec" || {
		echo "make rpm: a missing build dependency is named above; on Fedora and RHEL, as root:" >&2
		echo "    dnf builddep packaging/rpm/$pkg.spec" >&2
		exit 1
	}
	find "$topdir/RPMS" -name "$pkg-$version-*.rpm" ! -name '*-debug*' -exec cp {} "$build/" \;
	rm -rf "$topdir"
	echo "make rpm: built $(cd "$build" && ls "$pkg-$version"-*.rpm); install it, as root:"
	echo "    dnf install ./build/$pkg-$version-*.rpm"
}

kind=${1:-}
prog="make $kind"
mkdir -p "$build"
case $kind in
deb) build_deb ;;
rpm) build_rpm ;;
*)
	echo "usage: $0 deb|rpm" >&2
	exit 2
	;;
esac
