#!/bin/bash
# deps: what `make bench` needs, all of it checked at once. Prints the one apt-get command
# that installs whatever is missing and exits 1; with BENCH_INSTALL=1, as root, runs it
# instead (apt-get update first, since a fresh image has no package lists).
set -euo pipefail
# COMMAND:DEBIAN-PACKAGE, for bench/cost.sh, bench/scaling.sh, bench/storm.sh and bench/fio-scheduler.sh.
# hyperfine is in Debian 12's archive (1.15.0-2) and later.
tools=(valgrind:valgrind callgrind_annotate:valgrind strace:strace hyperfine:hyperfine jq:jq
	systemd-detect-virt:systemd udevadm:udev losetup:mount unshare:util-linux fio:fio
	python3:python3 nm:binutils)
missing=() pkgs=()
for t in "${tools[@]}"; do
	command -v "${t%%:*}" >/dev/null && continue
	missing+=("${t%%:*}")
	[[ " ${pkgs[*]} " == *" ${t#*:} "* ]] || pkgs+=("${t#*:}")
done
[ ${#missing[@]} != 0 ] || exit 0
cmd="apt-get install -y ${pkgs[*]}"
if [ "${BENCH_INSTALL:-}" != 1 ]; then
	echo "bench: missing ${missing[*]}; on Debian or Ubuntu, as root: $cmd" >&2
	echo "bench: or let make bench run it: make bench BENCH_INSTALL=1" >&2
	exit 1
fi
[ "$(id -u)" = 0 ] || {
	echo "bench: BENCH_INSTALL=1 needs root to run: $cmd" >&2
	exit 1
}
echo "bench: missing ${missing[*]}; running: apt-get update && $cmd" >&2
apt-get update -q && DEBIAN_FRONTEND=noninteractive $cmd
