#!/usr/bin/env bash
# An example scenario validates, runs briefly, and writes a CSV with the expected frames and rows.
# Usage: scenario.sh SKEIN SRC NAME ROWS "STEP STEP ..." [skein options...]
source "$(dirname "$0")/lib.sh"
name=$1 rows=$2 steps=$3
shift 3
file="$SRC/scenarios/$name.json"

run_skein validate "$file"
expect_status 0

run_skein run "$file" --csv "$SCRATCH/out.csv" "$@"
expect_status 0
[ ! -s "$SCRATCH/err" ] || fail "stderr not empty: $(cat "$SCRATCH/err")"
expect_stdout_has "scenario     $file"
expect_stdout_has "output       $SCRATCH/out.csv"
got=$(csv_check "$SCRATCH/out.csv") || fail "bad CSV"
[ "$got" -eq "$rows" ] || fail "$got rows, expected $rows"
[ "$(csv_steps "$SCRATCH/out.csv")" = "$steps" ] || fail "frames at steps [$(csv_steps "$SCRATCH/out.csv")], expected [$steps]"
expect_no_temp "$SCRATCH" out.csv
exit 0
