#!/bin/sh
# assemble-script.sh TEMPLATE FRAGMENT OUTPUT: the maintainer script TEMPLATE
# (debian/hyperv-scheduler.*.in) with its marker line #UDEV_MANAGES_DEVICES# replaced by
# FRAGMENT (packaging/rpm/udev-manages-devices.sh) less its shellcheck directive, into OUTPUT.
# debian/rules builds the postinst and the prerm with it, and the suite
# (tests/integration/maint-scripts.sh) runs what it builds: one assembly for both.
set -eu
template=$1 fragment=$2 output=$3
test -s "$fragment" || {
	echo "debian/assemble-script.sh: cannot read '$fragment'" >&2
	exit 1
}
sed -e "/^#UDEV_MANAGES_DEVICES#/{r $fragment" -e 'd;}' "$template" |
	sed '/^# shellcheck shell=sh$/d' >"$output"
grep -qx 'udev_manages_devices() {' "$output" || {
	echo "debian/assemble-script.sh: no udev_manages_devices() in $output" >&2
	exit 1
}
