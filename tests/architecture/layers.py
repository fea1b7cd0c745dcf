#!/usr/bin/python3
"""The library's shape, read from its object files: every call between files goes down the layers of
docs/architecture.md (or stays within a folder), no two files call each other through any chain, and only
core/base/parallel.c calls OpenMP.

Usage: layers.py CORE_OBJECT_DIR[:CORE_OBJECT_DIR...] KERNEL_OBJECT_DIR...   (CMake's directories of the objects)"""
import os
import subprocess
import sys

# The layers, lowest first; a file may call files of its own folder and of lower layers only.
# util is skein_util, which skein-view links too (core/CMakeLists.txt); it sits on base, whose sk_fail its output
# path checks report through.
RANK = {"base": 0, "util": 1, "model": 2, "scenario": 3, "kernels": 4, "reference": 5, "batch": 5, "engine": 6, "io": 7}


def symbols(path):
    out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDRBV":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def objects(root, folder_of):
    found = {}
    for top, _, files in os.walk(root):
        for f in files:
            if f.endswith(".c.o"):
                path = os.path.join(top, f)
                found[path] = folder_of(os.path.relpath(path, root))
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    files = {}
    for core_dir in sys.argv[1].split(os.pathsep):
        files.update(objects(core_dir, lambda rel: rel.split(os.sep)[0]))
    for kernel_dir in sys.argv[2:]:
        files.update(objects(kernel_dir, lambda rel: "kernels"))
    if not files:
        sys.exit("no object files under " + " ".join(sys.argv[1:]))
    name = {}
    defined, used = {}, {}
    for path, folder in files.items():
        if folder not in RANK:
            sys.exit(f"{path}: folder {folder} is not a layer of docs/architecture.md")
        # the kernels are compiled once per ISA: one node per source, the ISA directory dropped
        node = folder + "/" + os.path.basename(path)[: -len(".c.o")]
        name[path] = node
        d, u = symbols(path)
        defined.setdefault(node, set()).update(d)
        used.setdefault(node, set()).update(u)
    owner = {}
    for node, syms in defined.items():
        for s in syms:
            owner[s] = node
    failures = []
    graph = {node: set() for node in defined}
    for node, syms in used.items():
        folder = node.split("/")[0]
        for s in syms:
            callee = owner.get(s)
            if callee is None or callee == node:
                continue
            graph[node].add(callee)
            callee_folder = callee.split("/")[0]
            if callee_folder != folder and RANK[callee_folder] >= RANK[folder]:
                failures.append(f"{node} calls {s} of {callee}: {callee_folder} is not below {folder}")
        openmp = sorted(s for s in syms if s.startswith(("GOMP_", "omp_")))
        if openmp and node != "base/parallel":
            failures.append(f"{node} calls OpenMP ({', '.join(openmp)}): only base/parallel.c may")
    # circles: strongly connected components of more than one file (Tarjan, iterative)
    index, low, on_stack, stack, counter, circles = {}, {}, set(), [], [0], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    circles.append(sorted(comp))
    for comp in circles:
        failures.append("files that call each other: " + " <-> ".join(comp))
    for f in failures:
        print("FAIL:", f)
    print(f"{len(defined)} files, {sum(len(g) for g in graph.values())} calls between them, "
          f"{len(failures)} problems")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
