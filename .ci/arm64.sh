#!/bin/bash
# arm64 without an arm64 machine: cross-builds with Debian's aarch64 toolchain, then runs the unit
# tests and the helper under qemu-user. Run as root on Debian 12 x86-64, from .ci/run or by hand.
# Builds in a copy of the tree, so the native objects stay as they were.
#
# .ci/arm64.sh DEBDIR also builds the arm64 .deb there (dpkg-buildpackage -a arm64, nocheck: the
# unit tests run here under qemu-user), for make check-vm's arm64 guest, a Debian 12 image:
# this machine is Debian 12, its arm64 libraries those of the image.
#
# The helper is run with no -L: libudev resolves /sys one component at a time from an fd on "/",
# and qemu's -L (or QEMU_LD_PREFIX) sends open("/") into the prefix, after which libudev finds no
# device and no DMI. The arm64 loader and libc come from libc6:arm64 instead, which libudev1:arm64
# brings in.
set -euo pipefail
debdir=${1:-}
[ -z "$debdir" ] || debdir=$(mkdir -p "$debdir" && cd "$debdir" && pwd)
cd "$(dirname "$0")/.."
lib_name=arm64 prog=arm64
# shellcheck source=tests/lib.sh
. tests/lib.sh

section() { printf '\n=== %s\n' "$*"; }
# verdict FILE: the machine verdict in a --json report.
verdict() {
	sed -n 's/.*"verdict": "\([^"]*\)".*/\1/p' "$1" | head -n 1
}

start=$SECONDS
section "arm64 packages"
export DEBIAN_FRONTEND=noninteractive
# Run by hand, this may meet another apt at work: wait for it rather than fail.
apt=(apt-get -q -o DPkg::Lock::Timeout=600)
dpkg --add-architecture arm64
"${apt[@]}" update
# pkgconf:arm64 brings aarch64-linux-gnu-pkg-config, which reads the arm64 .pc files only.
"${apt[@]}" install -y --no-install-recommends \
	make gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu \
	libudev-dev:arm64 check:arm64 pkgconf:arm64 qemu-user util-linux \
	${debdir:+debhelper dpkg-dev scdoc}
apt_time=$((SECONDS - start))

start=$SECONDS
unset QEMU_LD_PREFIX

section "cross-build for arm64, warnings as errors"
mkdir "$work/src"
# Not the fuzzers' build directory, which the fuzz step of .ci/run writes to meanwhile: tar
# fails on a file removed while it reads.
tar -C "$top" --exclude=./.git --exclude=./tests/fuzz/build -cf - . | tar -C "$work/src" -xf -
cd "$work/src"
make clean >/dev/null
make -j"$(nproc)" CC=aarch64-linux-gnu-gcc PKG_CONFIG=aarch64-linux-gnu-pkg-config WERROR=1 \
	hyperv-scheduler tests/unit tests/hyperv-scheduler-testfacts
for bin in hyperv-scheduler tests/unit tests/hyperv-scheduler-testfacts; do
	aarch64-linux-gnu-readelf -h "$bin" | grep -q 'Machine: *AArch64' ||
		die "$bin is not an AArch64 binary"
done

section "unit tests under qemu-aarch64"
qemu-aarch64 tests/unit | tee "$work/unit.log"
unit_passed=$(sed -n 's/^100%: Checks: \([0-9]*\), Failures: 0, Errors: 0$/\1/p' "$work/unit.log")
[ -n "$unit_passed" ] || die "the unit tests did not all pass"

section "dry run on this machine (arm64 path: no CPUID)"
qemu-aarch64 ./hyperv-scheduler --dry-run --json -c /dev/null | tee "$work/host.json"
host_verdict=$(verdict "$work/host.json")
[ -n "$host_verdict" ] || die "no verdict in the report on this machine"
# With no CPUID only VMBus can make a guest; this machine has none unless it really is one.
if [ ! -e /sys/bus/vmbus ] && [ "$host_verdict" = hyperv-guest ]; then
	die "verdict hyperv-guest on a machine without /sys/bus/vmbus"
fi

section "dry run on the fake Azure tree"
in_tree "$(make_tree azure)" qemu-aarch64 ./hyperv-scheduler --dry-run --json -c /dev/null |
	tee "$work/azure.json"
[ "$(verdict "$work/azure.json")" = hyperv-guest ] || die "the fake Azure tree is not a Hyper-V guest"
grep -q '"flavour": \["azure"' "$work/azure.json" || die "the DMI of the fake Azure tree was not read"
grep -q '"name": "sda", .*"target": "none"' "$work/azure.json" ||
	die "sda of the fake Azure tree was not given the none scheduler"

if [ -n "$debdir" ]; then
	section "the arm64 .deb, cross-built"
	make clean >/dev/null
	DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -B -a arm64 -d >"$work/deb.log" 2>&1 ||
		{
			tail -n 30 "$work/deb.log"
			die "dpkg-buildpackage -a arm64 failed"
		}
	deb=$(find "$work" -maxdepth 1 -name 'hyperv-scheduler_*_arm64.deb')
	[ -n "$deb" ] || die "no arm64 .deb built"
	cp "$deb" "$debdir/"
	echo "arm64: ${deb##*/} in $debdir"
fi

echo
echo "arm64: packages ${apt_time}s, build and tests $((SECONDS - start))s"
echo "arm64: unit tests $unit_passed passed under qemu-aarch64; dry-run verdict $host_verdict here, hyperv-guest on the fake Azure tree"
