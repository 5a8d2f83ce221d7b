#!/bin/sh
# rpmbuild.sh TOPDIR RPMBUILD-ARGS...: rpmbuild in TOPDIR (SOURCES/ holds the tarball; the spec's
# Source1, which lives beside the spec as rpmlint and fedpkg expect, is put there), with what
# the spec needs from the distro defined where this rpm lacks it: Fedora and RHEL define
# _udevrulesdir (systemd-rpm-macros) and _docdir_fmt (redhat-rpm-config: documentation in
# /usr/share/doc/NAME, not NAME-VERSION); Debian's rpm defines neither. After %install Fedora's
# rpm compresses man pages and strips the binary; Debian's runs the same scripts with /bin/sh,
# where brp-compress's bash-only `read -d` fails, so there they run with bash.
# Used by `make rpm` (packaging/build-package.sh) and CI (.ci/rpm.sh).
set -eu
topdir=$1
shift
set -- --define "_topdir $topdir" "$@"
cp "$(dirname "$0")/udev-manages-devices.sh" "$topdir/SOURCES/"
if [ -z "$(rpm --eval '%{?_udevrulesdir}')" ]; then
	set -- --define "_udevrulesdir /usr/lib/udev/rules.d" --define "_docdir_fmt %%{NAME}" \
		--define '__os_install_post bash /usr/lib/rpm/brp-compress; bash /usr/lib/rpm/brp-strip %{__strip}' "$@"
fi
exec rpmbuild "$@"
