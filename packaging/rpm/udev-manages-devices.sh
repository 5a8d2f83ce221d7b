# shellcheck shell=sh
# Whether this root's udev manages this machine's devices, which only the
# running system's does. Elsewhere (a chroot, an image build, a container) the
# disks belong to the host or to the machine the image will boot on, and udev
# applies the policy when the system boots. The kernel and udevd answer it:
# - this is the initial PID namespace: the inode of /proc/self/ns/pid is
#   PROC_PID_INIT_INO, 0xEFFFFFFC (Linux include/linux/proc_ns.h, as systemd's
#   namespace_is_init() checks), which no other PID namespace has. Every
#   container runtime makes one (runc, nspawn, LXC, unshare --pid), whatever
#   it leaves in the tree or the environment;
# - / is PID 1's root (device and inode): not a chroot, nor a container that
#   shares the host's PID namespace;
# - this root's udevd answers on its control socket: udevadm control --ping
#   connects and waits for the reply, where a socket file can be one left in an
#   image or bound in from the host. In a chroot udevadm control succeeds
#   without asking: this comes after the root check. Its --timeout, and
#   timeout(1) whatever the udevadm version, bound the wait.
# The signs tested before these stay as vetoes, each what an older check relied
# on: a socket at /run/udev/control; PID 1's environment without container=
# (systemd's convention, set by nspawn, podman, LXC; unreadable counts as a
# container) and no /run/host/container-manager (nspawn), /.dockerenv
# (Docker) or /run/.containerenv (podman); the identity uid_map and a writable
# /sys, which a user namespace or a read-only /sys is not; systemd-detect-virt,
# where there is one, saying "none", or "wsl" for a WSL2 kernel.
# The source keeps this one copy, packaging/rpm/udev-manages-devices.sh; the
# package builds put it inline in the Debian postinst and prerm and the
# RPM's %post and %preun.
udev_manages_devices() {
	[ "$(stat -L -c %i /proc/self/ns/pid 2>/dev/null)" = 4026531836 ] || return 1
	root=$(stat -L -c %d:%i / 2>/dev/null) || return 1
	[ "$root" = "$(stat -L -c %d:%i /proc/1/root 2>/dev/null)" ] || return 1
	[ -S /run/udev/control ] || return 1
	[ -w /sys/block ] || return 1
	[ "$(tr -s ' \n' '  ' 2>/dev/null </proc/self/uid_map)" = " 0 0 4294967295 " ] || return 1
	for f in /run/host/container-manager /.dockerenv /run/.containerenv; do
		[ ! -e "$f" ] || return 1
	done
	pid1_env=$(tr '\0' '\n' 2>/dev/null </proc/1/environ) || return 1
	case $pid1_env in
	container=* | *"
container="*) return 1 ;;
	esac
	if command -v systemd-detect-virt >/dev/null 2>&1; then
		case $(systemd-detect-virt --container || true) in
		none | wsl) ;;
		*) return 1 ;;
		esac
	fi
	timeout 15 udevadm control --ping --timeout=10 >/dev/null 2>&1 || return 1
	return 0
}

# Whether this is a WSL2 distribution with systemd, where udev_manages_devices
# says no though this root's udevd manages the disks: WSL runs each
# distribution "as isolated containers inside of the WSL 2 managed VM", with
# "their own PID namespace" and the VM's device tree shared (Microsoft's About
# WSL), and systemd, with [boot] systemd=true, as PID 1 of that namespace. A
# Docker container on a WSL2 host has the same kernel and namespace shape, and
# Docker Desktop itself runs as a WSL distribution: nothing the kernel says
# tells them apart, so this applies nothing. It only says when the disks get
# the policy: systemd-udev-trigger's coldplug at the distribution's next start
# runs the rule for every disk. The signs: a WSL kernel (its release names
# microsoft: 5.15.167.4-microsoft-standard-WSL2), PID 1 of this namespace is
# systemd, / is its root, and its udevd's control socket is there.
wsl_distribution() {
	case $(cat /proc/sys/kernel/osrelease 2>/dev/null) in
	*[Mm]icrosoft*) ;;
	*) return 1 ;;
	esac
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || return 1
	root=$(stat -L -c %d:%i / 2>/dev/null) || return 1
	[ "$root" = "$(stat -L -c %d:%i /proc/1/root 2>/dev/null)" ] || return 1
	[ -S /run/udev/control ]
}
