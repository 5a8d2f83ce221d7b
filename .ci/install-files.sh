#!/bin/bash
# install-files BUILDDIR: in a package build's chroot, after the build (sbuild's
# --finished-build-commands), the .deb in BUILDDIR holds the same files with the same modes as
# `make install` from the .orig.tarball there, the man pages compressed, and the rule in the
# directory this release's udev.pc names. Prints 'install-files: same N files ...' or fails.
set -euo pipefail
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=install-files prog=install-files
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
cd "$1"
pkg=hyperv-scheduler
deb=$(echo "${pkg}"_*.deb)
orig=$(echo "${pkg}"_*.orig.tar.gz)
{ [ -f "$deb" ] && [ -f "$orig" ]; } || die "no .deb or .orig.tar.gz in $1"
tar -C "$work" -xzf "$orig"
install_list "$work/$pkg"-* "$work/destdir" >"$work/in-destdir"
package_list "$deb" >"$work/in-deb"
diff -u "$work/in-destdir" "$work/in-deb" || die "make install and the package differ"
udevdir=$(pkg-config --variable=udevdir udev)
rule=$udevdir/rules.d/60-hyperv-scheduler.rules
grep -qx "0644 $rule" "$work/in-deb" || die "the rule is not in $udevdir, where udev.pc says"
cmp "$work/destdir$rule" <(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ".$rule") ||
	die "make install and the package install different rules"
echo "install-files: same $(wc -l <"$work/in-deb") files and modes as make install; the rule in $udevdir"
