#!/bin/bash
# The whole test suite: the Check unit tests, then every integration script, or only the
# scripts named (tests/run-tests.sh tests/integration/cli.sh ...). Prints one total line at the
# end; exits non-zero when anything failed. MEMCHECK=1 runs it all under valgrind.
set -u
cd "$(dirname "$0")/.." || exit

status=0
if [ "${MEMCHECK:-}" = 1 ]; then
	CK_FORK=no valgrind --quiet --error-exitcode=99 --leak-check=full tests/unit || status=1
else
	tests/unit || status=1
fi

p=0 f=0 s=0
results=$(mktemp)
[ $# -gt 0 ] || set -- tests/integration/*.sh
for t; do
	RESULTS=$results bash "$t" || status=1
	read -r tp tf ts <"$results" || {
		tp=0 tf=1 ts=0
		echo "FAIL: $t did not finish"
		status=1
	}
	p=$((p + tp)) f=$((f + tf)) s=$((s + ts))
	: >"$results"
done
rm -f "$results"
echo "integration: $p passed, $f failed, $s skipped"
exit $status
