#!/bin/bash
# CI for the Debian package, as root on Debian 12 (CI=true installs what it needs):
#   build it from a clean copy of the tree, lintian, check that it installs what
#   "make install" installs, prove its postinst changes no disk in a chroot, install it,
#   check the dry-run report and what the installed udev rule runs, then remove and purge
#   it and check that nothing is left.
# It needs what a VM or a privileged container gives root: loop devices, mount namespaces,
# overlayfs. The machine is left as it was: the package is purged, the loop device detached
# with its scheduler put back, and every mount lives in a private mount namespace that ends
# with its command.
#
# EXPECT_VERDICT: the machine verdict this runner must get. Unset, any verdict but
# hyperv-guest, with every disk skipped (as not-hyperv where the machine is asked): CI runs
# on KVM-family VMs. Set it to hyperv-guest on a Hyper-V runner.
set -euo pipefail

# tests/lib.sh: the work directory (removed at exit) and the udevadm test runner.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=package-test prog=FAIL
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
debversion=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)

section() { printf '\n=== %s\n' "$*"; }

[ "$(id -u)" = 0 ] || die "needs root: it installs and purges the package"
case $(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true) in
i* | r*) die "$pkg is already installed here; this test installs and purges it" ;;
esac
for f in /etc/hyperv-scheduler.conf /etc/udev/rules.d/60-hyperv-scheduler.rules \
	/run/udev/rules.d/60-hyperv-scheduler.rules; do
	[ ! -e "$f" ] || die "$f exists; this test would remove it"
done

# The suite runs the helper as nobody on files of the build tree: it must be readable.
chmod 0755 "$work"
loop='' loop_scheduler=''
installed=false
# A loop device keeps its scheduler after it is detached: put the old one back first.
drop_loop() {
	echo "$loop_scheduler" >"/sys/block/$loop/queue/scheduler"
	losetup -d "/dev/$loop"
	loop=
}
cleanup() {
	set +e
	if $installed; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "$pkg" >/dev/null
	fi
	[ -z "$loop" ] || drop_loop
}
at_exit+=(cleanup)

export DEBIAN_FRONTEND=noninteractive

# ---------------------------------------------------------------------------------------
section "tools"
if [ "${CI:-}" = true ]; then
	apt-get update -q
	apt-get install -y -q --no-install-recommends build-essential lintian jq \
		util-linux mount autopkgtest python3
fi
# The source package, 3.0 (quilt) with make dist's tarball as its .orig.tar.gz, unpacked.
"$top/.ci/source-package.sh" "$work"
dpkg-source -x "$work/${pkg}_$debversion.dsc" "$work/src" >/dev/null
if [ "${CI:-}" = true ]; then
	apt-get build-dep -y -q "$work/src"
fi

# ---------------------------------------------------------------------------------------
section "build (source and binary, with the test suite)"
# The source package too, so that lintian checks debian/ itself.
(cd "$work/src" && dpkg-buildpackage -us -uc)
deb=$work/${pkg}_${debversion}_$(dpkg --print-architecture).deb
changes=$work/${pkg}_${debversion}_$(dpkg --print-architecture).changes
[ -f "$deb" ] || die "no $deb"

section "lintian"
lintian --fail-on error --info --display-info "$changes" | tee "$work/lintian"
# No warning but the one only a maintainer can answer: the ITP bug the first upload closes.
! grep '^W: ' "$work/lintian" | grep -v ': initial-upload-closes-no-bugs ' || die "lintian warns"
lintian_tags=$(grep -c '^[EWIP]: ' "$work/lintian" || true)

# ---------------------------------------------------------------------------------------
section "the package installs what make install installs"
# Where this release's udev reads rules (/lib/udev on Debian 12, /usr/lib/udev from 13 on), as
# the package's build asked udev.pc.
udevdir=$(pkg-config --variable=udevdir udev)
[ -n "$udevdir" ] || die "pkg-config cannot find udev.pc"
rule=$udevdir/rules.d/60-hyperv-scheduler.rules
# What every installation must hold, man pages compressed by the packaging.
LC_ALL=C sort >"$work/expected" <<EOF
0644 /etc/hyperv-scheduler.conf
0644 $rule
0755 /usr/sbin/hyperv-scheduler
0644 /usr/share/man/man5/hyperv-scheduler.conf.5.gz
0644 /usr/share/man/man8/hyperv-scheduler.8.gz
0644 /usr/share/hyperv-scheduler/report.schema.json
EOF
package_list "$deb" >"$work/in-deb"
diff -u "$work/expected" "$work/in-deb" || die "the .deb does not hold the expected files"
dpkg-deb -c "$deb" >"$work/deb-contents"
# Not Debian-native: the changelog is changelog.Debian.gz.
for f in README.Debian changelog.Debian.gz copyright; do
	grep -q " \./usr/share/doc/$pkg/$f\$" "$work/deb-contents" || die "the .deb lacks doc $f"
done
[[ $(dpkg-deb -f "$deb" Depends) == *libudev1* ]] || die "Depends lacks libudev1"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles)" = /etc/hyperv-scheduler.conf ] ||
	die "/etc/hyperv-scheduler.conf is not a conffile"

copy_tree "$work/make-install"
install_list "$work/make-install" "$work/destdir" >"$work/in-destdir"
diff -u "$work/in-deb" "$work/in-destdir" || die "make install and the package differ"
cmp -s "$work/destdir$rule" <(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ".$rule") ||
	die "make install and the package install different rules"
echo "same files and modes"

# ---------------------------------------------------------------------------------------
# The current scheduler of every disk but other loop devices, which belong to whatever else
# runs on this machine; our own loop device is included.
schedulers() {
	local d
	for d in /sys/block/*; do
		case ${d##*/} in loop*) [ "${d##*/}" = "$loop" ] || continue ;; esac
		echo "${d##*/} $(cat "$d/queue/scheduler" 2>/dev/null || echo -)"
	done
}

section "postinst changes no disk in a chroot"
# A loop device with mq-deadline and a config that would give it none (mode always skips
# the Hyper-V checks; devices limits the policy to this one disk) make a disk the postinst
# would change. The package is installed with dpkg into a chroot of this very system: an
# overlay whose writes vanish with it, with udevd answering on its /run/udev/control
# (tests/udevd-standin.py) and no container marker, so that the chroot is what tells the two
# runs apart. Where the tree's PID 1 is stood in for by a process chrooted in it, bound over
# the tree's /proc/1, nothing says chroot and the package takes the tree for a running system:
# the disk must change (so the test can fail); in a plain chroot it must not.
# .ci/container-install.sh proves the containers.
truncate -s 16M "$work/disk.img"
loop=$(losetup -f --show "$work/disk.img")
loop=${loop#/dev/}
loop_scheduler=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$loop/queue/scheduler")
grep -qw mq-deadline "/sys/block/$loop/queue/scheduler" || die "$loop offers no mq-deadline"
cp "$deb" "$work/pkg.deb"

# chroot_install running|chroot: installs the package in a fresh overlay chroot.
chroot_install() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m -- bash -euo pipefail -c '
		work=$1 loop=$2 how=$3 top=$4
		ovl=$work/overlay
		mkdir -p "$ovl"
		mount -t tmpfs tmpfs "$ovl"
		mkdir "$ovl/upper" "$ovl/work" "$ovl/root"
		mount -t overlay overlay \
			-o "lowerdir=/,upperdir=$ovl/upper,workdir=$ovl/work" "$ovl/root"
		r=$ovl/root
		mount --bind /sys "$r/sys"
		mount --bind /dev "$r/dev"
		mount -t tmpfs tmpfs "$r/run"
		mount -t tmpfs tmpfs "$r/tmp"
		mkdir "$r/run/udev"
		exec {udevd}< <(exec setpriv --pdeathsig TERM "$top/tests/udevd-standin.py" "$r/run/udev/control")
		read -r -t 30 -u "$udevd" line && [ "$line" = ready ]
		rm -f "$r/.dockerenv"
		printf "#!/bin/sh\necho none\nexit 1\n" >"$r/usr/bin/systemd-detect-virt"
		chmod 0755 "$r/usr/bin/systemd-detect-virt"
		printf "mode = always\ndevices = %s\n" "$loop" >"$r/etc/hyperv-scheduler.conf"
		cp "$work/pkg.deb" "$r/tmp/pkg.deb"
		install=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive
			dpkg -i --force-confold /tmp/pkg.deb)
		mount -t proc proc "$r/proc"
		if [ "$how" = running ]; then
			exec {pid1}< <(exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin setpriv --pdeathsig KILL chroot "$r" sh -c "echo \$\$ && exec sleep infinity")
			read -r -t 30 -u "$pid1" pid1_pid
			mount --bind "/proc/$pid1_pid" "$r/proc/1"
		fi
		chroot "$r" "${install[@]}"
		chroot "$r" dpkg-query -W -f="\${db:Status-Abbrev}\n" hyperv-scheduler | grep -q "^ii"
	' chroot_install "$work" "$loop" "$1" "$top"
}

echo mq-deadline >"/sys/block/$loop/queue/scheduler"
chroot_install running
grep -q '\[none\]' "/sys/block/$loop/queue/scheduler" ||
	die "control run: the postinst left $loop at $(cat "/sys/block/$loop/queue/scheduler")"
echo "control (PID 1 in the tree, udevd answering there): $loop changed to none"

echo mq-deadline >"/sys/block/$loop/queue/scheduler"
schedulers >"$work/before-chroot"
chroot_install chroot
schedulers >"$work/after-chroot"
diff -u "$work/before-chroot" "$work/after-chroot" || die "the postinst changed a disk in a chroot"
echo "chroot: no disk changed"
dpkg-query -W "$pkg" >/dev/null 2>&1 && die "the chroot install leaked into this system"
drop_loop

# ---------------------------------------------------------------------------------------
section "autopkgtest (null runner: this machine), then purge"
# debian/tests run against the installed .deb; autopkgtest installs it and the tests'
# dependencies and leaves them installed, so both are purged after and checked gone.
installed_packages() {
	dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' | awk '$1 ~ /^[ih]i/ { print $2 }' | sort
}
installed_packages >"$work/pkgs-before"
installed=true
status=0
autopkgtest --output-dir "$work/autopkgtest" "$deb" "$work/src/" -- null || status=$?
cat "$work/autopkgtest/summary" 2>/dev/null || true
mapfile -t added < <(installed_packages | comm -13 "$work/pkgs-before" -)
echo "autopkgtest installed: ${added[*]}"
apt-get purge -y -q "${added[@]}" >/dev/null
installed=false
installed_packages | diff -u "$work/pkgs-before" - || die "autopkgtest left packages installed"
# 0: all passed; 2: some skipped (udevadm verify on udev 252), none failed.
[ "$status" = 0 ] || [ "$status" = 2 ] || die "autopkgtest failed ($status)"
autopkgtest_summary=$(awk '{ print $1 " " $2 }' "$work/autopkgtest/summary" | paste -sd, | sed 's/,/, /g')

# ---------------------------------------------------------------------------------------
section "install"
schedulers >"$work/before-install"
installed=true
apt-get install -y -q "$deb"
dpkg-query -L "$pkg" | while read -r p; do [ -d "$p" ] || echo "$p"; done | sort >"$work/listed"
sort >"$work/want" <<EOF
/etc/hyperv-scheduler.conf
$rule
/usr/sbin/hyperv-scheduler
/usr/share/doc/$pkg/README.Debian
/usr/share/doc/$pkg/changelog.Debian.gz
/usr/share/doc/$pkg/copyright
/usr/share/hyperv-scheduler/report.schema.json
/usr/share/man/man5/hyperv-scheduler.conf.5.gz
/usr/share/man/man8/hyperv-scheduler.8.gz
EOF
diff -u "$work/want" "$work/listed" || die "dpkg -L $pkg lists other files"
while read -r p; do test -e "$p" || die "$p is not installed"; done <"$work/want"
test -x /usr/sbin/hyperv-scheduler
[ "$(hyperv-scheduler --version)" = "hyperv-scheduler $version" ] || die "--version"

# ---------------------------------------------------------------------------------------
section "dry-run report"
hyperv-scheduler --dry-run --json >"$work/report.json" 2>"$work/report.err"
[ ! -s "$work/report.err" ] || die "the report warns: $(cat "$work/report.err")"
hyperv-scheduler --dry-run
# The shipped config shows every key at its default: uncommented, it must still be valid and
# change nothing.
sed 's/^#\([a-z]\)/\1/' /etc/hyperv-scheduler.conf >"$work/uncommented.conf"
hyperv-scheduler --dry-run --json --config "$work/uncommented.conf" >"$work/uncommented.json" \
	2>"$work/uncommented.err"
[ ! -s "$work/uncommented.err" ] || die "the uncommented config warns: $(cat "$work/uncommented.err")"
[ "$(jq -c '.policy | del(.config)' "$work/report.json")" = \
	"$(jq -c '.policy | del(.config)' "$work/uncommented.json")" ] ||
	die "the config's commented values are not the defaults"
# What debian/tests/dry-run-json.sh checks, then the whole documented shape.
check_report "$work/report.json" "$version" || die "the report does not have the documented shape"
report_schema /usr/share/hyperv-scheduler/report.schema.json "$work/report.json" ||
	die "the report is not valid under the installed report.schema.json"
jq -e '
	(keys == ["devices", "machine", "notes", "policy", "schema_version", "udev_running",
	          "version"]) and
	(.machine | keys == ["evidence", "flavour", "hypervisor", "isolation", "paravisor",
	                     "verdict"]) and
	.policy == {mode: "auto", mode_from_cmdline: false, schedulers: ["none", "noop"],
	            config: "/etc/hyperv-scheduler.conf", config_found: true,
	            config_unreadable: false} and
	(.devices | length > 0) and
	all(.devices[];
		(keys == (["action", "available", "changed", "current", "error", "kernel_default", "name",
		           "queues", "queues_why", "reason", "rule_skips", "target"])) and
		((.reason == null) == (.action != "skipped")) and
		.error == null)
' "$work/report.json" >/dev/null || die "the report does not have the documented shape"
verdict=$(jq -r .machine.verdict "$work/report.json")
echo "verdict: $verdict"
if [ -n "${EXPECT_VERDICT:-}" ]; then
	[ "$verdict" = "$EXPECT_VERDICT" ] || die "verdict $verdict, expected $EXPECT_VERDICT"
else
	[ "$verdict" != hyperv-guest ] || die "verdict hyperv-guest on a runner that is not Hyper-V"
fi
if [ "$verdict" != hyperv-guest ]; then
	# Every disk skipped: as not-hyperv, or for a reason the helper checks before the machine
	# (a zram disk has no scheduler); and the machine decided for at least one.
	jq -e 'all(.devices[]; .action == "skipped" and .target == null and
		(.reason | IN("not-hyperv", "partition", "no-scheduler", "zoned", "no-suitable-scheduler"))) and
		any(.devices[]; .reason == "not-hyperv")' \
		"$work/report.json" >/dev/null || die "a disk is not skipped as not-hyperv"
	schedulers >"$work/after-install"
	diff -u "$work/before-install" "$work/after-install" ||
		die "installing changed a disk on a machine that is not Hyper-V"
fi

# ---------------------------------------------------------------------------------------
section "what the installed udev rule runs"
# udevadm test (tests/lib.sh, udev_test: a private /dev and /run, no local rules, on a fake
# Azure /sys) with the installed rules (RULE empty): the rule read must be the installed one.
"$top/tests/fixtures/mktree.sh" azure "$work/tree" >/dev/null
udev_runs() {
	RULE='' udev_test "$work/tree" add "$1" >"$work/udev.out" ||
		die "udevadm test $1 failed: $(tail -n 3 "$work/udev.out")"
	# udev names the rule by its merged-/usr path or the other, whichever it met first.
	grep -Eq "^Reading rules file: (/usr)?${rule#/usr}\$" "$work/udev.out" ||
		die "udevadm test $1 did not read the installed rule"
	{ udev_test_runs "$work/udev.out" || true; } | { grep '^/usr/sbin/hyperv-scheduler' || true; } >"$work/runs"
}
# sda and sr0 on mq-deadline, sdaa on bfq; sdb and nvme0n1 are on none already.
for d in sda sdaa sr0; do
	udev_runs "$d"
	[ "$(cat "$work/runs")" = "/usr/sbin/hyperv-scheduler --udev $d" ] ||
		die "the rule does not run the helper for $d: $(cat "$work/udev.out")"
	echo "$d: runs /usr/sbin/hyperv-scheduler --udev $d"
done
for d in sdb nvme0n1 sda1 nvme0n1p1 loop0 zram0 md0 dm-0; do
	udev_runs "$d"
	[ ! -s "$work/runs" ] || die "the rule runs the helper for $d: $(cat "$work/runs")"
	echo "$d: runs nothing"
done

# ---------------------------------------------------------------------------------------
section "remove, then purge"
schedulers >"$work/before-remove"
apt-get remove -y -q "$pkg"
[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg")" = "rc " ] || die "not in state rc"
for f in /usr/sbin/hyperv-scheduler "$rule"; do
	[ ! -e "$f" ] || die "remove left $f"
done
[ -f /etc/hyperv-scheduler.conf ] || die "remove took the conffile (only purge may)"
schedulers >"$work/after-remove"
diff -u "$work/before-remove" "$work/after-remove" || die "removing changed a disk"

apt-get purge -y -q "$pkg"
installed=false
status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
case $status in "" | ?n*) ;; *) die "dpkg still has $pkg: '$status'" ;; esac
! dpkg -L "$pkg" >/dev/null 2>&1 || die "dpkg -L still lists files"
for f in /etc/hyperv-scheduler.conf /etc/udev/rules.d/60-hyperv-scheduler.rules \
	/run/udev/rules.d/60-hyperv-scheduler.rules /lib/udev/rules.d/60-hyperv-scheduler.rules \
	/usr/lib/udev/rules.d/60-hyperv-scheduler.rules /usr/sbin/hyperv-scheduler \
	"/usr/share/doc/$pkg"; do
	[ ! -e "$f" ] || die "purge left $f"
done
! ls /var/lib/dpkg/info/"$pkg".* >/dev/null 2>&1 || die "purge left dpkg's records"
echo "nothing left"

section "package test passed"
echo "package: built with its tests, lintian $lintian_tags tags, $(wc -l <"$work/expected") files as make install, chroot install changed no disk, autopkgtest: $autopkgtest_summary, udevadm test ran the installed rule, purge left nothing"
