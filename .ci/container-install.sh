#!/bin/bash
# container-install DEB RPM: proves that the package scripts change no disk of the host from
# a chroot, DPKG_ROOT or a container, and that they still do on a system whose udev manages
# its devices (the control). As root on Debian 12 (CI=true installs what it needs).
#
#   DEB  the built .deb of this tree (its postinst is run, then its prerm on removal);
#   RPM  the built binary RPM (its %post, as `rpm -qp --qf '%{POSTIN}'` gives it, is run, then
#        its %preun as an erase runs it).
#
# The check: a loop device of this machine on mq-deadline, named in a config pre-seeded in a
# Debian 12 minbase tree with udev (mode = always, devices = loopN; dpkg keeps it with
# --force-confold), so the postinst would switch it to none if it ran the helper. Each case
# installs the .deb in a fresh overlay of the tree, then runs the RPM's %post in another over
# the unpacked .deb, and the loop must still be on mq-deadline, with no "cannot write" either.
# Then each removes the package (dpkg -r; the %preun with 0), which must touch the loop no
# more: where the install left no record of it, one is put in the case's /run that says the
# loop was none before, so that a --undo that ran would switch it. The control's removal puts
# the loop back on mq-deadline.
#
# Where a case is not a real container, it runs in this machine's initial PID namespace, with
# the tree's PID 1 stood in for: a process chrooted in the tree (or, for the chroot, left
# outside it) bound over the tree's /proc/1, the one thing a tree cannot have for real. A
# stand-in for udevd answers udevadm's ping and reload on /run/udev/control as udevd 252 does
# (tests/udevd-standin.py); "stale" is a socket file nobody listens on. Each case, with the
# sign that must stop it (the others look like a running system):
#   case                  shape                                      sign
#   control               PID 1 in the tree, udevd answers           none: the loop switches
#   chroot                PID 1 outside the tree                     / is not PID 1's root
#   DPKG_ROOT             dpkg --root --force-script-chrootless      DPKG_ROOT (the .deb only)
#   no socket             nothing at /run/udev/control               no socket
#   stale socket          a socket file, nothing listening           udevd does not answer
#   pidns-stale           unshare --pid --fork, PID 1 chroots        PID namespace (and stale)
#   pidns-udevd           the same, udevd answers                    PID namespace
#   pidns-pivot           the same, PID 1 pivot_roots (runc)         PID namespace
#   nspawn                systemd-nspawn, writable /sys              PID namespace, container=, ...
#   userns                a user namespace mapped to root            uid_map not the identity, PID ns
#   docker-wsl            container=docker, a WSL2 kernel release    container= (detect-virt says wsl)
#   wsl2                  a PID namespace, PID 1 "systemd" in the    PID namespace; prints the WSL2 line
#                         tree, a WSL2 kernel release, udevd answers
#   ro-sys                /sys read-only                             /sys not writable
# nspawn gets the socket bound in; where nspawn cannot run, that case says SKIP and why. A
# WSL2 distribution is a container to the kernel (its own PID namespace, the VM's devices), so
# its case must keep the loop too, and print the one line that says when the disks get the
# policy; every other case must not print it. The
# control, docker-wsl and wsl2 keep the tree's systemd-detect-virt; the others have none, as slim
# images do not. Each run prints what the payload saw (facts: the namespace, the root, the
# ping, /sys, systemd-detect-virt, uid_map), and the case checks it is the shape it stands for.
#
# The tree is mmdebstrap's, cached as a tarball in CHROOT_CACHE (default
# /var/cache/hyperv-scheduler-chroot, as .ci/chroot-tarball.sh; empty: none) and built again when
# a week old. Every mount is in a private mount namespace that ends with its case; the loop's
# scheduler is put back and the loop detached at exit (tests/lib.sh). Last line:
# 'package: container-install: …' with the counts and the time.
set -euo pipefail

[ $# = 2 ] || {
	echo "usage: $0 DEB RPM" >&2
	exit 2
}
deb=$(realpath "$1")
rpm=$(realpath "$2")
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=container-install prog="FAIL: container-install"
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
cache=${CHROOT_CACHE-/var/cache/hyperv-scheduler-chroot}
start=$SECONDS

[ "$(id -u)" = 0 ] || die "needs root (loop devices, mount namespaces, chroot)"
[ -f "$deb" ] || die "no $deb"
[ -f "$rpm" ] || die "no $rpm"
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		mmdebstrap systemd-container rpm python3 util-linux mount >/dev/null
fi

cases=0 failures=()
fail() {
	echo "FAIL: $1"
	failures+=("$1")
}

# The rule is the same in both: udev_manages_devices and wsl_distribution, word for word but for
# the indentation.
manages() {
	sed -n -e '/^udev_manages_devices() {$/,/^}$/p' -e '/^wsl_distribution() {$/,/^}$/p' |
		sed 's/^[[:space:]]*//'
}
dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./postinst | manages >"$work/rule.deb"
rpm -qp --qf '%{POSTIN}' "$rpm" >"$work/rpm-post"
rpm -qp --qf '%{PREUN}' "$rpm" >"$work/rpm-preun"
manages <"$work/rpm-post" >"$work/rule.rpm"
if [ ! -s "$work/rule.deb" ]; then
	fail "the postinst has no udev_manages_devices()"
elif ! diff -u "$work/rule.deb" "$work/rule.rpm"; then
	fail "the postinst and the RPM's %post differ in udev_manages_devices"
else
	echo "PASS: the postinst and the RPM's %post have the same udev_manages_devices and wsl_distribution ($(wc -l <"$work/rule.deb") lines)"
fi

# ---------------------------------------------------------------------------------------
# The tree: Debian 12 minbase with libudev1 (the package's dependency), systemd (whose
# systemd-detect-virt the slim cases remove) and udev (udevadm, which the scripts ping with).
tarball=$work/tree.tar
if [ -n "$cache" ]; then
	mkdir -p "$cache"
	tarball=$cache/container-bookworm+udev.tar
	find "$tarball" -mtime +6 -delete 2>/dev/null || true
fi
if [ ! -f "$tarball" ]; then
	# mmdebstrap takes the format from the name: .tar.
	new_tarball=${tarball%.tar}.$$.tar
	# shellcheck disable=SC2016 # apt's format, not the shell's
	mirror=${MIRROR:-$(apt-get indextargets --format '$(REPO_URI)' | grep -m1 '/debian/$' || true)}
	[ -n "$mirror" ] || die "no Debian archive in apt's sources here: set MIRROR"
	valid_until=
	eval "$(apt-config shell valid_until Acquire::Check-Valid-Until)"
	opts=()
	[ "$valid_until" != false ] || opts+=(--aptopt='Acquire::Check-Valid-Until "false"')
	# Root mode mounts /proc, /sys and /dev in the tree: in a private namespace.
	unshare -m --propagation private -- mmdebstrap --quiet --mode=root --variant=minbase \
		--include=libudev1,systemd,udev "${opts[@]}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		bookworm "$new_tarball" "$mirror" >"$work/mmdebstrap.log" 2>&1 ||
		{
			tail -n 20 "$work/mmdebstrap.log"
			rm -f "$new_tarball"
			die "mmdebstrap failed"
		}
	mv "$new_tarball" "$tarball"
fi
mkdir "$work/tree"
tar -C "$work/tree" -xf "$tarball"
mkdir "$work/tree/opt/hstest"
cp "$deb" "$work/tree/opt/hstest/pkg.deb"
cp "$work/rpm-post" "$work/tree/opt/hstest/rpm-post"
cp "$work/rpm-preun" "$work/tree/opt/hstest/rpm-preun"
# What runs in the container: facts about it, then the install (deb) or the %post (rpm).
cat >"$work/tree/opt/hstest/payload" <<'EOF'
set -e
sys=ro
[ ! -w /sys/block ] || sys=rw
virt=absent
if command -v systemd-detect-virt >/dev/null; then virt=$(systemd-detect-virt --container || true); fi
pidns=other
[ "$(stat -L -c %i /proc/self/ns/pid)" != 4026531836 ] || pidns=init
root=other
[ "$(stat -L -c %d:%i /)" != "$(stat -L -c %d:%i /proc/1/root 2>/dev/null)" ] || root=pid1
udevd=silent
! timeout 15 udevadm control --ping --timeout=10 >/dev/null 2>&1 || udevd=answers
echo "facts: pidns=$pidns root=$root udevd=$udevd sys=$sys detect-virt=$virt uid_map=$(tr -s ' \n' '  ' </proc/self/uid_map)"
case $1 in
deb) dpkg -i --force-confold /opt/hstest/pkg.deb ;;
rpm) sh /opt/hstest/rpm-post 1 ;;
dpkg-root)
	mkdir -p /opt/hstest/t2/var/lib/dpkg/info /opt/hstest/t2/var/lib/dpkg/updates
	: >/opt/hstest/t2/var/lib/dpkg/status
	PATH=/opt/hstest/t2/usr/sbin:$PATH dpkg --root=/opt/hstest/t2 --force-script-chrootless --force-depends \
		-i --force-confold /opt/hstest/pkg.deb ;;
esac
loop=$(cat /opt/hstest/loop)
sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$loop/queue/scheduler"; }
echo "after-install: $(sched)"
# A record that says the loop was on none: a --undo that runs would put it there.
rec=/run/hyperv-scheduler/$loop
if [ ! -e "$rec" ]; then
	mkdir -p -m 0755 /run/hyperv-scheduler
	{
		echo "name=$loop"
		[ ! -e "/sys/block/$loop/diskseq" ] || echo "diskseq=$(cat "/sys/block/$loop/diskseq")"
		echo "devpath=$(readlink -f "/sys/block/$loop" | sed 's|^/sys||')"
		echo "devnum=$(cat "/sys/block/$loop/dev")"
		echo "from=none"
		echo "to=$(sched)"
		echo "by=install"
		echo "at=0"
	} >"$rec"
	chmod 0644 "$rec"
fi
case $1 in
deb) dpkg -r hyperv-scheduler ;;
rpm) sh /opt/hstest/rpm-preun 0 ;;
dpkg-root)
	PATH=/opt/hstest/t2/usr/sbin:$PATH dpkg --root=/opt/hstest/t2 --force-script-chrootless --force-depends \
		-r hyperv-scheduler ;;
esac
echo "after-remove: $(sched)"
echo "payload: done"
EOF

# ---------------------------------------------------------------------------------------
loop=
make_loop loop
sched=/sys/block/$loop/queue/scheduler
grep -qw mq-deadline "$sched" || die "$loop offers no mq-deadline"
printf 'mode = always\ndevices = %s\n' "$loop" >"$work/tree/etc/hyperv-scheduler.conf"
echo "$loop" >"$work/tree/opt/hstest/loop"
printf '5.15.167.4-microsoft-standard-WSL2\n' >"$work/wsl-osrelease"
nspawn_ok=true nspawn_why=
if ! command -v systemd-nspawn >/dev/null; then
	nspawn_ok=false nspawn_why="no systemd-nspawn (package systemd-container)"
fi

# enter MODE PAYLOAD-ARG OPTION...: one run in a private mount namespace, over a fresh overlay
# of the tree. Modes: host (this machine's PID namespace, the stand-in PID 1 chrooted in the
# tree), chroot (the same, the stand-in outside the tree), pid (a PID namespace whose PID 1
# chroots into the tree), pivot (the same, with pivot_root in a mount namespace of its own),
# userns (pid inside a user namespace mapped to root), wsl (a PID namespace whose PID 1, a
# shell named systemd, is chrooted in the tree and runs the payload as its child, on the WSL2
# kernel release), nspawn. Options: udevd (the stand-in
# udevd at /run/udev/control), stale (a socket file there that nobody listens on), slim (no
# systemd-detect-virt), ro (read-only /sys), wsl (the WSL2 kernel release), docker
# (container=docker in PID 1's environment), unpack (the .deb's files unpacked, for the RPM).
enter() {
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private -- bash -euo pipefail -c '
		work=$1 top=$2 mode=$3 arg=$4
		shift 4
		opts=" $* "
		has() { [[ $opts == *" $1 "* ]]; }
		ovl=$work/ovl
		mkdir -p "$ovl"
		mount -t tmpfs tmpfs "$ovl"
		mkdir "$ovl/upper" "$ovl/work" "$ovl/root"
		mount -t overlay overlay -o "lowerdir=$work/tree,upperdir=$ovl/upper,workdir=$ovl/work" "$ovl/root"
		r=$ovl/root
		if has unpack; then
			# Not dpkg-deb -x, which would replace the merged-/usr links (/lib) with directories.
			dpkg-deb --fsys-tarfile "$r/opt/hstest/pkg.deb" | tar -C "$r" --keep-directory-symlink -xf -
			cp "$work/tree/etc/hyperv-scheduler.conf" "$r/etc/"
		fi
		! has slim || rm "$r/usr/bin/systemd-detect-virt"
		mount -t tmpfs tmpfs "$r/run"
		sockdir=$r/run/udev
		[ "$mode" != nspawn ] || sockdir=$ovl/udev
		mkdir -p "$sockdir"
		if has stale; then
			python3 -c "import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET).bind(sys.argv[1])" \
				"$sockdir/control"
		elif has udevd; then
			# Ends with this shell (whatever it execs into): SIGTERM at its exit.
			exec {standin}< <(exec setpriv --pdeathsig TERM python3 "$top/tests/udevd-standin.py" "$sockdir/control")
			read -r -t 30 -u "$standin" line && [ "$line" = ready ] || { echo "the stand-in udevd did not start"; exit 1; }
		fi
		env=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive)
		! has docker || env+=(container=docker)
		run=("${env[@]}" sh /opt/hstest/payload "$arg")
		if [ "$mode" = nspawn ]; then
			# nspawn keeps its locks in /run/systemd/nspawn: a private /run here.
			mount -t tmpfs tmpfs /run
			bind=()
			! has udevd && ! has stale || bind=(--bind="$sockdir:/run/udev")
			# PID 1 is the payload as nspawn starts it, with the environment nspawn gives it.
			exec env SYSTEMD_NSPAWN_API_VFS_WRITABLE=1 systemd-nspawn --quiet --pipe --register=no \
				--keep-unit --setenv=DEBIAN_FRONTEND=noninteractive "${bind[@]}" -D "$r" \
				sh /opt/hstest/payload "$arg"
		fi
		mount --bind /dev "$r/dev"
		mount --bind /sys "$r/sys"
		! has ro || mount -o remount,bind,ro "$r/sys"
		case $mode in
		host | chroot)
			mount -t proc proc "$r/proc"
			! has wsl || mount --bind "$work/wsl-osrelease" "$r/proc/sys/kernel/osrelease"
			# The stand-in PID 1, with the environment of the payload, says its PID once in
			# place, and ends with this shell.
			standin=(sh -c "echo \$\$ && exec sleep infinity")
			[ "$mode" = chroot ] || standin=(chroot "$r" "${standin[@]}")
			exec {pid1}< <(exec "${env[@]}" setpriv --pdeathsig KILL "${standin[@]}")
			read -r -t 30 -u "$pid1" pid1_pid || { echo "the stand-in PID 1 did not start"; exit 1; }
			mount --bind "/proc/$pid1_pid" "$r/proc/1"
			exec chroot "$r" "${run[@]}" ;;
		# PID 1 of a new PID namespace mounts its /proc and becomes the payload.
		pid) exec unshare --pid --fork -- sh -c \
			"mount -t proc proc \"\$0/proc\" && exec chroot \"\$0\" \"\$@\"" "$r" "${run[@]}" ;;
		# As runc starts a container: pivot_root, in a mount namespace of its own (umount reads
		# the mounts in /proc: mounted first).
		pivot) exec unshare --pid --fork --mount --propagation private -- sh -c \
			"mount -t proc proc \"\$0/proc\" && cd \"\$0\" && mkdir .old && pivot_root . .old &&
				umount -l /.old && rmdir /.old && exec \"\$@\"" "$r" "${run[@]}" ;;
		# As WSL starts a distribution with systemd: PID 1 of its own PID namespace is systemd.
		wsl) exec unshare --pid --fork -- sh -c \
			"mount -t proc proc \"\$0/proc\" && mount --bind \"\$1\" \"\$0/proc/sys/kernel/osrelease\" &&
				shift && exec chroot \"\$0\" sh -c '\''printf systemd >/proc/\$\$/comm; \"\$@\" & wait \$!'\'' sh \"\$@\"" \
			"$r" "$work/wsl-osrelease" "${run[@]}" ;;
		userns) exec unshare --user --map-root-user --mount --pid --fork -- sh -c \
			"mount -t proc proc \"\$0/proc\" && exec chroot \"\$0\" \"\$@\"" "$r" "${run[@]}" ;;
		esac
	' enter "$work" "$top" "$@"
}

# check_case NAME keep|change MODE OPTION...: the .deb, then the RPM's %post, in the case, each
# followed by its removal; where they must keep the disk, they must also run nothing that
# writes; where they change it (the control), the removal puts it back. DPKG_ROOT is the .deb's
# alone. With OLD=1 a case the old scripts got wrong is one that switched the loop.
check_case() {
	local name=$1 want=$2 how=$3 kind mode arg opts rc got installed removed
	shift 3
	for kind in deb rpm; do
		mode=$how arg=$kind opts=("$@")
		[ "$kind" = deb ] || opts+=(unpack)
		if [ "$how" = dpkg-root ]; then
			[ "$kind" = deb ] || continue
			mode=host arg=dpkg-root
		fi
		cases=$((cases + 1))
		echo mq-deadline >"$sched"
		rc=0
		enter "$mode" "$arg" "${opts[@]}" </dev/null >"$work/out" 2>&1 || rc=$?
		got=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
		installed=$(sed -n 's/^after-install: //p' "$work/out")
		removed=$(sed -n 's/^after-remove: //p' "$work/out")
		sed 's/^/    /' "$work/out"
		if [ "$rc" != 0 ] || ! grep -qx 'payload: done' "$work/out"; then
			fail "$name ($kind): the install or the removal failed ($rc)"
		elif ! grep -qx "facts: ${facts}" "$work/out"; then
			fail "$name ($kind): not the case it stands for: $(grep '^facts: ' "$work/out") (want $facts)"
		elif [ "$want" = change ] && [ "$installed" != none ]; then
			fail "$name ($kind): control: $loop stayed on $installed"
		elif [ "$want" = change ] && [ "$removed" != mq-deadline ]; then
			fail "$name ($kind): control: the removal left $loop on $removed"
		elif [ "$want" = keep ] && [ "$installed" != mq-deadline ]; then
			fail "$name ($kind): $loop changed to $installed"
		elif [ "$want" = keep ] && [ "$removed" != mq-deadline ]; then
			fail "$name ($kind): the removal changed $loop to $removed"
		elif [ "$want" = keep ] && [ "$got" != mq-deadline ]; then
			fail "$name ($kind): $loop changed to $got"
		elif [ "$want" = keep ] && grep -q 'cannot write\|undone' "$work/out"; then
			fail "$name ($kind): the helper ran: $(grep -m1 'cannot write\|undone' "$work/out")"
		elif [ -n "$note" ] && ! grep -qxF "$note" "$work/out"; then
			fail "$name ($kind): no line '$note'"
		elif [ -z "$note" ] && grep -q 'WSL2:' "$work/out"; then
			fail "$name ($kind): says $(grep -m1 'WSL2:' "$work/out")"
		else
			echo "PASS: $name ($kind): $loop $([ "$want" = keep ] && echo "stays on mq-deadline, removed too" || echo "changes to none, and back on removal")"
		fi
	done
}

# The line a WSL2 distribution with systemd prints at installation; no other case prints it.
wsl_line="hyperv-scheduler: WSL2: the disks get the policy when this distribution next starts; hyperv-scheduler --all applies it now"
note=
# Each case's facts: what the payload must see, so that the case is what it says it is: the
# PID namespace, / against PID 1's root, the ping, /sys, systemd-detect-virt, uid_map.
id_map=' 0 0 4294967295 '
host="pidns=init root=pid1 udevd=answers sys=rw"
facts="$host detect-virt=none uid_map=$id_map"
check_case "control: the running system, its udevd answering" change host udevd
facts="$host detect-virt=absent uid_map=$id_map"
check_case "DPKG_ROOT, scripts outside the tree" keep dpkg-root udevd slim
# udevadm control does nothing in a chroot and says it succeeded.
facts="pidns=init root=other udevd=answers sys=rw detect-virt=absent uid_map=$id_map"
check_case "chroot, PID 1 outside the tree" keep chroot udevd slim
facts="pidns=init root=pid1 udevd=silent sys=rw detect-virt=absent uid_map=$id_map"
check_case "no udev control socket" keep host slim
check_case "a socket file nobody listens on" keep host stale slim
facts="pidns=other root=pid1 udevd=silent sys=rw detect-virt=absent uid_map=$id_map"
check_case "a PID namespace, PID 1 chrooted, a socket file nobody listens on" keep pid stale slim
facts="pidns=other root=pid1 udevd=answers sys=rw detect-virt=absent uid_map=$id_map"
check_case "a PID namespace, PID 1 chrooted, a udevd answering" keep pid udevd slim
check_case "a PID namespace, PID 1 pivot_root'ed (runc), a udevd answering" keep pivot udevd slim
if $nspawn_ok && ! nspawn_err=$(enter nspawn true 2>&1); then
	nspawn_ok=false nspawn_why="systemd-nspawn refuses to run here: $(tail -n 1 <<<"$nspawn_err")"
fi
if $nspawn_ok; then
	facts="pidns=other root=pid1 udevd=answers sys=rw detect-virt=absent uid_map=$id_map"
	check_case "systemd-nspawn without systemd, writable /sys, a udevd answering" keep nspawn udevd slim
else
	echo "SKIP: container-install: systemd-nspawn: $nspawn_why"
fi
facts="pidns=other root=pid1 udevd=answers sys=rw detect-virt=absent uid_map= 0 0 1 "
check_case "a user namespace mapped to root" keep userns udevd slim
facts="$host detect-virt=wsl uid_map=$id_map"
check_case "container=docker on a WSL2 kernel" keep host udevd wsl docker
facts="pidns=init root=pid1 udevd=answers sys=ro detect-virt=absent uid_map=$id_map"
check_case "read-only /sys" keep host udevd slim ro
facts="pidns=other root=pid1 udevd=answers sys=rw detect-virt=wsl uid_map=$id_map"
note=$wsl_line
check_case "a WSL2 distribution: its own PID namespace, systemd its PID 1, a udevd answering" keep wsl udevd
note=

if [ ${#failures[@]} != 0 ]; then
	printf 'FAIL: container-install: %s\n' "${failures[@]}"
	exit 1
fi
echo "package: container-install: $cases runs of the .deb and the RPM's %post, the host's loop switched only by the control, same rule in both; $((SECONDS - start))s"
