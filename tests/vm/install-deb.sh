#!/bin/bash
# tests/vm/install-deb.sh TREE DEBDIR: mmdebstrap's customize hook that installs the package into
# the image tree TREE with dpkg -i, as an image build does. Waits for DEBDIR/.lock first (held
# while the package is still being built, so the image and the package build at once), then
# takes DEBDIR's hyperv-scheduler_*.deb. Case 8 also needs a newer build to upgrade to: the
# same files under a higher version. Both stay in the image, for case 8.
set -euo pipefail
tree=$1 debdir=$2
[ ! -e "$debdir/.lock" ] || flock -s "$debdir/.lock" true
deb=$(find "$debdir" -maxdepth 1 -name 'hyperv-scheduler_*.deb' | sort -V | tail -n 1)
[ -n "$deb" ] || {
	echo "install-deb: no hyperv-scheduler_*.deb in $debdir" >&2
	exit 1
}
dest=$tree/usr/local/share/hstest/debs
mkdir -p "$dest"
cp "$deb" "$dest/old.deb"
repack=$(mktemp -d "${TMPDIR:-/tmp}/hyperv-scheduler-repack.XXXXXX")
trap 'rm -rf "$repack"' EXIT
dpkg-deb -R "$deb" "$repack/pkg"
sed -i 's/^Version: .*/&+vmtest1/' "$repack/pkg/DEBIAN/control"
dpkg-deb -b -Zgzip "$repack/pkg" "$dest/new.deb" >/dev/null
chroot "$tree" dpkg -i /usr/local/share/hstest/debs/old.deb
