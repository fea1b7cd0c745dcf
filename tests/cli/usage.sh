#!/usr/bin/env bash
# A bad command line exits 2 with exactly one line on stderr, and writes nothing.
# Usage: usage.sh SKEIN SRC CASE
source "$(dirname "$0")/lib.sh"
ball="$SRC/scenarios/seed001_ball.json"
out=(--csv "$SCRATCH/out.csv")
code=2
case $1 in
unknown_option) args=(run "$ball" --frobnicate "${out[@]}") msg="unknown option '--frobnicate' (see skein --help)" ;;
unknown_command) args=(frobnicate) msg="unknown command 'frobnicate' (commands: run, validate, compare, info; see skein --help)" ;;
missing_value) args=(run "$ball" "${out[@]}" --steps) msg="--steps: missing value" ;;
value_is_option) args=(run "$ball" --csv --steps 3) msg="--csv: missing value" ;;
steps_not_number) args=(run "$ball" --steps abc "${out[@]}") msg="--steps: 'abc' is not a whole number" ;;
steps_fraction) args=(run "$ball" --steps 1.5 "${out[@]}") msg="--steps: '1.5' is not a whole number" ;;
steps_negative) args=(run "$ball" --steps -5 "${out[@]}") msg="--steps: -5 must be at least 0" ;;
steps_plus) args=(run "$ball" --steps +3 "${out[@]}") msg="--steps: '+3' is not a whole number" ;;
steps_huge) args=(run "$ball" --steps 99999999999999999999 "${out[@]}") msg="--steps: 99999999999999999999 is too large" ;;
threads_zero) args=(run "$ball" --threads 0 "${out[@]}") msg="--threads: 0 must be at least 1" ;;
threads_many) args=(run "$ball" --threads 5000 "${out[@]}") msg="--threads: 5000 is more than 4096" ;;
every_zero) args=(run "$ball" --every 0 "${out[@]}") msg="--every: 0 must be at least 1" ;;
every_equals) args=(run "$ball" --every=abc "${out[@]}") msg="--every: 'abc' is not a whole number" ;;
duration_bad) args=(run "$ball" --duration x "${out[@]}") msg="--duration: 'x' is not a finite number" ;;
duration_negative) args=(run "$ball" --duration -1 "${out[@]}") msg="--duration: -1 must not be negative" ;;
steps_and_duration) args=(run "$ball" --steps 3 --duration 1 "${out[@]}") msg="--steps and --duration: give one or the other" ;;
isa_bad) args=(run "$ball" --isa sse "${out[@]}") msg="--isa: 'sse' is not one of auto, scalar, avx2, avx512" ;;
engine_bad) args=(run "$ball" --engine gpu "${out[@]}") msg="--engine: 'gpu' is not one of batch, reference" ;;
ropes_backwards) args=(run "$ball" --ropes 3-1 "${out[@]}") msg="--ropes: '3-1' goes backwards" ;;
ropes_syntax) args=(run "$ball" --ropes 1,,2 "${out[@]}") msg="--ropes: '1,,2' is not a list of rope indices like 0,3,10-12" ;;
ropes_out_of_range) args=(run "$ball" --ropes 0,1 "${out[@]}") msg="--ropes: rope 1 does not exist (the scenario has 1)" ;;
set_syntax) args=(run "$ball" --set dt "${out[@]}") msg="--set: 'dt' is not PATH=VALUE" ;;
quiet_value) args=(run "$ball" --quiet=1 "${out[@]}") msg="--quiet takes no value" ;;
run_without_file) args=(run "${out[@]}") msg="run: missing the scenario FILE (skein run FILE)" ;;
extra_argument) args=(run "$ball" other.json "${out[@]}") msg="run: unexpected argument 'other.json'" ;;
default_with_file) args=("$ball") msg="unknown command '$ball' (commands: run, validate, compare, info; see skein --help)" ;;
info_with_option) args=(info --steps 3) msg="--steps is not an option of info" ;;
tolerance_on_run) args=(run "$ball" --tolerance 1 "${out[@]}") msg="--tolerance is not an option of run" ;;
csv_on_compare) args=(compare "$ball" "${out[@]}") msg="--csv is not an option of compare" ;;
tolerance_bad) args=(compare "$ball" --tolerance -1) msg="--tolerance: -1 must not be negative" ;;
h5_on_compare) args=(compare "$ball" --h5 "$SCRATCH/out.h5") msg="--h5 is not an option of compare" ;;
h5_empty) args=(run "$ball" --h5 "") msg="--h5: empty file name" ;;
h5_bad_ropes) args=(run "$ball" --ropes 5 "${out[@]}" --h5 "$SCRATCH/out.h5") msg="--ropes: rope 5 does not exist (the scenario has 1)" ;;
h5_twice) args=(run "$ball" --h5 "$SCRATCH/a.h5" --h5 "$SCRATCH/out.h5") msg="--h5 given twice ('$SCRATCH/a.h5' and '$SCRATCH/out.h5'): give it once" ;;
steps_twice) args=(run "$ball" --steps 3 "${out[@]}" --steps=4) msg="--steps given twice ('3' and '4'): give it once" ;;
quiet_twice) args=(run "$ball" --quiet "${out[@]}" --quiet) msg="--quiet given twice: give it once" ;;
*) fail "no such case $1" ;;
esac

run_skein "${args[@]}"
expect_status "$code"
expect_stderr "skein: $msg"
[ ! -s "$SCRATCH/out" ] || fail "stdout not empty: $(cat "$SCRATCH/out")"
expect_no_output "$SCRATCH" out.csv
expect_no_output "$SCRATCH" out.h5
expect_no_output "$SCRATCH" a.h5
exit 0
