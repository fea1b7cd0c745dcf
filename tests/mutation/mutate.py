#!/usr/bin/python3
"""The mutation campaign: each mutation of tests/mutation/mutations.txt written into a scratch copy of the
tree, rebuilt, and the tests it names run: a test that fails caught it, all passing let it survive.

  mutate.py check LIST SOURCE_DIR [BUILD_DIR]
      The list's syntax, and every `find` still found exactly once in its file (so the list does not rot);
      with BUILD_DIR, every `tests` regex selects at least one of that build's ctest tests.
  mutate.py run LIST SOURCE_DIR BUILD_DIR [--only ID,ID...] [--timeout SECONDS] [--jobs N]
      The campaign, in BUILD_DIR/mutation (run.sh says how it is built).

A mutation is a block of `key: value` lines, blocks apart by blank lines, `#` lines are comments:
  id:         a name of its own
  file:       the file, relative to the source directory
  find:       text on exactly one line of it (a fixed string, not a pattern)
  replace:    what that text becomes
  tests:      the ctest regex of the tests that should catch it
  equivalent: (optional) why no test can catch it: listed, checked for rot, never run nor counted
"""
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

KEYS = ("id", "file", "find", "replace", "tests", "equivalent")
REQUIRED = ("id", "file", "find", "replace", "tests")


class ListError(Exception):
    pass


def parse(path):
    """The mutations of the list, in order; ListError naming the line on a syntax error."""
    blocks, cur, start = [], {}, 0
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                blocks.append((start, cur))
                cur = {}
            continue
        m = re.match(r"^([a-z]+): (.*)$", line)
        if not m or m.group(1) not in KEYS:
            raise ListError(f"{path}:{no}: not a `key: value` line with a key of {', '.join(KEYS)}")
        key, value = m.group(1), m.group(2).strip()
        if key in cur:
            raise ListError(f"{path}:{no}: {key} given twice in one mutation")
        if not value:
            raise ListError(f"{path}:{no}: {key} is empty")
        if not cur:
            start = no
        cur[key] = value
    seen, out = set(), []
    for no, b in blocks:
        missing = [k for k in REQUIRED if k not in b]
        if missing:
            raise ListError(f"{path}:{no}: the mutation lacks {', '.join(missing)}")
        if b["id"] in seen:
            raise ListError(f"{path}:{no}: id {b['id']} given twice")
        if not re.match(r"^[a-z0-9_]+$", b["id"]):
            raise ListError(f"{path}:{no}: id {b['id']}: lower-case letters, digits and _ only")
        if b["find"] == b["replace"]:
            raise ListError(f"{path}:{no}: {b['id']}: replace is find")
        try:
            re.compile(b["tests"])
        except re.error as e:
            raise ListError(f"{path}:{no}: {b['id']}: tests is no regex ({e})")
        seen.add(b["id"])
        b["line_no"] = no
        out.append(b)
    return out


def locate(src, m):
    """(text, line number) of the file with m's find on exactly one line, once; else an error string."""
    path = os.path.join(src, m["file"])
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return None, f"{m['file']}: {e.strerror}"
    hits = [i for i, line in enumerate(text.split("\n"), 1) if m["find"] in line]
    if len(hits) != 1 or text.count(m["find"]) != 1:
        where = "no line" if not hits else f"{text.count(m['find'])} places (lines {', '.join(map(str, hits))})"
        return None, f"{m['file']}: `{m['find']}` is on {where}, not on exactly one"
    return text, hits[0]


def ctest_names(build):
    """Every test registered in build: {name: [its command's words]}, read from the CTestTestfile.cmake files
    (which name the programs whether or not they are built yet)."""
    tests = {}
    for root, _, files in os.walk(build):
        if "CTestTestfile.cmake" in files and "/mutation/" not in root[len(build):] + "/":
            with open(os.path.join(root, "CTestTestfile.cmake"), encoding="utf-8") as f:
                for m in re.finditer(r"^add_test\(\[=\[(.*?)\]=\] (.*)\)$", f.read(), re.M):
                    tests[m.group(1)] = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2))
    return tests


def check(list_path, src, build=None):
    try:
        muts = parse(list_path)
    except (ListError, OSError) as e:
        print(e)
        return 1
    bad = 0
    names = list(ctest_names(build)) if build else None
    for m in muts:
        text, where = locate(src, m)
        if text is None:
            print(f"{list_path}:{m['line_no']}: {m['id']}: {where}")
            bad += 1
        elif names is not None and not [n for n in names if re.search(m["tests"], n)]:
            print(f"{list_path}:{m['line_no']}: {m['id']}: tests `{m['tests']}` selects no test of {build}")
            bad += 1
    n_eq = sum("equivalent" in m for m in muts)
    print(f"{len(muts)} mutations ({n_eq} listed as equivalent), {bad} rotten")
    return 1 if bad else 0


def sync(src, dst):
    """dst becomes a copy of src's tracked and untracked, not ignored files; unchanged files keep their times,
    so the scratch build rebuilds only what changed."""
    listed = subprocess.run(["git", "-C", src, "ls-files", "-co", "--exclude-standard", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")
    files = {f for f in listed if f and os.path.isfile(os.path.join(src, f))}
    for f in files:
        a, b = os.path.join(src, f), os.path.join(dst, f)
        with open(a, "rb") as fa:
            data = fa.read()
        try:
            with open(b, "rb") as fb:
                if fb.read() == data:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(b), exist_ok=True)
        with open(b, "wb") as fb:
            fb.write(data)
        shutil.copymode(a, b)
    for root, _, names in os.walk(dst):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), dst)
            if rel not in files:
                os.remove(os.path.join(root, n))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run_ctest(build, regex, timeout, jobs, junit):
    """(every test selected, those that failed or timed out); None when none was selected."""
    if os.path.exists(junit):
        os.remove(junit)
    subprocess.run(["ctest", "--test-dir", build, "-R", regex, "--timeout", str(timeout), "-j", str(jobs),
                    "--output-junit", junit], capture_output=True, text=True)
    if not os.path.exists(junit):
        return None, None
    cases = ET.parse(junit).getroot().iter("testcase")
    ran, failed = [], []
    for c in cases:
        ran.append(c.get("name"))
        if c.get("status") == "fail" or c.find("failure") is not None or c.find("error") is not None:
            failed.append(c.get("name"))
    return ran, failed


def build_targets(build, targets, log):
    cmd = ["cmake", "--build", build, "-j", "2"]
    for t in sorted(targets):
        cmd += ["--target", t]
    with open(log, "w") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT).returncode == 0


def campaign(list_path, src, build_dir, only=None, timeout=300, jobs=2):
    try:
        muts = parse(list_path)
    except (ListError, OSError) as e:
        print(e)
        return 2
    if only:
        unknown = set(only) - {m["id"] for m in muts}
        if unknown:
            print(f"--only: no mutation {', '.join(sorted(unknown))}")
            return 2
        muts = [m for m in muts if m["id"] in only]
    scratch = os.path.join(os.path.abspath(build_dir), "mutation")
    tree, build = os.path.join(scratch, "src"), os.path.join(scratch, "build")
    os.makedirs(tree, exist_ok=True)
    sync(src, tree)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        print(f"configuring the scratch build {build}", flush=True)
        subprocess.run(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DSKEIN_ISAS=scalar",
                        "-DSKEIN_BUILD_BENCH=OFF", "-DSKEIN_BUILD_PYTHON=OFF", "-DSKEIN_MPI=OFF"],
                       check=True, stdout=subprocess.DEVNULL)
    # each regex's tests, and the targets their commands run (test programs, skein, h5_probe ...)
    targets_all = set(re.findall(r"^\.\.\. (\S+)", subprocess.run(
        ["cmake", "--build", build, "--target", "help"], capture_output=True, text=True).stdout, re.M))
    tests = ctest_names(build)

    def needs(regex):
        out = set()
        for name, command in tests.items():
            if re.search(regex, name):
                for arg in command:
                    base = os.path.basename(arg)
                    if arg.startswith(build) and base in targets_all:
                        out.add(base)
        return out

    log = os.path.join(scratch, "build.log")
    junit = os.path.join(scratch, "junit.xml")
    runnable = [m for m in muts if "equivalent" not in m]
    union = "|".join(f"({m['tests']})" for m in runnable)
    every_target = set().union(*(needs(m["tests"]) for m in runnable)) if runnable else set()
    print(f"baseline: building {len(every_target)} targets and running the named tests unmutated", flush=True)
    if not build_targets(build, every_target, log):
        print(f"the unmutated tree does not build: {log}")
        return 2
    _, base_failed = run_ctest(build, union, timeout, jobs, junit) if runnable else ([], [])
    base_failed = set(base_failed or [])

    results = []
    for m in muts:
        label = f"{m['id']} ({m['file']})"
        text, where = locate(tree, m)
        if text is None:
            results.append(("error", m, where))
            print(f"error     {label}: {where}", flush=True)
            continue
        if "equivalent" in m:
            results.append(("equivalent", m, m["equivalent"]))
            print(f"equivalent {label}:{where}: {m['equivalent']}", flush=True)
            continue
        failing = [n for n in base_failed if re.search(m["tests"], n)]
        if failing:
            results.append(("error", m, f"fails unmutated: {', '.join(sorted(failing))}"))
            print(f"error     {label}: its tests fail unmutated: {', '.join(sorted(failing))}", flush=True)
            continue
        path = os.path.join(tree, m["file"])
        t0 = time.time()
        try:
            write(path, text.replace(m["find"], m["replace"]))
            if not build_targets(build, needs(m["tests"]), log):
                results.append(("error", m, f"does not build (see {log})"))
                print(f"error     {label}:{where}: the mutant does not build", flush=True)
                continue
            ran, failed = run_ctest(build, m["tests"], timeout, jobs, junit)
        finally:
            write(path, text) # a new time: the next build recompiles the file as it was
        if not ran:
            results.append(("error", m, "its regex selects no test"))
            print(f"error     {label}: tests `{m['tests']}` selects no test", flush=True)
        elif failed:
            results.append(("caught", m, ", ".join(failed)))
            print(f"caught    {label}:{where} by {', '.join(sorted(failed)[:4])}"
                  f"{' ...' if len(failed) > 4 else ''} ({time.time() - t0:.0f} s)", flush=True)
        else:
            results.append(("survived", m, f"{len(ran)} tests passed"))
            print(f"SURVIVED  {label}:{where}: {len(ran)} tests passed ({time.time() - t0:.0f} s)", flush=True)
    build_targets(build, needs(union) if runnable else set(), log) # the scratch build as the tree is
    count = {k: sum(r[0] == k for r in results) for k in ("caught", "survived", "equivalent", "error")}
    judged = count["caught"] + count["survived"]
    rate = 100.0 * count["caught"] / judged if judged else 0.0
    print(f"mutations: {len(results)}; caught {count['caught']}, survived {count['survived']}, "
          f"equivalent {count['equivalent']}, errors {count['error']}")
    print(f"kill rate: {count['caught']}/{judged} = {rate:.1f} % of non-equivalent mutations")
    for k in ("survived", "error"):
        for r in results:
            if r[0] == k:
                print(f"  {k}: {r[1]['id']}: {r[2]}")
    return 2 if count["error"] else 1 if count["survived"] else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "check":
        return check(argv[1], argv[2], argv[3] if len(argv) > 3 else None)
    if len(argv) >= 4 and argv[0] == "run":
        only, timeout, jobs, rest = None, 300, 2, argv[4:]
        while rest:
            if rest[0] == "--only" and len(rest) > 1:
                only = set(rest[1].split(","))
            elif rest[0] == "--timeout" and len(rest) > 1 and rest[1].isdigit():
                timeout = int(rest[1])
            elif rest[0] == "--jobs" and len(rest) > 1 and rest[1].isdigit():
                jobs = int(rest[1])
            else:
                print(f"unknown option {rest[0]} (--only ID,ID... --timeout SECONDS --jobs N)")
                return 2
            rest = rest[2:]
        return campaign(argv[1], argv[2], argv[3], only, timeout, jobs)
    print(__doc__.strip())
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
