#!/usr/bin/python3
"""docs-links.py FILE...: every relative link in these Markdown files, [text](PATH#ANCHOR), names
a file of the tree and, with an anchor, a heading of that Markdown file, as GitHub makes its
anchors (lower case, punctuation but - and _ dropped, spaces as -). The documents link to each
other instead of saying a fact twice, so a heading renamed must not leave a link to nothing.
Prints each broken link as FILE:LINE: and exits 1 if there is one."""
import os
import re
import sys

HEADING = re.compile(r"^#+\s+(.*?)\s*$")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading):
    text = heading.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    with open(path) as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            m = None if fenced else HEADING.match(line)
            if m:
                found.add(anchor(m.group(1)))
    return found


def main(paths):
    bad = 0
    for path in paths:
        with open(path) as f:
            lines = f.read().split("\n")
        for n, line in enumerate(lines, 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                file, _, name = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                if not os.path.exists(dest):
                    print(f"{path}:{n}: {target}: no file {dest}")
                    bad = 1
                elif name and dest.endswith(".md") and name not in anchors(dest):
                    print(f"{path}:{n}: {target}: {dest} has no heading '#{name}'")
                    bad = 1
    if not bad:
        print(f"docs-links: {len(paths)} files, every link found")
    return bad


sys.exit(main(sys.argv[1:]))
