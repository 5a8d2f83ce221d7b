#!/bin/bash
# build-user: makes sure the ordinary user that CI builds packages as exists (sbuild and
# reprotest run as it, as a sponsor's build would, not as root), and prints its name. It gets
# a home and a range of 65,536 subordinate user and group ids in /etc/subuid and /etc/subgid,
# which sbuild's unshare mode and autopkgtest-virt-unshare map into their user namespaces.
# Idempotent; needs root. CI=true installs uidmap (newuidmap, newgidmap) first.
set -euo pipefail
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=build-user prog=build-user
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
user=hyperv-build
[ "$(id -u)" = 0 ] || die "needs root (useradd, /etc/subuid)"
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends uidmap >/dev/null
fi
command -v newuidmap >/dev/null || die "no newuidmap: install uidmap"
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash --user-group "$user" >&2
# The first free range above every range given already (and above 100000, useradd's default).
for f in /etc/subuid /etc/subgid; do
	touch "$f"
	grep -q "^$user:" "$f" && continue
	start=$(awk -F: 'BEGIN { m = 100000 } { e = $2 + $3; if (e > m) m = e } END { print m }' "$f")
	echo "$user:$start:65536" >>"$f"
done
echo "$user"
