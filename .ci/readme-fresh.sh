#!/bin/bash
# readme-fresh RELEASE...: the README's commands, exactly as the README writes them, as root on
# a fresh minimal Debian system of each RELEASE (bookworm, trixie): a minbase chroot
# (.ci/chroot-tarball.sh) with this machine's /sys, /proc and /dev bound in, and the files git
# tracks in /root/hyperv-scheduler, as a clone has them. Each command is the first indented line
# after the README's marker `<!-- .ci/readme-fresh.sh NAME: ... -->`; a marker missing, twice, or
# not followed by an indented line fails the run. In order:
#   install      build the helper and its dry run, from the checkout
#   check        the test suite
#   package      build the Debian package (make deb), its build dependencies first
#   deb-install  install it
#   uninstall    purge it
# Passes when every command exits 0 and, after deb-install, the package is installed and
# `hyperv-scheduler --dry-run` runs from PATH; after uninstall, dpkg knows nothing of it and
# /etc/hyperv-scheduler.conf is gone. Prints the suite's totals per release.
#
# Needs root. Every mount lives in a private mount namespace that ends with the run: the
# chroot's root bound onto itself first (so that `unshare -m` in the suite finds a mount point),
# then /sys, /proc, /dev. The suite's loop devices are this machine's; it detaches them.
# Installing the package in the chroot changes no disk of this machine: its postinst applies
# the policy only where the root's own udev manages the devices, which a chroot is not.
set -euo pipefail

[ $# -gt 0 ] || {
	echo "usage: $0 RELEASE..." >&2
	exit 2
}
# The work directory in /var/tmp: it holds a chroot per release.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=readme-fresh lib_tmp=/var/tmp prog=readme-fresh
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
[ "$(id -u)" = 0 ] || die "needs root (chroot, mounts)"

steps=(install check package deb-install uninstall)
cmds=()
for step in "${steps[@]}"; do
	cmd=$(readme_command ".ci/readme-fresh.sh $step") || die "README.md: no $step command"
	cmds+=("$cmd")
	printf 'README %-12s %s\n' "$step:" "$cmd"
done

# What a clone of the repository holds: the files git tracks.
git -C "$top" ls-files -z | while IFS= read -r -d '' f; do [ ! -e "$top/$f" ] || printf '%s\0' "$f"; done |
	tar -C "$top" --null -T - -cf "$work/checkout.tar"

# In the chroot: each README command as written, and what must hold after the package's.
cat >"$work/steps.sh" <<'STEPS'
set -e
cd "$1"
check() { if "$@"; then echo "readme-fresh: ok: $*"; else echo "readme-fresh: FAIL: $*"; exit 1; fi; }
echo "+ $2" && eval "$2"
echo "+ $3" && eval "$3"
echo "+ $4" && eval "$4"
echo "+ $5" && eval "$5"
check test "$(dpkg-query -W -f '${db:Status-Abbrev}' hyperv-scheduler)" = "ii "
check test "$(command -v hyperv-scheduler)" = /usr/sbin/hyperv-scheduler
check test -f /etc/hyperv-scheduler.conf
cd / && check hyperv-scheduler --dry-run && cd "$1"
echo "+ $6" && eval "$6"
check test -z "$(dpkg-query -W -f '${db:Status-Abbrev}' hyperv-scheduler 2>/dev/null)"
check test ! -e /etc/hyperv-scheduler.conf
hash -r
check test -z "$(command -v hyperv-scheduler)"
STEPS

summary=() status=0
for release in "$@"; do
	t0=$SECONDS
	tarball=$("$top/.ci/chroot-tarball.sh" "$release")
	root=$work/$release
	mkdir "$root"
	tar -C "$root" -xf "$tarball"
	mkdir "$root/root/$pkg"
	tar -C "$root/root/$pkg" -xf "$work/checkout.tar"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	printf '\n=== readme-fresh %s: the README'"'"'s commands on a fresh minbase system\n' "$release"
	rc=0
	# shellcheck disable=SC2016 # the inner shell's arguments
	unshare -m --propagation private -- bash -c '
		root=$1
		shift
		mount --bind "$root" "$root"
		mount --rbind /sys "$root/sys"
		mount --bind /proc "$root/proc"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			bash -c "$(cat "$0")" fresh "$@" </dev/null
	' "$work/steps.sh" "$root" "/root/$pkg" "${cmds[@]}" >"$work/$release.log" 2>&1 || rc=$?
	grep -E '^(FAIL|SKIP)|^\+ |%: Checks:|^integration:|^hyperv-scheduler|^[A-Z]+ +[A-Z]+|^readme-fresh:|^make deb:' "$work/$release.log" || true
	totals=$(grep -E '%: Checks:|^integration:' "$work/$release.log" | tr '\n' ' ')
	if [ "$rc" = 0 ]; then
		summary+=("readme-fresh $release: passed in $((SECONDS - t0)) s: $totals")
	else
		tail -n 30 "$work/$release.log"
		summary+=("readme-fresh $release: FAILED (exit $rc) after $((SECONDS - t0)) s: $totals")
		status=1
	fi
	rm -rf --one-file-system "$root"
done
printf '%s\n' "${summary[@]}"
exit $status
