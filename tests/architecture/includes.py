#!/usr/bin/python3
"""Every program's includes (docs/architecture.md, "What the programs include"): the examples and the Python
package's C side include public headers only (core/include/skein/), besides their own; skein-view may also
include the headers of skein_util (core/util/) that the list in docs/architecture.md names for it, and no other
internal one (a list naming anything else for it is refused); the skein program (core/cli) and skein-bench
(bench) may also include the library's internal headers that the list names for them, and no other. A quoted include is the program's own when it names a file
of the program's folder, public when core/include has it, internal when core/ or kernels/ has it; anything
else (a generated or a third party's header) is not the library's and is let be.

Usage: includes.py SOURCE_DIR [--as PROGRAM FILE ...]   (--as checks FILE as one of PROGRAM's: the test that
the check fails)"""
import os
import re
import sys

# program -> the folders of its sources
PROGRAMS = {
    "skein": ["core/cli"],
    "skein-view": ["viewer"],
    "skein-bench": ["bench"],
    "examples": ["examples"],
    "python": ["python"],
}
SOURCE = re.compile(r"\.(c|h|cc|cpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LISTED = re.compile(r"^- `([^`]+)` \(([^)]*)\)")
# program -> the one folder of core/ whose headers the list may name for it
CONFINED = {"skein-view": "util/"}


def allowed(root):
    """{program: {header}} from docs/architecture.md's list of internal headers the programs include."""
    out = {p: set() for p in PROGRAMS}
    section = False
    with open(os.path.join(root, "docs", "architecture.md")) as f:
        for line in f:
            if line.startswith("## "):
                section = line.strip() == "## What the programs include"
                continue
            m = LISTED.match(line) if section else None
            if m:
                for program in (p.strip() for p in m.group(2).split(",")):
                    if program not in out:
                        sys.exit(f"docs/architecture.md: {m.group(1)}: unknown program {program}")
                    if program in CONFINED and not m.group(1).startswith(CONFINED[program]):
                        sys.exit(f"docs/architecture.md: {m.group(1)} is listed for {program}, which may include "
                                 f"core/{CONFINED[program]} headers only")
                    out[program].add(m.group(1))
    return out


def kind(root, folders, including, name):
    here = os.path.dirname(including)
    for candidate in (os.path.join(here, name), os.path.join(root, "core", name)):
        if os.path.isfile(candidate):
            path = os.path.relpath(os.path.realpath(candidate), os.path.realpath(root))
            if any(path.startswith(f + os.sep) for f in folders):
                return "own"
    if os.path.isfile(os.path.join(root, "core", "include", name)):
        return "public"
    if os.path.isfile(os.path.join(root, "core", name)) or os.path.isfile(os.path.join(root, "kernels", name)):
        return "internal"
    return "other"


def check(root, program, path, lists, failures):
    with open(path, errors="replace") as f:
        text = f.read()
    for name in INCLUDE.findall(text):
        k = kind(root, PROGRAMS[program], path, name)
        if k == "internal" and name not in lists[program]:
            rel = os.path.relpath(path, root)
            failures.append(f"{rel} ({program}) includes {name}, an internal header docs/architecture.md "
                            f"does not list for {program}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    extra = sys.argv[2:]
    lists = allowed(root)
    failures, files = [], 0
    for program, folders in PROGRAMS.items():
        for folder in folders:
            for top, _, names in os.walk(os.path.join(root, folder)):
                for n in sorted(names):
                    if SOURCE.search(n):
                        check(root, program, os.path.join(top, n), lists, failures)
                        files += 1
    while extra:
        if len(extra) < 3 or extra[0] != "--as" or extra[1] not in PROGRAMS:
            sys.exit(__doc__)
        check(root, extra[1], extra[2], lists, failures)
        files += 1
        extra = extra[3:]
    for f in failures:
        print("FAIL:", f)
    print(f"{files} program files, {len(failures)} problems")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
