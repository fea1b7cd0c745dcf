#!/usr/bin/env bash
# A bad scenario of tests/bad: `skein run` and `skein validate` exit 2 with exactly "skein: " and
# the message of tests/bad/expected.tsv, and no output file or temporary is left.
# Usage: bad.sh SKEIN SRC FILE   (FILE as named in the first column of expected.tsv)
source "$(dirname "$0")/lib.sh"
file=$1
# As expected.tsv says: messages name tests/bad/FILE relative to the source directory, and the
# memory limit is fixed so the message of huge_count.json is the same on every machine.
export SKEIN_MEMORY_LIMIT=1000000000
msg=$(awk -F'\t' -v f="$file" '$1 == f { sub(/^[^\t]*\t/, ""); print; exit }' "$SRC/tests/bad/expected.tsv")
[ -n "$msg" ] || fail "$file is not in tests/bad/expected.tsv"

cd "$SRC" || fail "no source directory"
run_skein run "tests/bad/$file" --csv "$SCRATCH/out.csv"
expect_status 2
expect_stderr "skein: $msg"
[ ! -s "$SCRATCH/out" ] || fail "stdout not empty: $(cat "$SCRATCH/out")"
expect_no_output "$SCRATCH" out.csv

run_skein validate "tests/bad/$file"
expect_status 2
expect_stderr "skein: $msg"
[ ! -s "$SCRATCH/out" ] || fail "validate printed: $(cat "$SCRATCH/out")"
exit 0
