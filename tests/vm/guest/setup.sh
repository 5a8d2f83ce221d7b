#!/bin/sh
# hstest.case=NAME on the kernel command line picks conf/NAME as /etc/hyperv-scheduler.conf;
# a case without a file keeps the package's own. Then the helper is put behind a wrapper that
# counts the runs udev starts at coldplug (count-helper; tests/vm/guest/report.sh takes it away).
set -eu
case=$(sed -n 's/.*hstest\.case=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -f "/usr/local/share/hstest/conf/$case" ]; then
	cp "/usr/local/share/hstest/conf/$case" /etc/hyperv-scheduler.conf
fi
# A copy of the real binary, not a bind mount of it: / is a shared mount, so a bind of a file
# in it joins its peer group, and the wrapper mounted over the original would appear over
# that bind too and exec itself for ever. The copy is on the root file system: udevd cannot
# execute what is on /run (exit status 126). The count is on /run, fresh at each boot.
count=/run/hstest-count
mkdir -p "$count" /usr/local/lib/hstest/real
: >"$count/runs"
cp /usr/sbin/hyperv-scheduler /usr/local/lib/hstest/real/hyperv-scheduler
mount --bind /usr/local/lib/hstest/count-helper /usr/sbin/hyperv-scheduler
touch "$count/counting"
