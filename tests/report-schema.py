#!/usr/bin/python3
"""The JSON report against report.schema.json.

report-schema.py [--strict] SCHEMA FILE...
                                  each FILE (a JSON report) is valid under SCHEMA; prints one
                                  line per error, "FILE: at PATH: MESSAGE", and exits 1 on any.
                                  --strict also refuses, at every level, a key SCHEMA does not
                                  define: SCHEMA allows them for the releases to come, but this
                                  tree's helper prints none, and a misspelt key is one.
report-schema.py --keys SCHEMA MAN  the keys SCHEMA defines are the keys the JSON REPORT
                                  section of the man page MAN (scdoc source) names, and back.
Validating exits 77, saying why, without python3-jsonschema (Debian's package), or with one older
than 4.0; --keys needs no more than python3.
"""
import json
import re
import sys


def schema_keys(schema):
    """Every property name, at any depth, and every value an enum or examples list names."""
    keys, values = set(), set()

    def walk(node):
        if isinstance(node, dict):
            keys.update(node.get("properties", {}))
            for v in node.get("enum", []) + node.get("examples", []):
                if isinstance(v, str):
                    values.add(v)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    return keys, values


def man_keys(path, keys, values):
    """The bold words of JSON REPORT that are keys, or no value, option, section or command
    line: a word both key and value (a key "changed" beside the action "changed") is a key."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^# JSON REPORT\n(.*?)^# ", text, re.S | re.M)
    if not m:
        sys.exit(f"{path}: no JSON REPORT section")
    words = set(re.findall(r"\*([^*\s]+)\*", m.group(1)))
    return {w for w in words
            if w in keys or w not in values and not w.startswith("-") and not w.endswith("=")
            and not w.isupper() and w not in ("true", "false", "null")}


def strict(node):
    """SCHEMA with "additionalProperties": false in each object that defines properties."""
    if isinstance(node, dict):
        node = {k: strict(v) for k, v in node.items()}
        if "properties" in node:
            node["additionalProperties"] = False
    elif isinstance(node, list):
        node = [strict(v) for v in node]
    return node


def main(argv):
    if argv[:1] == ["--keys"]:
        schema = json.load(open(argv[1]))
        keys, values = schema_keys(schema)
        documented = man_keys(argv[2], keys, values)
        ok = True
        for k in sorted(keys - documented):
            print(f"{argv[2]}: JSON REPORT does not name {k}, which {argv[1]} defines")
            ok = False
        for k in sorted(documented - keys):
            print(f"{argv[1]}: defines no {k}, which {argv[2]}'s JSON REPORT names")
            ok = False
        return 0 if ok else 1
    try:
        import jsonschema
    except ImportError:
        print("SKIP: no python3-jsonschema to validate the JSON reports with")
        return 77
    if not hasattr(jsonschema, "Draft202012Validator"):
        print("SKIP: this python3-jsonschema knows no JSON Schema 2020-12 (4.0 and later do)")
        return 77
    strict_keys = argv[:1] == ["--strict"]
    if strict_keys:
        argv = argv[1:]
    schema = json.load(open(argv[0]))
    jsonschema.Draft202012Validator.check_schema(schema)
    if strict_keys:
        schema = strict(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in argv[1:]:
        try:
            report = json.load(open(path, encoding="utf-8"))
        except ValueError as e:
            print(f"{path}: not JSON: {e}")
            bad += 1
            continue
        # Sorted, so that the order is the same whatever the version of jsonschema.
        errors = sorted(("/" + "/".join(str(p) for p in e.absolute_path), e.message)
                        for e in validator.iter_errors(report))
        for where, message in errors:
            print(f"{path}: at {where}: {message}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
