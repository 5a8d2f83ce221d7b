# shellcheck shell=bash
# The maintainer scripts as the packages carry them, run as dpkg and rpm run them: the Debian
# prerm and the RPM's %preun put back what the helper changed on removal and never on upgrade,
# the postinst and %post apply the policy to the disks there with HYPERV_SCHEDULER_BY=install,
# the postrm and %postun have udevd read its rules again, none of them where this root's udev
# does not manage the devices (a chroot, DPKG_ROOT, a container, no udevd), and none fails
# because the helper did. The machine is faked, so that nothing depends on the host: stand-ins
# first on PATH answer for the kernel and udevd and log what the scripts asked them, and a
# private /run, /sys and files of /proc hold the rest of what udev_manages_devices reads.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

fragment=$top/packaging/rpm/udev-manages-devices.sh
spec=$top/packaging/rpm/hyperv-scheduler.spec
fake=$work/fake
# What the postinst and %post say on a WSL2 distribution's first install (PACKAGING.md, WSL2).
wsl_line="hyperv-scheduler: WSL2: the disks get the policy when this distribution next starts; hyperv-scheduler --all applies it now"

# need_machine NAME: what the fake machine cannot stand in for: root in the initial user
# namespace (its uid_map is a sign udev_manages_devices reads through a redirect, which no
# stand-in answers), a private mount namespace, and python3 to make udevd's control socket.
# SKIP, saying why, without one.
need_machine() {
	need_root "$1" && need_mounts "$1" /run || return 1
	if [ "$(tr -s ' \n' '  ' </proc/self/uid_map)" != " 0 0 4294967295 " ]; then
		skip "$1" "not the initial user namespace, where udev_manages_devices says no"
	elif ! command -v python3 >/dev/null; then
		skip "$1" "python3 is missing"
	else
		return 0
	fi
	return 1
}

# The stand-in for each command the scripts run or probe, fake/bin/NAME a link to it. It
# answers as the machine named in fake/machine would, and logs each call but udevd's ping
# (udev_manages_devices's probe) as a line of fake/NAME.log: the helper's with its
# HYPERV_SCHEDULER_BY, and it exits with fake/helper-status. A machine is one of
#   host       the running system, whose udev manages the devices;
#   chroot     a chroot of it (ischroot, and / is not PID 1's root) with its /run bound in;
#   container  a container with the host's /run/udev bound in: a PID namespace of its own,
#              container= in PID 1's environment, systemd-detect-virt saying docker;
#   no-udevd   the running system with no udevd: no /run/udev/control, no answer to a ping;
#   wsl        a WSL2 distribution with systemd: a PID namespace of its own, a microsoft
#              kernel, systemd-detect-virt saying wsl.
# stat answers udev_manages_devices's two questions to the kernel (the PID namespace's inode,
# which no namespace of a test can make the initial one's; / and PID 1's root) and passes
# every other to the real one.
# shellcheck disable=SC2016 # the stand-in's own text
standin='#!/bin/sh
fake=${0%/bin/*} name=${0##*/}
machine=$(cat "$fake/machine")
case $name in
hyperv-scheduler)
	echo "${HYPERV_SCHEDULER_BY+HYPERV_SCHEDULER_BY=$HYPERV_SCHEDULER_BY }$*" >>"$fake/$name.log"
	exit "$(cat "$fake/helper-status")"
	;;
udevadm)
	case $* in
	"control --ping"*) [ "$machine" != no-udevd ] ;;
	*) echo "$*" >>"$fake/$name.log" ;;
	esac
	;;
ischroot) [ "$machine" = chroot ] ;;
systemd-detect-virt)
	case $machine in
	container) echo docker ;;
	wsl) echo wsl ;;
	*)
		echo none
		exit 1
		;;
	esac
	;;
stat)
	case $machine/$* in
	container/"-L -c %i /proc/self/ns/pid" | wsl/"-L -c %i /proc/self/ns/pid") echo 4026532290 ;;
	*/"-L -c %i /proc/self/ns/pid") echo 4026531836 ;;
	chroot/"-L -c %d:%i /") echo 259:1846 ;;
	*/"-L -c %d:%i /" | */"-L -c %d:%i /proc/1/root") echo 259:2 ;;
	*)
		PATH=${PATH#"$fake/bin:"}
		exec stat "$@"
		;;
	esac
	;;
esac'

# maint MACHINE [VAR=VALUE...] COMMAND...: COMMAND (sh SCRIPT ARG...) on the fake MACHINE, in an
# environment of PATH and the VARs alone, chrooted into a root of its own in a private mount
# namespace: the machine's directories bound in, but for its marker files at / (the
# /.dockerenv of a machine built from a Docker image) and with an empty /run but for udevd's
# control socket, a /sys of its own with a writable /sys/block, a /tmp of its own with the
# work directory, a /proc of its own, and PID 1's environment, name and the kernel's release as MACHINE has them.
# The stand-ins' logs are emptied first; the helper exits with $helper_status. Exit status
# 125 where the namespace cannot be made.
helper_status=0
maint() {
	local machine=$1 environ=HOME=/ osrelease=6.1.0-28-cloud-amd64 socket=yes
	shift
	case $machine in
	container) environ=container=docker ;;
	no-udevd) socket=no ;;
	wsl) osrelease=5.15.167.4-microsoft-standard-WSL2 ;;
	esac
	rm -f "$fake"/*.log
	echo "$machine" >"$fake/machine"
	echo "$helper_status" >"$fake/helper-status"
	printf '%s\0TERM=linux\0' "$environ" >"$fake/environ"
	echo systemd >"$fake/comm"
	echo "$osrelease" >"$fake/osrelease"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m -- sh -c 'fake=$1 work=$2 socket=$3 root=$2/root
		shift 3
		mkdir -p "$root" && mount -t tmpfs hyperv-scheduler-root "$root" || exit 125
		for d in /* /.[!.]*; do
			[ -e "$d" ] || [ -L "$d" ] || continue
			case $d in
			/dev) mkdir "$root$d" && mount --rbind "$d" "$root$d" ;;
			# A whole /proc, /proc/sys included, where the machine'"'"'s may have only the processes.
			/proc) mkdir "$root$d" && mount -t proc hyperv-scheduler-proc "$root$d" ;;
			/run | /sys | /tmp) mkdir "$root$d" && mount -t tmpfs "hyperv-scheduler-${d#/}" "$root$d" ;;
			*)
				if [ -L "$d" ]; then
					cp -P "$d" "$root$d"
				elif [ -d "$d" ]; then
					mkdir "$root$d" && mount --rbind "$d" "$root$d"
				fi
				;;
			esac || exit 125
		done
		mkdir -p "$root$work" "$root/run/udev" "$root/sys/block" && mount --bind "$work" "$root$work" &&
			mount --bind "$fake/environ" "$root/proc/1/environ" &&
			mount --bind "$fake/comm" "$root/proc/1/comm" &&
			mount --bind "$fake/osrelease" "$root/proc/sys/kernel/osrelease" || exit 125
		# Bound from its own directory: a path of the work directory may be too long for one.
		[ "$socket" = no ] || (cd "$root/run/udev" &&
			python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"control\")") || exit 125
		exec chroot "$root" env -i \
			PATH="$fake/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@"' \
		sh "$fake" "$work" "$socket" "$@"
}

# asked NAME WANT: the lines the stand-in NAME logged in the last run are WANT (empty: it was
# not run, or, udevadm, only pinged).
asked() { is "what $1 was asked" "$(cat "$fake/$1.log" 2>/dev/null)" "$2"; }

# spec_expanded: the spec as `rpmspec --parse` prints it, for what its scriptlets hold, read
# without rpm: the %{lua: ...} block (the spec's only one, which prints the fragment) replaced
# by the fragment less a shellcheck directive on its first line, %{_sbindir} by $fake/bin,
# %% by %.
spec_expanded() {
	awk -v frag="$fragment" -v sbin="$fake/bin" '
		/^%\{lua:/ {
			lua = 1
			first = 1
			while ((getline line <frag) > 0) {
				if (!(first && line == "# shellcheck shell=sh"))
					print line
				first = 0
			}
			close(frag)
			next
		}
		lua { if ($0 == "}") lua = 0; next }
		{ gsub(/%\{_sbindir\}/, sbin); gsub(/%%/, "%"); print }' "$spec"
}

# scriptlet NAME: the scriptlet %NAME of an expanded spec on stdin, as rpm keeps it: the lines
# up to the next section, less the blank lines at its end.
scriptlet() {
	awk -v s="%$1" '
		$0 == s { on = 1; next }
		on && /^%(package|description|prep|build|install|check|clean|files|changelog|pre|post|preun|postun|pretrans|posttrans|verifyscript|trigger[a-z]*)( |$)/ { exit }
		on && /^$/ { blank++; next }
		on { for (; blank > 0; blank--) print ""; print }'
}

if need_machine "the maintainer scripts"; then
	mkdir -p "$fake/bin"
	printf '%s\n' "$standin" >"$fake/standin"
	chmod 0755 "$fake/standin"
	for c in hyperv-scheduler udevadm ischroot systemd-detect-virt stat; do
		ln -s ../standin "$fake/bin/$c"
	done

	if [ ! -d "$top/debian" ]; then
		skip "the Debian scripts" "no debian/ here (a release tarball carries none)"
	else
		# The bodies of the .deb: assembled as debian/rules does, by the same script. debhelper's
		# #DEBHELPER# stays a comment: it adds nothing to them (PACKAGING.md).
		for s in prerm postinst; do
			sh "$top/debian/assemble-script.sh" "$top/debian/hyperv-scheduler.$s.in" "$fragment" "$work/$s"
		done
		# In the work directory, which the root of maint holds.
		cp "$top/debian/hyperv-scheduler.postrm" "$work/postrm"
		prerm=$work/prerm postinst=$work/postinst postrm=$work/postrm

		check "prerm remove: exit 0" -- exits 0 maint host sh "$prerm" remove
		check "  puts back what the helper changed" -- asked hyperv-scheduler "--undo"
		check "  and says nothing of its own" -- silent
		check "prerm upgrade: exit 0" -- exits 0 maint host sh "$prerm" upgrade 0.1.1
		check "  puts nothing back" -- asked hyperv-scheduler ""
		check "prerm failed-upgrade: exit 0" -- exits 0 maint host sh "$prerm" failed-upgrade 0.1.1
		check "  puts nothing back" -- asked hyperv-scheduler ""
		check "prerm remove in a chroot: exit 0" -- exits 0 maint chroot sh "$prerm" remove
		check "  puts nothing back" -- asked hyperv-scheduler ""
		check "prerm remove with DPKG_ROOT: exit 0" -- exits 0 maint host DPKG_ROOT=/srv/image sh "$prerm" remove
		check "  puts nothing back" -- asked hyperv-scheduler ""
		check "prerm remove in a container: exit 0" -- exits 0 maint container sh "$prerm" remove
		check "  puts nothing back" -- asked hyperv-scheduler ""
		check "prerm remove with no udevd: exit 0" -- exits 0 maint no-udevd sh "$prerm" remove
		check "  puts nothing back" -- asked hyperv-scheduler ""
		helper_status=1
		check "prerm remove, the helper failing: exit 0" -- exits 0 maint host sh "$prerm" remove
		check "  it was run" -- asked hyperv-scheduler "--undo"
		helper_status=0

		check "postinst configure: exit 0" -- exits 0 maint host sh "$postinst" configure
		check "  udevd reads the rule" -- asked udevadm "control --reload"
		check "  the disks there get the policy, their records naming the install" -- \
			asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
		check "  and it says nothing of its own" -- silent
		check "postinst configure after an upgrade: exit 0" -- exits 0 maint host sh "$postinst" configure 0.1.0
		check "  the same" -- asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
		check "postinst abort-upgrade: exit 0" -- exits 0 maint host sh "$postinst" abort-upgrade 0.1.1
		check "  applies nothing" -- asked hyperv-scheduler ""
		check "postinst configure in a chroot: exit 0" -- exits 0 maint chroot sh "$postinst" configure
		check "  applies nothing" -- asked hyperv-scheduler ""
		check "  nor reloads udevd" -- asked udevadm ""
		check "postinst configure with DPKG_ROOT: exit 0" -- exits 0 maint host DPKG_ROOT=/srv/image sh "$postinst" configure
		check "  applies nothing" -- asked hyperv-scheduler ""
		check "postinst configure in a container: exit 0" -- exits 0 maint container sh "$postinst" configure
		check "  applies nothing" -- asked hyperv-scheduler ""
		check "  nor reloads udevd" -- asked udevadm ""
		check "postinst configure with no udevd: exit 0" -- exits 0 maint no-udevd sh "$postinst" configure
		check "  applies nothing" -- asked hyperv-scheduler ""
		helper_status=1
		check "postinst configure, the helper failing: exit 0" -- exits 0 maint host sh "$postinst" configure
		check "  it was run" -- asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
		helper_status=0
		check "postinst configure on WSL2, first install: exit 0" -- exits 0 maint wsl sh "$postinst" configure
		check "  applies nothing" -- asked hyperv-scheduler ""
		check "  says when the disks get the policy" -- stdout_is "$wsl_line"
		check "postinst configure on WSL2 after an upgrade: exit 0" -- exits 0 maint wsl sh "$postinst" configure 0.1.0
		check "  says nothing" -- silent

		check "postrm remove: exit 0" -- exits 0 maint host sh "$postrm" remove
		check "  udevd forgets the rule" -- asked udevadm "control --reload"
		check "postrm upgrade: exit 0" -- exits 0 maint host sh "$postrm" upgrade 0.1.1
		check "  udevd not asked" -- asked udevadm ""
		check "postrm purge: exit 0" -- exits 0 maint host sh "$postrm" purge
		check "  udevd not asked" -- asked udevadm ""
		check "postrm remove in a chroot: exit 0" -- exits 0 maint chroot sh "$postrm" remove
		check "  udevd not asked" -- asked udevadm ""
		check "postrm remove with DPKG_ROOT: exit 0" -- exits 0 maint host DPKG_ROOT=/srv/image sh "$postrm" remove
		check "  udevd not asked" -- asked udevadm ""
		check "postrm remove with no udevd: exit 0" -- exits 0 maint no-udevd sh "$postrm" remove
		check "  udevd not asked" -- asked udevadm ""
	fi

	# The RPM's scriptlets: rpmspec's expansion where there is one; otherwise the same read
	# without rpm, which the first case holds equal to rpmspec's. The helper is $fake/bin's, as
	# %{_sbindir}/hyperv-scheduler.
	spec_expanded >"$work/spec.read"
	if ! command -v rpmspec >/dev/null; then
		skip "the RPM's scriptlets read without rpm are rpmspec's" "no rpmspec (package rpm) to compare with"
	elif rpmspec --parse --define "_sourcedir ${fragment%/*}" --define "_sbindir $fake/bin" "$spec" \
		>"$work/spec.rpmspec" 2>"$work/rpmspec.err"; then
		# same_scriptlets: %post, %preun and %postun read without rpm are rpmspec's.
		same_scriptlets() {
			local s
			for s in post preun postun; do
				diff -u --label "%$s read without rpm" --label "%$s by rpmspec" \
					<(scriptlet "$s" <"$work/spec.read") <(scriptlet "$s" <"$work/spec.rpmspec") || return
			done
		}
		check "the RPM's scriptlets read without rpm are rpmspec's" -- same_scriptlets
		cp "$work/spec.rpmspec" "$work/spec.read"
	else
		fail "the RPM's scriptlets read without rpm are rpmspec's" "rpmspec --parse failed: $(cat "$work/rpmspec.err")"
	fi
	for s in post preun postun; do
		scriptlet "$s" <"$work/spec.read" >"$work/rpm-$s"
	done
	post=$work/rpm-post preun=$work/rpm-preun postun=$work/rpm-postun

	check "%preun of an erase (0): exit 0" -- exits 0 maint host sh "$preun" 0
	check "  puts back what the helper changed" -- asked hyperv-scheduler "--undo"
	check "  and says nothing of its own" -- silent
	check "%preun of an upgrade (1): exit 0" -- exits 0 maint host sh "$preun" 1
	check "  puts nothing back" -- asked hyperv-scheduler ""
	check "%preun of an erase in a chroot (rpm --root): exit 0" -- exits 0 maint chroot sh "$preun" 0
	check "  puts nothing back" -- asked hyperv-scheduler ""
	check "%preun of an erase in a container: exit 0" -- exits 0 maint container sh "$preun" 0
	check "  puts nothing back" -- asked hyperv-scheduler ""
	helper_status=1
	check "%preun of an erase, the helper failing: exit 0" -- exits 0 maint host sh "$preun" 0
	check "  it was run" -- asked hyperv-scheduler "--undo"
	helper_status=0

	check "%post of an install (1): exit 0" -- exits 0 maint host sh "$post" 1
	check "  udevd reads the rule" -- asked udevadm "control --reload"
	check "  the disks there get the policy, their records naming the install" -- \
		asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
	check "  and it says nothing of its own" -- silent
	check "%post of an upgrade (2): exit 0" -- exits 0 maint host sh "$post" 2
	check "  the same" -- asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
	check "%post in a chroot (rpm --root): exit 0" -- exits 0 maint chroot sh "$post" 1
	check "  applies nothing" -- asked hyperv-scheduler ""
	check "  nor reloads udevd" -- asked udevadm ""
	check "%post in a container: exit 0" -- exits 0 maint container sh "$post" 1
	check "  applies nothing" -- asked hyperv-scheduler ""
	check "%post with no udevd: exit 0" -- exits 0 maint no-udevd sh "$post" 1
	check "  applies nothing" -- asked hyperv-scheduler ""
	helper_status=1
	check "%post, the helper failing: exit 0" -- exits 0 maint host sh "$post" 1
	check "  it was run" -- asked hyperv-scheduler "HYPERV_SCHEDULER_BY=install --all --quiet"
	helper_status=0
	check "%post on WSL2, first install: exit 0" -- exits 0 maint wsl sh "$post" 1
	check "  applies nothing" -- asked hyperv-scheduler ""
	check "  says when the disks get the policy" -- stdout_is "$wsl_line"
	check "%post on WSL2, an upgrade: exit 0" -- exits 0 maint wsl sh "$post" 2
	check "  says nothing" -- silent

	check "%postun of an erase (0): exit 0" -- exits 0 maint host sh "$postun" 0
	check "  udevd forgets the rule" -- asked udevadm "control --reload"
	check "%postun of an upgrade (1): exit 0" -- exits 0 maint host sh "$postun" 1
	check "  udevd not asked" -- asked udevadm ""
	check "%postun of an erase with no udevd: exit 0" -- exits 0 maint no-udevd sh "$postun" 0
	check "  udevd not asked" -- asked udevadm ""
fi

finish
