#!/bin/bash
# CI for the RPM, on Debian 12 as root: builds packaging/rpm/hyperv-scheduler.spec from the
# `make dist` tarball with Debian's rpm (`rpmbuild --nodeps`: the build dependencies are
# Debian's packages, not RPMs; %check runs the suite against them), checks that the RPM holds
# the files `make install` installs with the same modes, the config as %config(noreplace), and
# runs rpmlint on the spec, the source and the binary RPM. rpmlint must report 0 errors, but
# for the ones that exist only because this is Debian, each filtered with its reason in
# packaging/rpm/rpmlint.toml. The RPM is not installed: there is no RPM distro here.
# With an OUTDIR argument the binary RPM is left there (for .ci/container-install.sh).
# RPM_NOCHECK=1 builds with --nocheck (.ci/run: %check is `make check` as root on this same
# machine, which its fast tier has just run); the spec's %check must still be there.
set -euo pipefail
outdir=${1:-}
# shellcheck disable=SC2034 # read by tests/lib.sh
lib_name=rpm prog=FAIL
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../tests/lib.sh"
pkg=hyperv-scheduler
version=$(cat "$top/VERSION")
spec=$top/packaging/rpm/$pkg.spec

section() { printf '\n=== %s\n' "$*"; }

start=$SECONDS
if [ "${CI:-}" = true ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends rpm rpm2cpio cpio rpmlint \
		build-essential pkgconf libudev-dev check scdoc udev python3 python3-jsonschema >/dev/null
fi
[ "$(sed -n 's/^Version: *//p' "$spec")" = "$version" ] || die "the spec's Version is not VERSION ($version)"

# The suite runs the helper as nobody on files of the build tree: it must be readable.
chmod 0755 "$work"
mkdir -p "$work/SOURCES"
make -s -C "$top" dist DIST_TARBALL="$work/SOURCES/$pkg-$version.tar.gz" >/dev/null

checked="with %check"
nocheck=()
if [ "${RPM_NOCHECK:-}" = 1 ]; then
	grep -qx '%check' "$spec" || die "the spec has no %check"
	checked="without %check (RPM_NOCHECK=1)" nocheck=(--nocheck)
fi
section "rpmbuild -bs, -bb --nodeps, $checked"
t=$SECONDS
rpmbuild=("$top/packaging/rpm/rpmbuild.sh" "$work")
"${rpmbuild[@]}" -bs "$spec" >/dev/null
"${rpmbuild[@]}" -bb --nodeps "${nocheck[@]}" "$spec" 2>&1 | tee "$work/build.log"
if [ ${#nocheck[@]} = 0 ]; then
	grep -Eq '^100%: Checks: [0-9]+, Failures: 0, Errors: 0$' "$work/build.log" || die "%check ran no unit tests"
	grep -Eq '^integration: [0-9]+ passed, 0 failed' "$work/build.log" || die "%check ran no integration tests"
fi
build_time=$((SECONDS - t))
rpm=$(find "$work/RPMS" -name "$pkg-$version-*.rpm" ! -name '*-debug*')
srpm=$(find "$work/SRPMS" -name "$pkg-$version-*.src.rpm")
{ [ -f "$rpm" ] && [ -f "$srpm" ]; } || die "no RPM built"

section "the RPM installs what make install installs"
package_list "$rpm" >"$work/in-rpm"
mkdir "$work/mi"
tar -C "$work/mi" -xzf "$work/SOURCES/$pkg-$version.tar.gz"
install_list "$work/mi/$pkg-$version" "$work/destdir" PREFIX=/usr UDEVDIR=/usr/lib/udev \
	>"$work/in-destdir"
diff -u "$work/in-destdir" "$work/in-rpm" || die "make install and the RPM differ"
[ "$(rpm -qp --configfiles "$rpm")" = /etc/hyperv-scheduler.conf ] || die "the config is not %config"
rpm -qp --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' "$rpm" >"$work/flags"
grep -qx 'cn /etc/hyperv-scheduler.conf' "$work/flags" ||
	die "the config is not %config(noreplace)"
rpm2cpio "$rpm" | (cd "$work" && cpio -id --quiet ./usr/lib/udev/rules.d/60-hyperv-scheduler.rules)
grep -q 'RUN+="/usr/sbin/hyperv-scheduler ' "$work/usr/lib/udev/rules.d/60-hyperv-scheduler.rules" ||
	die "the packaged rule does not run /usr/sbin/hyperv-scheduler"
rpm -qlp "$rpm" >"$work/list"
for doc in /usr/share/licenses/$pkg/LICENSE /usr/share/doc/$pkg/README.md; do
	grep -qx "$doc" "$work/list" || die "the RPM lacks $doc"
done
rpm -qp --scripts "$rpm" >"$work/scripts"
grep -q 'hyperv-scheduler --all --quiet' "$work/scripts" || die "no %post applying the policy"
echo "same $(wc -l <"$work/in-rpm") files and modes; config %config(noreplace); rule runs /usr/sbin/hyperv-scheduler"

section "rpmlint $(rpmlint --version)"
status=0
rpmlint -c "$top/packaging/rpm/rpmlint.toml" "$spec" "$srpm" "$rpm" | tee "$work/rpmlint" || status=$?
summary=$(grep -Eo '[0-9]+ packages and [0-9]+ specfiles checked; [0-9]+ errors, [0-9]+ warnings' "$work/rpmlint" || true)
[ "$status" = 0 ] || die "rpmlint: $summary"
if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	cp "$rpm" "$outdir/"
fi
echo "package: rpm: built $checked, $(wc -l <"$work/in-rpm") files as make install, rpmlint: $summary; build ${build_time}s, total $((SECONDS - start))s"
