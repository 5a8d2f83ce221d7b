#!/bin/bash
# tests/vm/build-debs.sh OUTDIR: the package as built for each release the guests run, in
# OUTDIR/bookworm, OUTDIR/trixie (amd64) and OUTDIR/arm64 (bookworm, cross-built); or those
# VM_DEB_BUILDS names, sid (amd64) among them.
# Each build runs in a throw-away mmdebstrap chroot of its release made from the Debian archive,
# with only that release's build dependencies, so no .deb is built against this machine's
# libraries. Tests are left to the native builds of the clean-chroot CI step: here
# DEB_BUILD_OPTIONS=nocheck (the arm64 cross build could not run them anyway; .ci/arm64.sh runs the
# arm64 unit tests under qemu-user), and the nocheck build profile leaves their build
# dependencies out (python3-jsonschema, Architecture: all, cannot be installed for arm64).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: build-debs OUTDIR}
mirror=${VM_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(mktemp -d "${TMPDIR:-/tmp}/hyperv-scheduler-debsrc.XXXXXX")
trap 'rm -rf "$src"' EXIT
tar -C "$top" --exclude=./.git -cf "$src/src.tar" .

# build SUITE NAME [HOST_ARCH]
build() {
	local suite=$1 name=$2 arch=${3:-} archopt=() depopt=() hook
	# Unstable's Release file may be past its Valid-Until on the mirror given.
	[ "$suite" != sid ] || archopt+=(--aptopt='Acquire::Check-Valid-Until "false"')
	mkdir -p "$out/$name"
	if [ -n "$arch" ]; then
		archopt+=(--architectures="amd64,$arch" --include=crossbuild-essential-"$arch")
		depopt=(-a "$arch")
	fi
	hook="set -e; mkdir -p \"\$1/build/src\"; tar -C \"\$1/build/src\" -xf '$src/src.tar'
chroot \"\$1\" apt-get build-dep -y -q -P nocheck ${depopt[*]} /build/src
chroot \"\$1\" sh -c 'cd /build/src && DEB_BUILD_OPTIONS=nocheck DEB_BUILD_PROFILES=nocheck dpkg-buildpackage -us -uc -b ${depopt[*]}'
cp \"\$1\"/build/hyperv-scheduler_*.deb '$out/$name/'"
	unshare -m --propagation private -- mmdebstrap --quiet --variant=buildd --mode=root "${archopt[@]}" \
		--customize-hook="$hook" "$suite" /dev/null "$mirror" >"$out/$name.log" 2>&1 ||
		{
			tail -n 30 "$out/$name.log" >&2
			echo "build-debs: $name: build failed" >&2
			return 1
		}
}

pids=()
for name in ${VM_DEB_BUILDS:-bookworm trixie arm64}; do
	case $name in
	arm64) build bookworm arm64 arm64 & ;;
	*) build "$name" "$name" & ;;
	esac
	pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
