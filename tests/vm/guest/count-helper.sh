#!/bin/sh
# Test only: bind-mounted over /usr/sbin/hyperv-scheduler by tests/vm/guest/setup.sh before
# udevd starts, so each run the rule starts is counted without the helper's own logging:
# one line with the disk's name per --udev run in /run/hstest-count/runs. The real binary is
# copied to /usr/local/lib/hstest/real/hyperv-scheduler: the same name, as the helper is.
[ "${1:-}" != --udev ] || echo "${2:-}" >>/run/hstest-count/runs
exec /usr/local/lib/hstest/real/hyperv-scheduler "$@"
