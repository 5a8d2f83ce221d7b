#!/bin/sh
# The rule as installed passes udev's own checker, where this udev has one (253 and later).
set -eu
rule=$(dpkg-query -L hyperv-scheduler | grep '/rules\.d/60-hyperv-scheduler\.rules$')
if ! udevadm verify --help >/dev/null 2>&1; then
	echo "SKIP: udevadm verify needs udev 253 or later; this is $(udevadm --version)"
	exit 77
fi
udevadm verify "$rule"
