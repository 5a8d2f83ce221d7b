#!/bin/sh
# The installed helper's report on this machine, as JSON: it parses, names the installed
# version and the shipped config, and gives every disk a known action.
set -eu
out=${AUTOPKGTEST_TMP:-$(mktemp -d)}/report.json
/usr/sbin/hyperv-scheduler --dry-run --json >"$out"
# The helper reports the upstream version: the package's without its Debian revision.
version=$(dpkg-query -W -f='${Version}' hyperv-scheduler)
version=${version%-*}
python3 - "$out" "$version" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report["version"] == sys.argv[2], report["version"]
assert report["machine"]["verdict"] in (
    "hyperv-guest", "hyperv-root", "other-hypervisor", "bare-metal", "unknown"), report["machine"]
assert report["policy"]["config"] == "/etc/hyperv-scheduler.conf", report["policy"]
for d in report["devices"]:
    assert d["action"] in ("would-change", "already", "skipped"), d
print(f"report parses: verdict {report['machine']['verdict']}, {len(report['devices'])} disks")
PY
