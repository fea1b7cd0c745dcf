#!/bin/bash
# The mutation campaign (tests/mutation/mutations.txt): tests/mutation/run.sh BUILD_DIR [--only ID,ID...]
# [--timeout SECONDS] [--jobs N]. Each mutation is written into a scratch copy of the source tree (the
# working tree is never edited), rebuilt, and the ctest tests it names run with a timeout: caught when one
# fails, survived when all pass; then the file is restored. A mutation whose text is no longer found, whose
# mutant does not build or whose tests fail unmutated is an error, never counted as caught. Prints each
# mutation's verdict and the kill rate over the non-equivalent ones; exits 0 when every one is caught, 1 when
# some survive, 2 on errors.
#
# To stay cheap, the scratch copy and its build live in BUILD_DIR/mutation, configured once (Release,
# -DSKEIN_ISAS=scalar: the kernels compiled for the scalar ISA only; no benchmarks, Python package or MPI)
# and rebuilt incrementally, only the targets the mutation's tests run. Each run first copies the working
# tree's changed files over (tracked and untracked files git does not ignore). Not part of CI: a whole
# campaign rebuilds the library once per mutation. The ctest mutation.list (tests/mutation.cmake) keeps the
# list from rotting.
set -euo pipefail
if [ $# -lt 1 ] || [ "${1#-}" != "$1" ]; then
    echo "usage: $0 BUILD_DIR [--only ID,ID...] [--timeout SECONDS] [--jobs N]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$1
shift
exec /usr/bin/python3 "$here/mutate.py" run "$here/mutations.txt" "$(cd "$here/../.." && pwd)" "$build" "$@"
