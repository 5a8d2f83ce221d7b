# shellcheck shell=bash
# report.schema.json: the unit tests' JSON reports are valid under it, with no key it does not
# define (the integration scripts' own reports are checked so by each script's finish,
# tests/check.sh), a report with a key missing or misspelt is not, one with a key added at each
# level is (a later release's, hyperv-scheduler(8) JSON REPORT), and that section names the
# keys the schema defines.
# shellcheck source=tests/check.sh
. "$(dirname "$0")/../check.sh"

schema=$top/report.schema.json
man=$top/man/hyperv-scheduler.8.scd

# schema_case NAME CMD...: CMD (schema_valid, or a negation of it) as a case; SKIP where
# python3-jsonschema is missing outside CI.
schema_case() {
	local name=$1 why
	shift
	why=$("$@")
	case $? in
	0) pass "$name" ;;
	77) skip "$name" "${why#SKIP: }" ;;
	*)
		fail "$name" "$why"
		[ "${FAIL_FAST:-}" != 1 ] || exit 1
		;;
	esac
}

# invalid FILE WANT: FILE is not valid under --strict, and the validator says WANT, whole.
invalid() {
	local got
	got=$(schema_valid --strict "$1")
	case $? in
	0)
		echo "$1 is valid"
		return 1
		;;
	77)
		echo "$got"
		return 77
		;;
	esac
	is "what the validator says" "$got" "$2"
}

# doctor IN OUT PYTHON: the report IN with the statement PYTHON applied to it, `d`, as OUT.
doctor() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))' "$@"
}

mkdir -p "$work/unit"
check "the unit tests' reports: exit 0" -- exits 0 env HYPERV_SCHEDULER_TEST_JSON_DIR="$work/unit" \
	CK_RUN_SUITE=report CK_VERBOSITY=silent "$top/tests/unit"
set -- "$work/unit"/*.json
check "  they wrote some" -- test -f "$1"
schema_case "  each is valid under report.schema.json, with no other key" schema_valid --strict "$@"

mkdir -p "$work/fuzz"
shopt -s nullglob
seeds=("$top"/tests/fuzz/corpus/json/* "$top"/tests/fuzz/regressions/json/*)
shopt -u nullglob
check "the JSON writer's fuzz seeds replayed: exit 0" -- exits 0 env \
	HYPERV_SCHEDULER_TEST_JSON_DIR="$work/fuzz" "$top/tests/fuzz-json-replay" "${seeds[@]}"
check "  a report for each" -- is "reports" "$(find "$work/fuzz" -name '*.json' | wc -l)" "${#seeds[@]}"
schema_case "  each is valid under report.schema.json, with no other key" schema_valid --strict \
	"$work/fuzz"/*.json

# One with devices.
sample=$(grep -l '"name": "sda"' "$@" | head -n 1)
doctor "$sample" "$work/missing.json" 'del d["devices"][0]["queues_why"]'
schema_case "a device without queues_why is not valid" invalid "$work/missing.json" \
	"$work/missing.json: at /devices/0: 'queues_why' is a required property"
doctor "$sample" "$work/misspelt.json" 'd["policy"]["config_fund"] = d["policy"].pop("config_found")'
schema_case "a misspelt policy key is not valid" invalid "$work/misspelt.json" \
	"$work/misspelt.json: at /policy: 'config_found' is a required property
$work/misspelt.json: at /policy: Additional properties are not allowed ('config_fund' was unexpected)"
doctor "$sample" "$work/top.json" 'del d["schema_version"]'
schema_case "a report without schema_version is not valid" invalid "$work/top.json" \
	"$work/top.json: at /: 'schema_version' is a required property"
doctor "$sample" "$work/next.json" 'd["schema_version"] = 2'
schema_case "a report of schema_version 2 is not valid" invalid "$work/next.json" \
	"$work/next.json: at /schema_version: 1 was expected"
doctor "$sample" "$work/action.json" 'd["devices"][0]["action"] = "changes"'
schema_case "an action of no name is not valid" invalid "$work/action.json" \
	"$work/action.json: at /devices/0/action: 'changes' is not one of ['changed', 'would-change', 'already', 'skipped', 'failed']"

# A later release's report: a key added at each level of the JSON REPORT, where a record and
# --check give the levels that sample lacks.
doctor "$sample" "$work/added.json" '
d["devices"][0]["changed"] = {"from": "mq-deadline", "to": "none", "at": "2026-12-04T18:43:11Z",
                              "by": "udev"}
d["check"] = {"ok": True, "failing": []}
for o in (d, d["machine"], d["policy"], d["devices"][0], d["devices"][0]["changed"], d["check"]):
    o["added"] = 1'
schema_case "a report with a key added at each level is valid under report.schema.json" \
	schema_valid "$work/added.json"
extra="Additional properties are not allowed ('added' was unexpected)"
schema_case "  not with --strict, which names each" invalid "$work/added.json" \
	"$work/added.json: at /: $extra
$work/added.json: at /check: $extra
$work/added.json: at /devices/0: $extra
$work/added.json: at /devices/0/changed: {'from': 'mq-deadline', 'to': 'none', 'at': '2026-12-04T18:43:11Z', 'by': 'udev', 'added': 1} is not valid under any of the given schemas
$work/added.json: at /machine: $extra
$work/added.json: at /policy: $extra"

check "hyperv-scheduler(8)'s JSON REPORT names the schema's keys, and no other" -- \
	exits 0 report_schema --keys "$schema" "$man"
sed 's/^- \*schema_version\*:/- schema_version:/' "$man" >"$work/man.scd"
check "  a JSON REPORT that lacks a key fails it" -- exits 1 report_schema --keys "$schema" "$work/man.scd"
check "    naming it" -- stdout_is "$work/man.scd: JSON REPORT does not name schema_version, which $schema defines"

finish
