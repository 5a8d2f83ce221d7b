#!/bin/bash
# The installed helper's report on this machine, as JSON: it parses, names the installed
# version and the shipped config, and gives every disk a known action (tests/lib.sh's
# check_report).
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
