# The command line as a person meets it, on this machine, without root.
. "$(dirname "$0")/../lib.sh"

capture "$HELPER" --help
expect "--help prints the usage and exits 0" 0 "Usage: hyperv-scheduler [OPTIONS] DEVICE..."

# The README, --help and the man page describe the same options.
for opt in $(grep -o -- '--[a-z][a-z-]*' "$work/out" | sort -u); do
        grep -q -- "$opt" "$top/README.md" && grep -q -- "$opt" "$top/man/hyperv-scheduler.8.scd" &&
                pass "$opt is in --help, the README and the man page" ||
                fail "$opt is in --help, the README and the man page" "missing from one of them"
done

capture "$HELPER" --version
expect "--version prints the version from VERSION" 0 "hyperv-scheduler $(cat "$top/VERSION")"

[[ $(head -n 1 "$top/debian/changelog") == "hyperv-scheduler ($(cat "$top/VERSION"))"* ]] &&
        pass "the Debian changelog carries the version in VERSION" ||
        fail "the Debian changelog carries the version in VERSION" "$(head -n 1 "$top/debian/changelog")"

capture "$HELPER" --no-such-option
expect "an unknown option is a usage error" 2 "" "unrecognized option"

capture "$HELPER" --all sda
expect "--all with device names is a usage error" 2 "" "--all and device names exclude each other"

# Bad device names: exit 2, a message naming the input safely, and nothing looked up.
while IFS='|' read -r name arg why; do
        printf -v arg '%b' "$arg"
        capture "$HELPER" -c /dev/null "$arg"
        expect "invalid name $name" 2 "" "$why"
done <<'TABLE'
../../etc/passwd|../../etc/passwd|invalid device name '../../etc/passwd': a kernel name has no '/'
sda/../../x|sda/../../x|invalid device name 'sda/../../x': a kernel name has no '/'
/dev/../sda|/dev/../sda|invalid device name '/dev/../sda': path contains '.' or '..'
empty||invalid device name '': empty name
newline|sda\n|invalid device name 'sda\n': contains a space, a control character
space|sd a|invalid device name 'sd a': contains a space
control byte|sd\001a|invalid device name 'sd\x01a': contains a space, a control character
outside /dev and /sys|/etc/passwd|invalid device name '/etc/passwd': not a path under /dev or /sys
TABLE
long=$(printf 'a%.0s' $(seq 300))
capture "$HELPER" "$long"
expect "invalid name of 300 characters" 2 "" "longer than a kernel name can be"

capture "$HELPER" -c /dev/null /dev/null
expect "a character device is not a block device" 2 "" "cannot find block device '/dev/null': not a block device"

capture "$HELPER" -c /dev/null nosuchdisk0
expect "a disk that does not exist, named by a person, exits 2" 2 "" \
        "cannot find block device 'nosuchdisk0': No such device"

ACTION=add capture "$HELPER" -c /dev/null nosuchdisk0
expect "under udev a disk that does not exist is no failure" 0
[ -z "$out$err" ] && pass "under udev, nothing is printed for a vanished disk" ||
        fail "under udev, nothing is printed for a vanished disk" "got: $out$err"

capture "$HELPER" -c /dev/null
expect "no arguments reports on every disk here, changing nothing" 0 "Not Hyper-V"
if grep -q 'hyperv-guest\|would-change\|changed' "$work/out"; then
        fail "this machine is not reported as Hyper-V" "$out"
else
        pass "this machine is not reported as Hyper-V"
fi

# Which verdict depends on the machine (valgrind even hides the hypervisor bit); never a guest.
capture "$HELPER" -c /dev/null --dry-run --json
expect "--json reports a verdict" 0 '"verdict": "'
[[ "$out" != *'"verdict": "hyperv-guest"'* ]] && pass "--json does not call this machine a Hyper-V guest" ||
        fail "--json does not call this machine a Hyper-V guest" "$out"
if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["devices"] and all(x["reason"]=="not-hyperv" for x in d["devices"])' <"$work/out"; then
        pass "--json parses and every disk here is left alone as not-hyperv"
else
        fail "--json parses and every disk here is left alone as not-hyperv" "$out"
fi

capture "$HELPER" -c "$work/missing.conf" --dry-run
expect "a config named with -c but absent is a warning, defaults apply" 0 "(not found, defaults)" \
        "cannot open '$work/missing.conf': No such file or directory, defaults apply"

printf 'mode = sometimes\nfrobnicate = yes\nscheduler = mq-deadline\n' >"$work/bad.conf"
capture "$HELPER" -c "$work/bad.conf" --dry-run
expect "bad config lines are reported with file and line, the rest applies" 0 \
        "schedulers mq-deadline" "$work/bad.conf:1: bad value 'sometimes' for 'mode'"
expect "an unknown key names the key and its line" 0 "" "$work/bad.conf:2: unknown key 'frobnicate'"

finish
