#!/bin/bash
# source-package DIR: the Debian source package as a sponsor gets it, made in DIR (created if
# missing): hyperv-scheduler_VERSION.orig.tar.gz (`make dist`, which leaves debian/ out),
# hyperv-scheduler_DEBVERSION.debian.tar.xz (debian/ as git tracks it) and the .dsc, source
# format 3.0 (quilt). Checks that `dpkg-source -x` of the .dsc gives back every file git
# tracks, byte for byte, and that licensecheck finds no license but the MIT of LICENSE, which
# debian/'s Files: * stanza names. Prints one line of each check, and the .dsc's path last.
# CI=true installs dpkg-dev and licensecheck first.
set -euo pipefail

[ $# = 1 ] || {
	echo "usage: $0 DIR" >&2
	exit 2
}
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=source-package prog=source-package
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
debversion=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "${debversion%-*}" = "$version" ] || die "debian/changelog has $debversion, VERSION $version"
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		dpkg-dev licensecheck >/dev/null
fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
rm -rf "$dir/$pkg-$version" "$dir/tracked" "$dir/extracted"
rm -f "$dir/${pkg}_"*

# tracked DEST PATHSPEC...: the files git tracks (that exist), copied to DEST.
tracked() {
	local dest=$1
	shift
	mkdir -p "$dest"
	git -C "$top" ls-files -z -- "$@" |
		while IFS= read -r -d '' f; do [ ! -e "$top/$f" ] || printf '%s\0' "$f"; done |
		tar -C "$top" --null -T - -cf - | tar -C "$dest" -xf -
}

make -s -C "$top" dist DIST_TARBALL="$dir/${pkg}_$version.orig.tar.gz" >/dev/null
tar -C "$dir" -xzf "$dir/${pkg}_$version.orig.tar.gz"
tracked "$dir/$pkg-$version" debian
(cd "$dir" && dpkg-source -b "$pkg-$version") >"$dir/dpkg-source.log" 2>&1 ||
	{
		cat "$dir/dpkg-source.log" >&2
		die "dpkg-source -b failed"
	}
dsc=$dir/${pkg}_$debversion.dsc
[ -f "$dsc" ] || die "no ${dsc##*/}"

tracked "$dir/tracked" .
(cd "$dir" && dpkg-source -x "$dsc" extracted) >/dev/null 2>&1 || die "dpkg-source -x failed"
# .pc is quilt's record of the patches applied (none), not part of the tree.
diff -r -x .pc "$dir/tracked" "$dir/extracted" >&2 || die "dpkg-source -x does not give back what git tracks"
echo "dpkg-source: ${dsc##*/}, ${pkg}_$version.orig.tar.gz from make dist; -x gives back the $(git -C "$top" ls-files | wc -l) files git tracks"

licensecheck -r --machine --copyright "$dir/extracted" >"$dir/licensecheck.log"
awk -F'\t' '($2 != "UNKNOWN" && $2 != "MIT License") ||
	($3 != "*No copyright*" && $3 != "2026 hyperv-scheduler developers")' "$dir/licensecheck.log" |
	grep . >&2 && die "licensecheck finds a license or holder that debian/ does not name"
echo "licensecheck: $(awk -F'\t' '$2 == "MIT License"' "$dir/licensecheck.log" | wc -l) of $(wc -l <"$dir/licensecheck.log") files name a license, all MIT; the rest none"
rm -rf "$dir/$pkg-$version" "$dir/tracked" "$dir/extracted"
echo "$dsc"
