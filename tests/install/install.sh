#!/usr/bin/env bash
# The installed package as a program outside this tree uses it: `cmake --install` into a temporary prefix,
# then examples/ built there with find_package(skein) (shared and static) and with pkg-config, and run.
# Usage: install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" || fail "cmake --install: $(tail -5 "$work/install.log")"
for f in include/skein/skein.h include/skein/types.h bin/skein; do
    [ -e "$work/prefix/$f" ] || fail "not installed: $f"
done
ls "$work"/prefix/lib*/libskein.so.* "$work"/prefix/lib*/libskein.a >/dev/null 2>&1 || fail "libskein not installed"
pc=$(ls "$work"/prefix/lib*/pkgconfig/skein.pc 2>/dev/null | head -n 1)
[ -n "$pc" ] || fail "skein.pc not installed"
# The documents the README points to, docs/cluster.md among them.
for d in model.md scenario-format.md architecture.md cluster.md; do
    [ -f "$work/prefix/share/doc/skein/$d" ] || fail "not installed: share/doc/skein/$d"
done
# No private header went out with the public ones.
[ "$(ls "$work/prefix/include/skein" | sort | tr '\n' ' ')" = "engine.h output.h scenario.h skein.h types.h " ] ||
    fail "the installed headers are $(ls "$work/prefix/include/skein" | tr '\n' ' ')"

# CMake: find_package(skein), the shared and the static library.
cmake -S "$src/examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release \
    >"$work/configure.log" 2>&1 || fail "configuring examples/: $(tail -20 "$work/configure.log")"
cmake --build "$work/examples" >"$work/build.log" 2>&1 || fail "building examples/: $(tail -20 "$work/build.log")"
libdir=$(dirname "$pc")/..
for exe in sweep sweep_static; do
    LD_LIBRARY_PATH="$libdir" OMP_NUM_THREADS=2 "$work/examples/$exe" >"$work/$exe.out" ||
        fail "$exe: $(cat "$work/$exe.out")"
    grep -q "^largest relative error .*, 0 ropes diverged$" "$work/$exe.out" || fail "$exe printed $(cat "$work/$exe.out")"
    [ "$(grep -cE '^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.e+-]+$' "$work/$exe.out")" = 16 ] || fail "$exe: not 16 ropes"
done
# The static program does not need libskein.so; the shared one does, and finds it through the library path.
# ldd's output is taken whole first: `ldd | grep -q` under pipefail fails when grep, done at its first match,
# leaves ldd writing into a closed pipe (SIGPIPE).
static_deps=$(ldd "$work/examples/sweep_static") shared_deps=$(ldd "$work/examples/sweep")
grep -q libskein <<<"$static_deps" && fail "sweep_static links libskein.so"
grep -q "libskein.so.0 =>" <<<"$shared_deps" || fail "sweep does not link libskein.so.0: ldd says $shared_deps"
cmp -s "$work/sweep.out" "$work/sweep_static.out" || fail "the shared and static programs print differently"

# pkg-config, as a Makefile would (the .pc file finds its prefix from where it lies).
export PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --modversion skein)" = "$(sed -n 's/^#define SKEIN_VERSION_STRING "\(.*\)"/\1/p' "$src/core/include/skein/skein.h")" ] ||
    fail "pkg-config --modversion skein: $(pkg-config --modversion skein)"
# The README's line as written: pkg-config's flags alone link a program of the library's (libm included).
cc -std=c17 -Wall -Wextra -Werror -O2 "$src/examples/sweep.c" -o "$work/sweep_pc" $(pkg-config --cflags --libs skein) ||
    fail "cc with pkg-config"
LD_LIBRARY_PATH="$libdir" "$work/sweep_pc" >"$work/pc.out" || fail "sweep_pc: $(cat "$work/pc.out")"
cc -std=c17 -O2 "$src/examples/sweep.c" -o "$work/sweep_pc_static" $(pkg-config --cflags skein) "$libdir/libskein.a" \
    $(pkg-config --libs --static skein | sed 's/-lskein//') -lm || fail "cc with pkg-config --static"
"$work/sweep_pc_static" >/dev/null || fail "sweep_pc_static"
# The public header alone is C++-clean.
echo '#include <skein/skein.h>
int main() { return sk_real_size() == sizeof(sk_real) ? 0 : 1; }' >"$work/cxx.cc"
if command -v c++ >/dev/null; then
    c++ -Wall -Wextra -Werror "$work/cxx.cc" -o "$work/cxx" $(pkg-config --cflags --libs skein) || fail "c++ with skein.h"
    LD_LIBRARY_PATH="$libdir" "$work/cxx" || fail "the C++ program sees another real type than the library"
fi
# Python: the installed package imports from where the install put it and runs on the installed library.
if [ -d "$build/python/skein" ]; then
    pydir=$(ls -d "$work"/prefix/lib/python3*/dist-packages 2>/dev/null | head -n 1)
    [ -n "$pydir" ] && [ -f "$pydir/skein/__init__.py" ] && [ -f "$pydir/skein/_cdef.py" ] ||
        fail "the Python package is not installed under $work/prefix/lib/python3*/dist-packages"
    (cd "$work" && PYTHONPATH="$pydir" PYTHONDONTWRITEBYTECODE=1 OMP_NUM_THREADS=2 /usr/bin/python3 -c '
import os, sys
import skein, skein._config
prefix = sys.argv[1]
assert skein.__file__.startswith(prefix), skein.__file__
assert os.path.realpath(skein._config.LIBRARY).startswith(os.path.realpath(prefix)), skein._config.LIBRARY
r = skein.run({"skein": 1, "dt": 1e-3, "steps": 100, "gravity": [0, -9.81, 0], "groups": [{"count": 3,
    "particles": 4, "start": [0, 0, 0], "end": [0.3, 0, 0], "mass": 0.1, "pinned": [0],
    "link": {"type": "spring", "stiffness": 100}}]})
assert r.position.shape == (2, 3, 4, 3) and r.position[-1, 0, -1, 1] < 0 and r.complete
' "$work/prefix") >"$work/python.out" 2>&1 || fail "the installed Python package: $(cat "$work/python.out")"
fi
echo "installed package: ok"
