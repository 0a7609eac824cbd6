#!/usr/bin/env python3
"""Checks the Markdown documents outside DocC (Docs/*.md, README.md, CHANGELOG.md): every
relative link names a file that exists, and every test a link to a test file lists in
backticks after it (`[File.swift](../Tests/…): `testName`, `otherTest``) is in that file.
Prints each problem and exits 1 if there is any."""
import glob
import os
import re
import sys

problems = []
for document in sorted(glob.glob("Docs/*.md")) + ["README.md", "CHANGELOG.md"]:
    folder = os.path.dirname(document)
    text = open(document, encoding="utf-8").read()
    for match in re.finditer(r"\]\(([^)#\s]+)(#[^)]*)?\)", text):
        target = match.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        if not os.path.exists(os.path.normpath(os.path.join(folder, target))):
            problems.append(f"{document}: link to {target}, which does not exist")
    for match in re.finditer(
        r"\]\(([^)\s]*Tests/[^)\s]+\.swift)\):((?:\s*`[A-Za-z0-9_]+`,?(?: and)?)+)", text
    ):
        path = os.path.normpath(os.path.join(folder, match.group(1)))
        if not os.path.exists(path):
            continue
        source = open(path, encoding="utf-8").read()
        for name in re.findall(r"`([A-Za-z0-9_]+)`", match.group(2)):
            if name not in source:
                problems.append(f"{document}: {name} is not in {match.group(1)}")

for problem in problems:
    print(problem)
print(f"document links: {len(problems)} problems")
sys.exit(1 if problems else 0)
