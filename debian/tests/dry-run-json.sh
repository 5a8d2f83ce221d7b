#!/bin/bash
# The installed helper's report on this machine, as JSON: it parses, names the installed
# version and the shipped config, and gives every disk a known action (tests/lib.sh's
# check_report); it is valid under the installed schema, and so is --check --json's.
set -euo pipefail
cd "$(dirname "$0")/../.."
HELPER=/usr/sbin/hyperv-scheduler
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=dry-run-json
# shellcheck source=tests/lib.sh
. tests/lib.sh
"$HELPER" --dry-run --json >"$work/report.json"
# The helper reports the upstream version: the package's without its Debian revision.
version=$(dpkg-query -W -f='${Version}' hyperv-scheduler)
check_report "$work/report.json" "${version%-*}"
# --check: exit 0 or 1, whatever this machine's disks are; never 2.
status=0
"$HELPER" --check --json >"$work/check.json" || status=$?
[ "$status" -le 1 ] || die "hyperv-scheduler --check --json exited $status"
report_schema /usr/share/hyperv-scheduler/report.schema.json "$work/report.json" "$work/check.json"
echo "the reports are valid under /usr/share/hyperv-scheduler/report.schema.json"
