#!/bin/bash
# install-files BUILDDIR: in a package build's chroot, after the build (sbuild's
# --finished-build-commands), the .deb in BUILDDIR holds the same files with the same modes as
# `make install` from the .orig.tarball there, the man pages compressed, and the rule in the
# directory this release's udev.pc names. Prints 'install-files: same N files ...' or fails.
set -euo pipefail
cd "$1"
pkg=hyperv-scheduler
deb=$(echo ${pkg}_*.deb)
orig=$(echo ${pkg}_*.orig.tar.gz)
if [ ! -f "$deb" ] || [ ! -f "$orig" ]; then
	echo "install-files: no .deb or .orig.tar.gz in $1" >&2
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$orig"
make -s -C "$work"/${pkg}-* install DESTDIR="$work/destdir" >/dev/null
(cd "$work/destdir" && find . ! -type d -printf '%m /%P\n') | sed 's/\.\([58]\)$/.\1.gz/' |
	sort >"$work/in-destdir"
dpkg-deb --fsys-tarfile "$deb" | tar -tvf - | awk '$1 !~ /^d/ { print $1, substr($6, 2) }' |
	sed -e 's/^-rwxr-xr-x/755/' -e 's/^-rw-r--r--/644/' | grep -v " /usr/share/doc/$pkg/" |
	sort >"$work/in-deb"
diff -u "$work/in-destdir" "$work/in-deb" || { echo "install-files: make install and the package differ" >&2; exit 1; }
udevdir=$(pkg-config --variable=udevdir udev)
rule=$udevdir/rules.d/60-hyperv-scheduler.rules
grep -qx "644 $rule" "$work/in-deb" ||
	{ echo "install-files: the rule is not in $udevdir, where udev.pc says" >&2; exit 1; }
cmp "$work/destdir$rule" <(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ".$rule") ||
	{ echo "install-files: make install and the package install different rules" >&2; exit 1; }
echo "install-files: same $(wc -l <"$work/in-deb") files and modes as make install; the rule in $udevdir"
