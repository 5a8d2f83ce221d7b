#!/bin/bash
# build-hosts: the test suite that `make check` runs (tests/run-tests.sh), and with it a package
# build, on the hosts a package meets, each made here in a private mount namespace:
#
#   no-sys        an empty /sys, as in a build chroot (sbuild, pbuilder) that mounts none
#   ro-sys        /sys read-only, as in a container
#   no-cmdline    /proc with only the processes (subset=pid): no /proc/cmdline, no /proc/sys
#   non-root      the whole suite as nobody, from a copy of the tree nobody owns
#   hyperv-guest  the host is a Hyper-V guest (an Azure build machine): the helper is the
#                 testfacts build fed a Hyper-V guest's CPUID, and systemd-detect-virt says
#                 "microsoft", as both do there
#
# Each must pass; a case the host cannot run says SKIP and why, in one line, and those lines
# are shown. Run as root after `make all tests/unit tests/hyperv-scheduler-testfacts`;
# `.ci/build-hosts.sh NAME...` runs only those hosts.
set -euo pipefail
cd "$(dirname "$0")/.."
lib_name=build-hosts
# shellcheck source=tests/lib.sh
. tests/lib.sh

[ "$(id -u)" = 0 ] || die "needs root (mount namespaces)"
for f in "$HELPER" "$TESTFACTS" tests/unit; do
	[ -x "$f" ] || die "no $f: run 'make all tests/unit tests/hyperv-scheduler-testfacts'"
done

# inside SETUP: the suite in a private mount namespace after the shell commands SETUP.
inside() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m -- bash -c 'set -e; eval "$1"; shift; exec "$@"' bash "$1" tests/run-tests.sh
}

host_no_sys() { inside 'mount -t tmpfs -o mode=0755 no-sys /sys'; }
host_ro_sys() { inside 'mount --bind /sys /sys && mount -o remount,bind,ro /sys'; }
host_no_cmdline() { inside 'mount -t proc -o subset=pid proc /proc'; }

# A copy nobody owns, so that the suite writes nothing into this tree; CI unset, since CI
# makes a test that needs root fail rather than skip.
host_non_root() {
	local copy=$work/non-root
	mkdir -m 0755 "$copy"
	tar --exclude=./.git -cf - . | tar -C "$copy" -xf -
	chown -R nobody:nogroup "$copy"
	chmod 0755 "$work"
	(cd "$copy" && env -u CI HOME="$copy" TMPDIR="$copy" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups tests/run-tests.sh)
}

host_hyperv_guest() {
	local bin=$work/hyperv-guest
	mkdir -p "$bin"
	# exec -a keeps the name the tests call it by, as getopt's messages show it.
	# shellcheck disable=SC2016 # for the wrapper to expand
	printf '#!/bin/bash\nexport HYPERV_SCHEDULER_TEST_CPUID=%q\nexec -a "$0" %q "$@"\n' \
		"$top/tests/fixtures/cpuid/hyperv-guest" "$top/tests/hyperv-scheduler-testfacts" \
		>"$bin/hyperv-scheduler"
	printf '#!/bin/sh\necho microsoft\n' >"$bin/systemd-detect-virt"
	chmod 0755 "$bin/hyperv-scheduler" "$bin/systemd-detect-virt"
	chmod 0755 "$work"
	HELPER=$bin/hyperv-scheduler PATH=$bin:$PATH tests/run-tests.sh
}

hosts=("$@")
[ ${#hosts[@]} -gt 0 ] || hosts=(no-sys ro-sys no-cmdline non-root hyperv-guest)
summary=() status=0
for h in "${hosts[@]}"; do
	printf '\n=== build host: %s\n' "$h"
	start=$SECONDS
	rc=0
	case $h in
	no-sys) host_no_sys ;;
	ro-sys) host_ro_sys ;;
	no-cmdline) host_no_cmdline ;;
	non-root) host_non_root ;;
	hyperv-guest) host_hyperv_guest ;;
	*)
		echo "build-hosts: no host '$h'" >&2
		exit 2
		;;
	esac >"$work/$h.log" 2>&1 || rc=$?
	grep -E '^(FAIL|SKIP)' "$work/$h.log" || true
	totals=$(grep -E '^integration:|%: Checks:' "$work/$h.log" | tr '\n' ' ')
	if [ "$rc" = 0 ]; then
		summary+=("build host $h: passed in $((SECONDS - start)) s: $totals")
	else
		tail -n 20 "$work/$h.log"
		summary+=("build host $h: FAILED (exit $rc): $totals")
		status=1
	fi
done
printf '\n'
printf '%s\n' "${summary[@]}"
exit $status
