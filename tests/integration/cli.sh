# shellcheck shell=bash
# The command line as a person meets it, on this machine, without root. Nothing here depends
# on what kind of machine this is: the report on this machine's disks is compared with what
# systemd-detect-virt says the machine is.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

first_line() { is "the first line" "${out%%$'\n'*}" "$1"; }

check "--help exits 0" -- exits 0 "$HELPER" --help
check "--help starts with the usage" -- \
	first_line "Usage: hyperv-scheduler [OPTIONS] DEVICE...  set the scheduler of these disks"

# --help and the man page describe the same options. The README leaves the details to the man
# page, but every option it gives hyperv-scheduler must be one --help lists.
help=$out
in_man() { grep -q -- "$1" "$top/man/hyperv-scheduler.8.scd" || {
	echo "the man page lacks $1"
	return 1
}; }
in_help() { grep -qE -- "(^|[ ,])$1([ ,]|$)" <<<"$help" || {
	echo "--help lacks $1"
	return 1
}; }
while read -r opt; do
	check "$opt is in --help and the man page" -- in_man "$opt"
done < <(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u)
while read -r opt; do
	check "the README's hyperv-scheduler $opt is in --help" -- in_help "$opt"
done < <(grep -oE -- 'hyperv-scheduler( +-[-a-zA-Z]+)+' "$top/README.md" | grep -oE -- ' -[-a-zA-Z]+' | sort -u)

# The kernel version the detection rules were read in is named, in the man page and in
# src/hyperv.h alike; no version is claimed that was not read.
check "the man page names the kernel source read" -- in_man "Linux 6.12.118"
check "src/hyperv.h names it too" -- has "src/hyperv.h" "$(cat "$top/src/hyperv.h")" "Linux 6.12.118"
check "no claim of Linux 6.19, which was not read" -- is "files saying Linux 6.19" \
	"$(grep -l 'Linux 6\.19' "$top"/src/*.[ch] "$top"/man/*.scd "$top/README.md" | wc -l)" 0

check "--version exits 0" -- exits 0 "$HELPER" --version
check "--version prints the version in VERSION" -- stdout_is "hyperv-scheduler $(cat "$top/VERSION")"
# The release tarball has no debian/ (the Debian source package carries it beside).
if [ -f "$top/debian/changelog" ]; then
	check "the Debian changelog's upstream version is the one in VERSION" -- \
		has "debian/changelog" "$(head -n 1 "$top/debian/changelog" | sed 's/-[0-9][^)]*)/)/')" \
		"hyperv-scheduler ($(cat "$top/VERSION"))"
else
	skip "the Debian changelog's upstream version is the one in VERSION" "no debian/ in this tree (a release tarball)"
fi

# getopt's own message names the program as it was called.
check "an unknown option is a usage error" -- exits 2 "$HELPER" --no-such-option
check "  getopt names the option" -- stderr_is "$HELPER_BIN: unrecognized option '--no-such-option'"

check "--all with device names is a usage error" -- exits 2 "$HELPER" --all sda
check "  and says so" -- stderr_is "hyperv-scheduler: --all and device names exclude each other"

# --undo puts back records of changes: no run that writes or reports goes with it.
for opt in --all --json --udev --check; do
	check "--undo with $opt is a usage error" -- exits 2 "$HELPER" --undo "$opt"
	check "  and says so" -- stderr_is "hyperv-scheduler: --undo and $opt exclude each other"
done

# Bad device names: exit 2, one message naming the input safely, and nothing looked up.
while IFS='|' read -r name arg why; do
	printf -v arg '%b' "$arg"
	check "invalid name $name exits 2" -- exits 2 "$HELPER" -c /dev/null "$arg"
	check "  with the message" -- stderr_is "hyperv-scheduler: cannot use $why"
done <<'TABLE'
../../etc/passwd|../../etc/passwd|'../../etc/passwd': a kernel name has no '/'; give /dev/NAME or a /sys path
sda/../../x|sda/../../x|'sda/../../x': a kernel name has no '/'; give /dev/NAME or a /sys path
/dev/../sda|/dev/../sda|'/dev/../sda': path contains '.' or '..'
empty||'': empty name
newline|sda\n|'sda\n': contains a space, a control character or a non-ASCII byte
space|sd a|'sd a': contains a space, a control character or a non-ASCII byte
control byte|sd\001a|'sd\x01a': contains a space, a control character or a non-ASCII byte
outside /dev and /sys|/etc/passwd|'/etc/passwd': not a path under /dev or /sys
TABLE
long=$(printf 'a%.0s' $(seq 300))
check "invalid name of 300 characters exits 2" -- exits 2 "$HELPER" "$long"
check "  and says it is too long, the name cut at 92 bytes" -- \
	stderr_is "hyperv-scheduler: cannot use '${long:0:92}...': longer than a kernel name can be (31)"

check "a character device is not a block device" -- exits 2 "$HELPER" -c /dev/null /dev/null
check "  and says so" -- stderr_is "hyperv-scheduler: cannot find '/dev/null': not a block device"

check "a disk that does not exist, named by a person, exits 2" -- exits 2 "$HELPER" -c /dev/null nosuchdisk0
check "  and says so" -- stderr_is "hyperv-scheduler: cannot find 'nosuchdisk0': No such device"

# The report on this machine's own disks, whatever they are (none, in a build chroot).
check "no arguments reports on every disk here and exits 0" -- exits 0 "$HELPER" -c /dev/null
check "--dry-run --json exits 0" -- exits 0 "$HELPER" -c /dev/null --dry-run --json
check "--dry-run --json parses, with a list of devices" -- json_is "type(d['devices']).__name__" list
verdict=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["machine"]["verdict"])' 2>/dev/null)
if [ "$verdict" != hyperv-guest ]; then
	check "no disk of a machine that is not a Hyper-V guest would change" -- \
		json_is "[x['name'] for x in d['devices'] if x['action'] in ('would-change', 'changed')]" "[]"
fi
# valgrind's CPU hides the hypervisor bit, so under it the helper sees no hypervisor at all.
if [ "${MEMCHECK:-}" = 1 ]; then
	skip "the verdict agrees with systemd-detect-virt" "valgrind hides the hypervisor"
elif ! command -v systemd-detect-virt >/dev/null; then
	skip "the verdict agrees with systemd-detect-virt" "systemd-detect-virt is missing"
else
	# It calls a Hyper-V root or L1VH partition "none", as it does bare metal: only a VM it
	# names says whether this is Hyper-V.
	virt=$(systemd-detect-virt --vm) || true
	case $verdict in hyperv-*) hyperv=Hyper-V ;; *) hyperv="not Hyper-V" ;; esac
	case $virt in
	none | '') skip "the verdict agrees with systemd-detect-virt" "it says '$virt': bare metal or a Hyper-V host" ;;
	microsoft) check "the verdict ($verdict) agrees with systemd-detect-virt --vm ($virt)" -- is "the verdict" "$hyperv" Hyper-V ;;
	*) check "the verdict ($verdict) agrees with systemd-detect-virt --vm ($virt)" -- is "the verdict" "$hyperv" "not Hyper-V" ;;
	esac
fi

check "a config named with -c but absent is a warning, defaults apply" -- \
	exits 0 "$HELPER" -c "$work/missing.conf" --dry-run
check "  with the message" -- \
	stderr_is "hyperv-scheduler: cannot open '$work/missing.conf': No such file or directory, defaults apply"
check "  and the report says so" -- stdout_has "config $work/missing.conf (not found, defaults)"

bad=$(config "mode = sometimes" "frobnicate = yes" "scheduler = mq-deadline")
check "bad config lines are reported, the rest applies" -- exits 0 "$HELPER" -c "$bad" --dry-run
check "  each with file and line" -- stderr_is "hyperv-scheduler: $bad:1: bad value 'sometimes' for 'mode': expected auto, always or off
hyperv-scheduler: $bad:2: unknown key 'frobnicate'
hyperv-scheduler: $bad:3: bad value 'mq-deadline' for 'scheduler': expected none, noop, or both in either order"
check "  and the defaults apply" -- stdout_has "Policy: mode auto, schedulers none noop, config"

finish
