#!/usr/bin/env bash
# bench/report checks. Usage: report_check.sh MODE REPORT OUT_DIR [JSON]
#   table:  hand-made JSON (tests/bench/sample_*.json) gives the cells worked out by hand below
#   plots:  the same JSON gives three PNGs (exit 77, skipped, without gnuplot)
#   smoke:  the smoke run's JSON gives a report with W1, W2, kernel and roofline tables
set -euo pipefail
mode=$1 report=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out"

expect() { grep -qF -- "$1" "$out/report.md" || { echo "report.md lacks: $1" >&2; exit 1; }; }
is_png() {
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "not a PNG: $1" >&2; exit 1; }
}

case $mode in
table)
  "$report" --no-plots --out "$out" "$here/sample_double.json" "$here/sample_float.json" >"$out/stdout.md"
  cmp "$out/report.md" "$out/stdout.md"
  # sqrt+div bound: 1 / (1/S + 1/D). avx512 double: S = 2 G (median of 2.1, 1.0, 2.0; the aggregates'
  # bogus 1.0 ignored), D = 3 G -> 1.2 G; scalar: 1 / (1/0.4 G + 1/0.6 G) = 240 M; avx512 float: 4 G.
  expect '| sample_double.json | avx512 | double | 1 | 60 G | 2 G | 3 G | 1.2 G |'
  expect '| sample_double.json | scalar | double | 1 | — | 400 M | 600 M | 240 M |'
  # W1: 600 M / 60 M = 10x, 600 M / 1.2 G = 50%; the reference against scalar's 240 M: 25%.
  expect '| reference | reference | double | 1 | 4096 | 64 | 32 | 60 M | 1.0x | 25% | — | — |'
  # the hand-tuned kernel at 750 M on the same batch: 600 / 750 = 80%
  expect '| avx512 | avx512 | double | 1 | 4096 | 64 | 32 | 600 M | 10.0x | 50% | 80% | 54 |'
  expect '| avx512 | avx512 | double | 1 | 4096 | 64 | 32 | 750 M | 12.5x | 62% | — | — |'
  expect 'Its results are the batch engine'
  # 1M ropes of 32: no reference there, the nearest one (4096 x 64) marked: 480 / 60 = 8x; 480 M / 1.2 G.
  expect '| avx512 | avx512 | double | 1 | 1048576 | 32 | 32 | 480 M | 8.0x† | 40% | — | — |'
  # 2 threads: no 2-thread roofline in the file, so no fraction.
  expect '| avx512 | avx512 | double | 2 | 4096 | 64 | 32 | 1.5 G | 25.0x | — | — | — |'
  expect '| avx2 | — | double | 1 | 4096 | 64 | 32 | error: out of memory | — | — | — | — |'
  # float from the second file, against its own reference: 1.4 G / 70 M = 20x, 1.4 G / 4 G = 35%.
  expect '| avx512 | avx512 | float | 1 | 4096 | 64 | 32 | 1.4 G | 20.0x | 35% | — | — |'
  # W2: same window 100 M / 2 M = 50x; the whole-scenario window has no reference run: no speed-up.
  expect '| avx512 | reference | double | 1 | 4096 | 32 | 32 | 100 M | 50.0x | — | — | — |'
  expect '| avx512 | reference | double | 1 | 64 | 32 | 2000 | 50 M | — | — | — | — |'
  # The direct solver: its W2 rows as W2's (no reference run here: no speed-up); rod chains beside
  # Cyclone's resolver, direct over Cyclone: 150 / 100 = 1.5x at 32 particles, 150 / 50 = 3.0x at 1001.
  expect '| avx512 | avx512 | double | 2 | 4096 | 32 | 32 | 150 M | — | — | — | — |'
  expect '| avx512 | double | 2 | 64 | 32 | 32 | 100 M | 150 M | 1.5x |'
  expect '| avx512 | double | 2 | 64 | 1001 | 32 | 50 M | 150 M | 3.0x |'
  # Kernels: verlet against L1 240 GB/s / (15 x 8 B) = 2 G: 75%; forces 900 M / 1.2 G = 75%.
  expect '| integrate_verlet | avx512 | double | 1.5 G | L1 bandwidth | 2 G | 75% |'
  expect '| forces | avx512 | double | 900 M | sqrt+div | 1.2 G | 75% |'
  expect '| resolver | reference | double | 4 M | none | — | — |'
  ;;
plots)
  command -v gnuplot >/dev/null || { echo "gnuplot not installed: skipped" >&2; exit 77; }
  "$report" --out "$out" "$here/sample_double.json" "$here/sample_float.json" >/dev/null
  for p in w1_throughput w1_speedup w1_roofline; do
    is_png "$out/$p.png"
    expect "![$p.png]($p.png)"
  done
  ;;
smoke)
  json=$4
  "$report" --out "$out" "$json" >/dev/null
  expect '## W1'
  expect '| reference | reference |'
  expect '## W2'
  expect '## W2 with the direct chain solver'
  expect '## Rod chains of growing length'
  expect '| ISA | real | threads | ropes | particles | steps | Cyclone'\''s resolver | direct solver |'
  ! grep -qF 'No rod chain results.' "$out/report.md" || { echo "report.md has no rod chain rows" >&2; exit 1; }
  expect '| integrate_verlet |'
  expect '| sqrt+div bound'
  if command -v gnuplot >/dev/null; then is_png "$out/w1_throughput.png"; fi
  ;;
*)
  echo "report_check.sh: unknown mode $mode" >&2
  exit 2
  ;;
esac
