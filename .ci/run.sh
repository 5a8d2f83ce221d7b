#!/bin/bash
# CI: on a clean clone of main, as root, on Debian 12 with 2 CPUs (CI=true). Two tiers, the
# second begun only when every step of the first has passed; in the second, the guests begin
# when the packages they boot are built:
#
#   fast      shellcheck; gcc and clang with warnings as errors; the unit and integration
#             tests as root, built with ASan and UBSan; the documents' samples made again.
#             A broken tree stops here, in about 3 minutes.
#   packages  the suite once more in each environment that tells something `make check` does
#             not (the reasons are below, step by step), the fuzzers, arm64 under qemu-user;
#             the packages: sbuild for Debian 12, 13 and unstable, reprotest, the .deb on this
#             machine, the RPM, the release tarball, the README's commands on fresh Debian 12
#             and 13 and its image builder's, the package scripts in chroots and containers;
#             which rule wins under the running udevd of Debian 13 and unstable, the suite as
#             root on unstable; the kept mutants of src/ and the coverage floor.
#   guests    the packages booted under QEMU, each step once sbuild has built its .debs:
#             make check-vm; the autopkgtests of Debian 13's .deb in a Debian 13 guest.
#
# In a tier, steps that do not wait on each other run at once. Each such step writes to its own
# log, printed whole when it ends. The summary at the end gives each step's figures, when it
# started (seconds from the start of the run), how long it took and the CPU time of what it
# ran; each tier's line says how busy the two CPUs were.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

t_run=$(date +%s)
logs=$(mktemp -d "${TMPDIR:-/var/tmp}/ci-run.XXXXXX")
# Readable by all: memcheck runs the helper as nobody from the copy of the tree in here.
chmod 0755 "$logs"
# What one step hands to the next: the .debs (out/bookworm, out/trixie, out/sid), the RPM
# (out/rpm), the arm64 .deb cross-built by the arm64 step (out/arm64).
out=$logs/out
mkdir "$out"
summary=() failed=()
declare -A pid_of=()

section() { printf '\n=== %s\n' "$*"; }

# Each step in a process group of its own (set -m): a run that stops early ends the steps still
# going, each by its own process group, and nothing else.
set -m
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	local name
	for name in "${!pid_of[@]}"; do
		[ -e "$logs/$name.status" ] || kill -- "-${pid_of[$name]}" 2>/dev/null || true
	done
	wait || true
	rm -rf "$logs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The lines of a step's log that count what it checked, on one line.
figures() {
	grep -E '%: Checks:|^integration:|events settled|^fuzz:|^arm64: unit|^package:|^shellcheck:|^build host|^readme-fresh [a-z]+:|^readme-image: ok: the README|^reprotest [a-z]+:|^dpkg-source|^autopkgtest-qemu [a-z]+:|^distcheck:|^memcheck:|^mutants:|^coverage: line|^docs-check|^vm: |^check-vm: ' \
		"$1" | tr '\n' ' ' || true
}

# start NAME COMMAND...: COMMAND in the background, its output into NAME's log. Until it ends
# it holds NAME.lock, on which `after` waits; then NAME.status holds its exit status and the
# times it began and ended.
start() {
	local name=$1 fd
	shift
	exec {fd}>"$logs/$name.lock"
	flock "$fd"
	(
		t0=$(date +%s)
		# $? first: after `times` it would be times's own, 0, whatever the step did.
		trap 'rc=$?; times >"$logs/$name.times"; echo "$rc $t0 $(date +%s)" >"$logs/$name.status"' EXIT
		"$@" {fd}>&-
	) >"$logs/$name.log" 2>&1 </dev/null &
	pid_of[$name]=$!
	exec {fd}>&-
}

# after NAME...: in a step, waits for the steps named to end, and fails when one did not pass.
# The step's own time starts when they have ended.
after() {
	local name rc
	for name; do
		flock -s "$logs/$name.lock" true
		read -r rc _ <"$logs/$name.status"
		[ "$rc" = 0 ] || {
			echo "not run: $name did not pass"
			return 1
		}
	done
	t0=$(date +%s)
}

# cpu_seconds TIMES-FILE: the CPU seconds (user and system) of the processes a step waited
# for, from the second line of bash's `times` (the shell's children); "?" without the file.
# A process nobody waited for (a daemon) is not in it.
cpu_seconds() {
	[ -s "$1" ] || {
		echo '?'
		return
	}
	sed -n 2p "$1" | sed 's/m/ /g; s/s//g' | awk '{ printf "%d", $1 * 60 + $2 + $3 * 60 + $4 }'
}

# built RELEASE: in a step, waits for sbuild to have put RELEASE's checked packages in
# $out/RELEASE (.ci/sbuild.sh's file 'built', before its autopkgtest), and fails when that step
# ended without them. Polled: the step goes on after it.
built() {
	until [ -e "$out/$1/built" ]; do
		[ ! -e "$logs/sbuild-$1.status" ] || {
			echo "not run: sbuild-$1 built no package"
			return 1
		}
		sleep 5
	done
}

# report NAME: NAME's line in the summary, from its status, CPU time and log.
report() {
	local name=$1 rc t0 t1 result
	read -r rc t0 t1 <"$logs/$name.status"
	result="passed in $((t1 - t0)) s"
	if [ "$rc" != 0 ]; then
		result="FAILED (exit status $rc) after $((t1 - t0)) s"
		failed+=("$name")
	fi
	result+=" (CPU $(cpu_seconds "$logs/$name.times") s)"
	summary+=("$name: $result, from +$((t0 - t_run)) s: $(figures "$logs/$name.log")")
	echo "--- $name: $result"
}

# finish NAME...: waits for each step named, in turn, and prints its log whole.
finish() {
	local name
	for name; do
		wait "${pid_of[$name]}" || true
		section "$name"
		cat "$logs/$name.log"
		report "$name"
	done
}

# step NAME COMMAND...: COMMAND in the foreground, its output shown as it comes; in this
# script's process group, where a signal to the run reaches it.
step() {
	local name=$1 t0 rc=0
	shift
	section "$name"
	t0=$(date +%s)
	set +m
	(
		trap 'times >"$logs/$name.times"' EXIT
		"$@"
	) 2>&1 | tee "$logs/$name.log" || rc=$?
	set -m
	echo "$rc $t0 $(date +%s)" >"$logs/$name.status"
	report "$name"
}

# cpu_ticks: the machine's CPU time since boot, busy and all, in clock ticks (/proc/stat);
# iowait counts as idle.
cpu_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }

# tier_start: the tier's clock and CPU counters start.
tier_start() {
	t_tier=$(date +%s)
	read -r busy_tier all_tier < <(cpu_ticks)
}

# gate TIER: the tier's time and how busy the CPUs were; ends the run here, with the summary,
# when a step of TIER failed.
gate() {
	local busy all
	read -r busy all < <(cpu_ticks)
	echo "ci: $1 took $(($(date +%s) - t_tier)) s, the CPUs $(((busy - busy_tier) * 100 / (all - all_tier + 1)))% busy; the run so far $(($(date +%s) - t_run)) s"
	[ ${#failed[@]} != 0 ] || return 0
	section "summary"
	printf '%s\n' "${summary[@]}"
	echo "ci: FAILED in $1: ${failed[*]}" >&2
	exit 1
}

# ---------------------------------------------------------------------------------------
section "tier 1, fast: shellcheck, gcc and clang with warnings as errors, make check as root"
tier_start
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential pkg-config libudev-dev check scdoc udev clang libclang-rt-14-dev \
	python3 python3-jsonschema util-linux valgrind gdb shellcheck shfmt
# clang builds in a copy of the tree, where memcheck (below) builds again with gcc, plain, for
# valgrind; gcc's build with the sanitizers stays in the tree, for the suite here and on the
# build hosts.
plain=$logs/plain
mkdir "$plain"
make clean >/dev/null
tar --exclude=./.git -cf - . | tar -C "$plain" -xf -
start shellcheck make shellcheck
# The man pages as the packages build them: a line scdoc cannot read fails every package.
start man make -C "$plain" man
start build-clang make -C "$plain" CC=clang WERROR=1 all tests/unit tests/hyperv-scheduler-testfacts
step build-gcc make CC=gcc SANITIZE=1 WERROR=1 all tests/unit tests/hyperv-scheduler-testfacts
# The suite, ASan and UBSan watching: memory errors and undefined behaviour on every path it
# takes, the real kernel's loop devices and udevd included; any report aborts the helper and
# fails its test. The README's plain `make check` runs in .ci/readme-fresh.sh on fresh Debian 12
# and 13.
step make-check make check SANITIZE=1
# Every sample of output in the README and the man pages, made again by a run (root: three
# loop devices stand in for the disks a sample changes).
step docs-check make docs-check
finish shellcheck man build-clang
gate "the fast tier"

# ---------------------------------------------------------------------------------------
section "tier 2, packages and guests: the suite in other environments, fuzzing, arm64, the packages, booted"
tier_start
# Every package a step of this tier or the next installs for itself with CI=true, installed
# here once. Those steps then run with CI unset, so that no two apt-get run at once; only the
# steps that use this machine's apt and dpkg keep it, one after another (arm64, package-test).
apt-get install -y -q --no-install-recommends \
	sbuild mmdebstrap uidmap autopkgtest dpkg-dev licensecheck lintian jq mount \
	rpm rpm2cpio cpio rpmlint pkgconf systemd-container e2fsprogs gcovr \
	qemu-system-x86 qemu-system-arm qemu-efi-aarch64 qemu-utils qemu-user-static arch-test \
	>/dev/null
bash .ci/build-user.sh >/dev/null
nonci=(env -u CI)
# The Debian archive this machine's apt uses, for every step that makes a chroot or an image:
# asked once, here, because the arm64 step adds an architecture to this apt while the others
# run, and an apt-get asked meanwhile fails ("package cache was built for different
# architectures").
# shellcheck disable=SC2016 # apt's format, not the shell's
MIRROR=$(apt-get indextargets --format '$(REPO_URI)' | grep -m1 '/debian/$')
export MIRROR

# The minbase tarballs of .ci/chroot-tarball.sh, made once a day, the three at once.
tarballs() {
	local r pids=()
	for r in bookworm trixie sid; do
		"${nonci[@]}" bash .ci/chroot-tarball.sh "$r" &
		pids+=($!)
	done
	for r in "${pids[@]}"; do wait "$r"; done
}
start tarballs tarballs

# The suite, once in each environment that tells something new:
#   - the fast tier's: gcc with ASan and UBSan, root, this machine. Not again with clang's
#     sanitizers: clang builds in the fast tier, and the fuzzers run clang's ASan and UBSan
#     over every parser.
#   - valgrind's memcheck (the memcheck step), on gcc's plain build: what ASan does not
#     see, reads of memory never written; the unit tests and the scripts that run the helper
#     on many paths, all but rule.sh (udevadm test, which runs no helper), udevd.sh (the
#     --udev path of fixtures.sh and robust.sh a few hundred times over, in its storms:
#     minutes under valgrind for no path of the helper's that the others miss) and
#     machines.sh (the same readers as fixtures.sh, on 17 CPUID files × trees: the verdict's
#     pure code, which the unit tests run under valgrind, over and over).
#   - .ci/build-hosts.sh: no /sys, a read-only /sys, no /proc/cmdline, nobody, a Hyper-V guest;
#     with the sanitizers' build, so that the error paths these hosts take are watched too.
#   - .ci/readme-fresh.sh: the README's own commands as root on fresh Debian 12 and 13: its list
#     of packages is enough, and the only run as root on Debian 13's udev and kernel tools.
#   - .ci/sbuild.sh: each release's compiler, libudev and lintian, as a user in a build chroot
#     (fake trees under umockdev), from make dist's tarball.
# Left out, each a repeat of one above: the .deb's build in .ci/package-test.sh (nocheck: the
# same Debian 12 build as sbuild's), make distcheck's suite (DISTCHECK_CHECK=: sbuild runs it
# from the same tarball), the RPM's %check (RPM_NOCHECK=1: make check as root on this
# machine, as the fast tier ran it). The package build of .ci/readme-fresh.sh runs the suite
# again, a minute after its check step: the README's line is run as written.
#
# And the package's autopkgtests (debian/tests) on each kind of testbed: Debian 12's on this
# machine (package-test, the null runner), Debian 13's in an unshare chroot (sbuild:
# loop-scheduler skips there without a machine) and in a booted guest (autopkgtest-qemu),
# where loop-scheduler gets a whole machine and must run.
memcheck() {
	local t scripts=()
	cd "$plain"
	make clean >/dev/null
	make -s -j"$(nproc)" CC=gcc WERROR=1 all tests/unit tests/hyperv-scheduler-testfacts tests/fuzz-json-replay
	for t in tests/integration/*.sh; do
		case ${t##*/} in rule.sh | udevd.sh | machines.sh) ;; *) scripts+=("$t") ;; esac
	done
	MEMCHECK=1 tests/run-tests.sh "${scripts[@]}"
	echo "memcheck: 0 reports (any report is exit status 99 and fails its test)"
}
start memcheck memcheck
start build-hosts bash .ci/build-hosts.sh
# 15 s a target: each takes a CPU for that long, however busy the machine, and the CPUs are
# the run's limit; `make fuzz` alone runs 60 s. Each starts from its seeds and saved crashes.
start fuzz make fuzz FUZZ_SECONDS=15

# This machine's apt and dpkg, one step after the other: the arm64 toolchain, then the .deb
# built, installed and purged here.
start arm64 bash .ci/arm64.sh "$out/arm64"
package_test() {
	after arm64
	DEB_BUILD_OPTIONS=nocheck bash .ci/package-test.sh
}
start package-test package_test

# The package as Debian's build daemons build it, for each release (.ci/sbuild.sh). The .debs stay
# in $out/RELEASE for the guests.
sbuild_release() {
	local autopkgtest=no
	[ "$1" != trixie ] || autopkgtest=yes
	after tarballs
	"${nonci[@]}" AUTOPKGTEST=$autopkgtest bash .ci/sbuild.sh "$1" "$out/$1"
}
for release in bookworm trixie sid; do
	start "sbuild-$release" sbuild_release "$release"
done
readme_fresh() {
	after tarballs
	"${nonci[@]}" bash .ci/readme-fresh.sh "$1"
}
for release in bookworm trixie; do
	start "readme-fresh-$release" readme_fresh "$release"
done
# The README's image builder commands as written: Debian 13's .deb built in a trixie chroot on
# this Debian 12 machine, then installed into an image tree, which changes no disk here. Their
# chroots come from the archive that mmdebstrap picks by default, not from the tarballs.
start readme-image "${nonci[@]}" bash .ci/readme-image.sh
reprotest_trixie() {
	after tarballs
	"${nonci[@]}" bash .ci/reprotest.sh trixie
}
start reprotest reprotest_trixie
start rpm "${nonci[@]}" RPM_NOCHECK=1 bash .ci/rpm.sh "$out/rpm"
start distcheck make distcheck DISTCHECK_CHECK=
# The postinst and the RPM's %post of those packages in containers: no disk of this machine.
container_install() {
	after sbuild-bookworm rpm
	"${nonci[@]}" bash .ci/container-install.sh "$(find "$out/bookworm" -name 'hyperv-scheduler_*.deb')" \
		"$(find "$out/rpm" -name 'hyperv-scheduler-[0-9]*.rpm')"
}
start container-install container_install
# Which rule wins under a running systemd-udevd of Debian 13 and of unstable, each from a
# minbase chroot of its release, on loop devices (Debian 12's: order.sh in the fast tier).
start udevd-releases "${nonci[@]}" bash .ci/udevd-releases.sh trixie sid
# The suite as root on unstable: a package build as a user (sbuild) skips what needs root or a
# private /run, so only this run sees a new udev in the archive break a case.
start suite-root-sid "${nonci[@]}" bash .ci/suite-root.sh sid
# Each kept mutant of src/ must be killed by its guarding tests; coverage of src/ by the whole
# suite must not fall below its floor. Both in copies of the tree.
start mutants make mutants
start coverage make coverage
# The autopkgtests of Debian 13's .deb in a booted Debian 13 guest, as soon as sbuild has built
# it: one guest under TCG for the three tests (their Depends are the same), a CPU's worth for
# a few minutes. The guest's image is cached for a week. autopkgtest-virt-qemu's fixed setup
# timeouts get their room in .ci/autopkgtest-qemu.sh.
autopkgtest_qemu() {
	after sbuild-trixie
	"${nonci[@]}" bash .ci/autopkgtest-qemu.sh --release trixie "$out/trixie"
}
start guest-image "${nonci[@]}" bash .ci/autopkgtest-qemu.sh --release trixie --image-only
start autopkgtest-qemu autopkgtest_qemu

# The guests: make check-vm boots the package in Debian 12 and 13 images (and arm64), two at a
# time under TCG, a CPU each, as soon as the .debs it boots are built; the images are the
# cached bases (a week) with those .debs put in. Its boots get room on a busy machine: one
# that takes 2 minutes alone took over 4 (the default VM_BOOT_SECONDS) beside other steps;
# 15 minutes here, 30 for arm64's.
check_vm() {
	after arm64
	built bookworm
	built trixie
	t0=$(date +%s)
	"${nonci[@]}" make check-vm VM_DEBS="$out" VM_BOOT_SECONDS=900 VM_ARM64_SECONDS=1800
}
start check-vm check_vm

finish memcheck build-hosts fuzz arm64 package-test tarballs \
	sbuild-bookworm sbuild-trixie sbuild-sid readme-fresh-bookworm readme-fresh-trixie \
	readme-image reprotest rpm distcheck container-install guest-image autopkgtest-qemu \
	udevd-releases suite-root-sid mutants coverage check-vm
gate "the package and guest tier"

section "summary"
printf '%s\n' "${summary[@]}"
echo "ci: passed in $(($(date +%s) - t_run)) s"
