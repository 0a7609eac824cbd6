#!/usr/bin/env python3
"""Fails when the Swift code of a DocC article differs from the test code that runs it.

The convention, for every article (Sources/*/*.docc/*.md and Interop/*/*.docc/*.md):

- The line right before each ```swift block names where its code lives in the tests:

      <!-- test: Tests/ArborealTests/Docs/DocsEffectsTests.swift search -->

  The block must equal that file's region `search`. Several names join their regions in
  order, one blank line apart: declarations at file scope, then statements in a test.
- A region is the lines between `// article begins: NAME` and `// article ends: NAME` in
  the test file, with the markers' indentation removed. Names have no spaces.
- `import` lines at the top of a block are not in a region: the test file must import
  the same modules (it may import more).
- A Swift block whose code cannot run in the tests says why instead:

      <!-- test: exempt, SwiftUI views do not build on Linux -->

- Blocks that are not ```swift (shell commands, output) are not checked.
- Every region of a test file that articles use must be shown by some article, so that
  no test keeps code an article no longer has.

Usage: .ci/check-article-code.py [REPOSITORY_ROOT]. Prints each problem as
`path:line: error: ...` (with a diff for a mismatch) and exits 1 if there is one.
"""

import difflib
import glob
import os
import re
import sys

MARKER = re.compile(r"^<!-- test: (.*) -->$")
BEGIN = re.compile(r"^(\s*)// article begins: (.*)$")
END = re.compile(r"^\s*// article ends: (.*)$")
IMPORT = re.compile(r"^import (\w+)$")


def regions_of(path, problems):
    """The regions of a test file by name, and the modules it imports."""
    regions, imports, open_region = {}, set(), None
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    for number, line in enumerate(lines, 1):
        if match := IMPORT.match(line):
            imports.add(match.group(1))
        if (match := BEGIN.match(line) or END.match(line)) and re.search(r"\s|^$", match[match.lastindex]):
            problems.append(f"{path}:{number}: error: a region name with a space, or none")
        if match := BEGIN.match(line):
            if open_region:
                problems.append(f"{path}:{number}: error: region inside region '{open_region[0]}'")
            open_region = (match.group(2), match.group(1), number, [])
        elif match := END.match(line):
            if not open_region or match.group(1) != open_region[0]:
                problems.append(f"{path}:{number}: error: 'article ends: {match.group(1)}' "
                                "without its 'article begins'")
                continue
            name, indent, start, body = open_region
            if name in regions:
                problems.append(f"{path}:{start}: error: a second region named '{name}'")
            regions[name] = (start, "\n".join(body))
            open_region = None
        elif open_region:
            name, indent, start, body = open_region
            if line.strip() and not line.startswith(indent):
                problems.append(f"{path}:{number}: error: line less indented than the marker "
                                f"of region '{name}'")
            body.append(line[len(indent):] if line.strip() else "")
    if open_region:
        problems.append(f"{path}:{open_region[2]}: error: region '{open_region[0]}' never ends")
    return regions, imports


def blocks_of(path):
    """The fenced blocks of an article: (line of the fence, info string, marker, code)."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    blocks, index = [], 0
    while index < len(lines):
        fence = re.match(r"^```(\S*)\s*$", lines[index])
        if not fence:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        marker = MARKER.match(lines[index - 1]) if index > 0 else None
        blocks.append((index + 1, fence.group(1), marker and marker.group(1),
                       "\n".join(lines[index + 1:end])))
        index = end + 1
    return blocks


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    os.chdir(root)
    problems, files, used, checked = [], {}, set(), 0
    articles = sorted(glob.glob("Sources/*/*.docc/*.md") + glob.glob("Interop/*/*.docc/*.md"))
    for article in articles:
        for line, language, marker, code in blocks_of(article):
            where = f"{article}:{line}"
            if language != "swift":
                if marker:
                    problems.append(f"{where}: error: a test marker on a block that is not "
                                    "```swift")
                continue
            if marker is None:
                problems.append(f"{where}: error: a ```swift block without a "
                                "'<!-- test: PATH REGION -->' line before it")
                continue
            if re.match(r"^exempt, \S", marker):
                continue
            words = marker.split()
            if len(words) < 2:
                problems.append(f"{where}: error: the marker names no region: '{marker}'")
                continue
            path, names = words[0], words[1:]
            if path not in files:
                if not os.path.isfile(path):
                    problems.append(f"{where}: error: no test file {path}")
                    continue
                files[path] = regions_of(path, problems)
            regions, imports = files[path]
            code_lines = code.split("\n")
            while code_lines and IMPORT.match(code_lines[0]):
                module = IMPORT.match(code_lines.pop(0)).group(1)
                if module not in imports:
                    problems.append(f"{where}: error: {path} does not import {module}")
            while code_lines and not code_lines[0].strip():
                code_lines.pop(0)
            used.update((path, name) for name in names)
            missing = [name for name in names if name not in regions]
            for name in missing:
                problems.append(f"{where}: error: no region '{name}' in {path}")
            if missing:
                continue
            checked += 1
            expected = "\n\n".join(regions[name][1] for name in names)
            if "\n".join(code_lines) != expected:
                diff = difflib.unified_diff(
                    expected.split("\n"), code_lines, lineterm="",
                    fromfile=f"{path} ({' '.join(names)})", tofile=where)
                problems.append(f"{where}: error: the block differs from its test code\n"
                                + "\n".join(diff))
    # Regions in the test files the articles use, that no article shows.
    for path, (regions, _) in sorted(files.items()):
        for name, (line, _) in sorted(regions.items(), key=lambda item: item[1][0]):
            if (path, name) not in used:
                problems.append(f"{path}:{line}: error: region '{name}' is in no article")
    for problem in problems:
        print(problem)
    print(f"article code: {checked} blocks checked in {len(articles)} articles, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
