#!/usr/bin/python3
"""docs-check.py [--update] SAMPLES FILE...: each sample of output in FILE against the run that
made it, SAMPLES/NAME (tests/docs-samples.sh).

A sample is marked by the line before it: in Markdown `<!-- make docs-check: NAME -->`, then an
indented block (4 spaces); in scdoc `; make docs-check: NAME`, then a ``` block. Prints a diff
and exits 1 when a document differs; --update writes the runs' output into the documents
instead. A marker naming no sample, or not followed by a block, is an error either way."""
import difflib
import os
import re
import sys

MARK = re.compile(r"^(?:<!-- make docs-check: (\S+) -->|; make docs-check: (\S+))$")


def splice(path, lines, samples):
    """The document with each marked block replaced by its sample; the names used."""
    out, used, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        m = MARK.match(line)
        if not m:
            continue
        name = m.group(1) or m.group(2)
        if name not in samples:
            sys.exit(f"{path}:{i}: no sample '{name}'")
        used.append(name)
        while i < len(lines) and lines[i] == "":
            out.append(lines[i])
            i += 1
        body = samples[name].rstrip("\n").split("\n")
        if m.group(1):
            start = i
            while i < len(lines) and (lines[i] == "" or lines[i].startswith("    ")):
                i += 1
            while i > start and lines[i - 1] == "":
                i -= 1
            if i == start:
                sys.exit(f"{path}:{start + 1}: no indented block after the marker '{name}'")
            out += [("    " + b) if b else "" for b in body]
        else:
            if i >= len(lines) or lines[i] != "```":
                sys.exit(f"{path}:{i + 1}: no ``` block after the marker '{name}'")
            end = lines.index("```", i + 1) if "```" in lines[i + 1:] else -1
            if end < 0:
                sys.exit(f"{path}:{i + 1}: the ``` block of '{name}' never ends")
            out += ["```"] + body + ["```"]
            i = end + 1
    return out, used


def main():
    args = sys.argv[1:]
    update = args[:1] == ["--update"]
    if update:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    sample_dir, paths = args[0], args[1:]
    samples = {}
    for name in os.listdir(sample_dir):
        with open(os.path.join(sample_dir, name)) as f:
            samples[name] = f.read()
    status, shown = 0, set()
    for path in paths:
        with open(path) as f:
            lines = f.read().split("\n")
        new, used = splice(path, lines, samples)
        shown.update(used)
        if new == lines:
            print(f"docs-check: {path}: {len(used)} samples as the run prints them")
            continue
        if update:
            with open(path, "w") as f:
                f.write("\n".join(new))
            print(f"docs-check: {path}: {len(used)} samples written")
        else:
            sys.stdout.writelines(difflib.unified_diff(
                [l + "\n" for l in lines], [l + "\n" for l in new], path, path + " (as run)"))
            print(f"docs-check: {path}: a sample differs from its run; make docs-update writes it")
            status = 1
    unused = sorted(set(samples) - shown)
    if unused:
        print(f"docs-check: samples no document shows: {' '.join(unused)}")
        status = 1
    return status


sys.exit(main())
