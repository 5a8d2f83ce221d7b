#!/bin/bash
# readme-image: the README's two image builder commands, exactly as the README writes them, as
# root on this machine (Debian 12), in a copy of the files git tracks, as a clone has them. Each
# command is the first indented line after the README's marker
# `<!-- .ci/readme-image.sh NAME: ... -->`; a marker missing, twice, or not followed by an
# indented line fails the run. In order:
#   deb    build the .deb for Debian 13 in a trixie build chroot (mmdebstrap), into build/trixie
#   image  install it into a trixie image tree, packed as image.tar
# Passes when both exit 0 and: build/trixie holds one hyperv-scheduler .deb, built for Debian 13
# (its rule in /usr/lib/udev, where Debian 12's goes to /lib/udev), depending on libudev1; the
# image holds the helper, the rule and the config, dpkg's status there says installed, and the
# image holds no record in /run/hyperv-scheduler (the postinst changed no disk there).
#
# Needs root (mmdebstrap's root mode) and the network (the Debian archive). Installing into a
# tree touches no disk of the builder: a loop device of this run's, switched to mq-deadline
# before the commands, must still be on it after; it gets its scheduler back and is detached at
# exit. mmdebstrap's temporary directories go into the work directory, which goes at exit.
# (mmdebstrap 1.3.5's root mode mounts /sys read-only in its chroots: nothing there can write a
# scheduler, which the sentinel would catch too.)
set -euo pipefail

# The work directory in /var/tmp: it holds the checkout, the chroots and the image.
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=readme-image lib_tmp=/var/tmp prog=readme-image
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
rule=./usr/lib/udev/rules.d/60-$pkg.rules
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap's root mode, a loop device)"
command -v mmdebstrap >/dev/null || die "needs mmdebstrap; as root: apt-get install -y mmdebstrap"

steps=(deb image)
cmds=()
for step in "${steps[@]}"; do
	cmd=$(readme_command ".ci/readme-image.sh $step") || die "README.md: no $step command"
	cmds+=("$cmd")
	printf 'README %-6s %s\n' "$step:" "$cmd"
done

# What a clone of the repository holds: the files git tracks.
checkout=$work/checkout
mkdir "$checkout"
git -C "$top" ls-files -z |
	while IFS= read -r -d '' f; do [ ! -e "$top/$f" ] || printf '%s\0' "$f"; done |
	tar -C "$top" --null -T - -cf - | tar -C "$checkout" -xf -
# Open to all: mmdebstrap's apt downloads as _apt into mmdebstrap's temporary directory, here.
chmod 0755 "$work"
export TMPDIR=$work

ok() { echo "readme-image: ok: $*"; }

loop=
make_loop loop
sched=/sys/block/$loop/queue/scheduler
grep -qw mq-deadline "$sched" || die "$loop offers no mq-deadline"
echo mq-deadline >"$sched"

for i in "${!steps[@]}"; do
	step=${steps[$i]} t0=$SECONDS rc=0
	echo "+ ${cmds[$i]}"
	(cd "$checkout" && eval "${cmds[$i]}") >"$work/$step.log" 2>&1 </dev/null || rc=$?
	grep -E '^(E|W): |^I: running|^I: success|^make deb:' "$work/$step.log" || true
	if [ "$rc" != 0 ]; then
		tail -n 30 "$work/$step.log"
		die "the README's $step command failed (exit $rc) after $((SECONDS - t0)) s"
	fi
	ok "the README's $step command, in $((SECONDS - t0)) s"
done

grep -q '\[mq-deadline\]' "$sched" ||
	die "the sentinel $loop is at '$(cat "$sched")' after the commands, not mq-deadline:" \
		"they changed a disk of this machine"
ok "the sentinel $loop is still on mq-deadline"

cd "$checkout"
mapfile -t debs < <(find build/trixie -maxdepth 1 -name "${pkg}_*.deb")
[ ${#debs[@]} = 1 ] || die "build/trixie holds ${#debs[@]} ${pkg}_*.deb, not one: ${debs[*]}"
deb=${debs[0]}
ok "one package built: $deb"
contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
grep -qxF "$rule" <<<"$contents" ||
	die "$deb has no $rule: not built for Debian 13 (its rule: $(grep rules.d/. <<<"$contents" || echo none))"
ok "$deb puts its rule in /usr/lib/udev, as Debian 13's udev reads it"
depends=$(dpkg-deb -f "$deb" Depends)
names_libudev1='(^|[ ,])libudev1([ ,(]|$)'
[[ $depends =~ $names_libudev1 ]] || die "$deb: Depends names no libudev1: $depends"
ok "$deb depends on libudev1: $depends"

[ -f image.tar ] || die "the image command made no image.tar"
tar -tf image.tar >"$work/image.list" || die "cannot list image.tar"
for f in ./usr/sbin/$pkg "$rule" ./etc/$pkg.conf; do
	grep -qxF "$f" "$work/image.list" || die "image.tar has no $f"
done
ok "image.tar holds ./usr/sbin/$pkg, $rule, ./etc/$pkg.conf"
tar -xOf image.tar ./var/lib/dpkg/status >"$work/status" || die "image.tar has no dpkg status"
status=$(awk -v p="$pkg" '
	$1 == "Package:" { here = $2 == p }
	here && $1 == "Status:" { sub(/^Status: /, ""); print }' "$work/status")
[ "$status" = "install ok installed" ] ||
	die "dpkg in the image says of $pkg: '${status:-nothing}', not 'install ok installed'"
ok "dpkg in the image: $pkg $status"
! grep -q "^\./run/$pkg/" "$work/image.list" ||
	die "image.tar holds ./run/$pkg/: the postinst wrote a record there"
ok "image.tar holds no ./run/$pkg/ record"
