#!/usr/bin/env bash
# Soak test of checkpoints (not in CI: minutes): a large batch (tests/soak/soak.json: 8960 ropes, springs
# that partly diverge, rods on the ground, deploying ropes on driven anchors) run with checkpoints and
# killed with SIGKILL at random moments, KILLS times, each time resumed; the end result (CSV byte for byte,
# HDF5 for h5diff and h5dump -p) must equal an uninterrupted run's, and nothing of the checkpointing may be
# left behind.
# Usage: tests/soak/soak.sh SKEIN [KILLS [STEPS]]   (defaults: 100 kills, the scenario's 20000 steps)
# Environment: SOAK_DIR (work directory, default a new one under /tmp; kept when the test fails).
set -u
SKEIN=$(realpath "${1:?usage: soak.sh SKEIN [KILLS [STEPS]]}")
KILLS=${2:-100}
STEPS=${3:-20000}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SCENARIO="$SRC/tests/soak/soak.json"
DIR=${SOAK_DIR:-$(mktemp -d /tmp/skein-soak.XXXXXX)}
mkdir -p "$DIR"
cd "$DIR" || exit 1
rm -f ref.* out.* ck.h5 ck.h5.*

fail() {
    echo "soak: FAIL: $*" >&2
    echo "soak: the work directory $DIR is kept" >&2
    exit 1
}

plan=(run "$SCENARIO" --steps "$STEPS" --every 200 --quiet)
outs=(--csv out.csv --h5 out.h5)

# The uninterrupted run (exit 3: some ropes diverge, on purpose).
t0=$(date +%s.%N)
"$SKEIN" "${plan[@]}" --csv ref.csv --h5 ref.h5 2>ref.err
ref_status=$?
t1=$(date +%s.%N)
[ "$ref_status" -eq 0 ] || [ "$ref_status" -eq 3 ] || fail "the uninterrupted run failed ($ref_status): $(cat ref.err)"
run_time=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "soak: uninterrupted run: $run_time s, exit $ref_status ($(head -c 120 ref.err))"

# Delays before each kill: uniform in [0, max_delay), so that on average a run gets about a KILLS-th of the
# way further between kills, plus the time a resumed run takes to start (restore, rewrite its outputs).
max_delay=$(awk -v r="$run_time" -v k="$KILLS" 'BEGIN { printf "%.3f", 2 * r / k + 0.4 }')
kills=0 attempts=0 fresh=0 mid_checkpoint=0 no_progress=0 last_step=-1
while :; do
    attempts=$((attempts + 1))
    if [ -e ck.h5 ]; then
        mode=(--resume ck.h5)
    else
        mode=(--checkpoint ck.h5 --checkpoint-every 200)
        fresh=$((fresh + 1))
    fi
    if [ "$kills" -ge "$KILLS" ]; then
        # enough: the last run goes to the end
        "$SKEIN" "${plan[@]}" "${outs[@]}" "${mode[@]}" 2>out.err
        status=$?
        break
    fi
    "$SKEIN" "${plan[@]}" "${outs[@]}" "${mode[@]}" 2>out.err &
    pid=$!
    delay=$(awk -v x=$RANDOM -v m="$max_delay" 'BEGIN { printf "%.3f", x * m / 32768 }')
    sleep "$delay"
    if ! kill -KILL "$pid" 2>/dev/null; then
        wait "$pid"
        status=$?
        echo "soak: attempt $attempts finished before its kill (exit $status)"
        break
    fi
    wait "$pid" 2>/dev/null
    kills=$((kills + 1))
    ls ck.h5.tmp.* >/dev/null 2>&1 && mid_checkpoint=$((mid_checkpoint + 1))
    step=-1
    [ -e ck.h5 ] && step=$(h5dump -a step ck.h5 2>/dev/null | awk '/\(0\)/ { print $2 }')
    [ "$step" = "$last_step" ] && no_progress=$((no_progress + 1))
    last_step=${step:--1}
    echo "soak: kill $kills after $delay s (${mode[0]}): checkpoint at step ${step:-none}"
done
[ "$status" -eq "$ref_status" ] || fail "the last run exited $status, the uninterrupted one $ref_status: $(cat out.err)"

cmp -s ref.csv out.csv || fail "the CSV differs: $(cmp ref.csv out.csv)"
h5diff ref.h5 out.h5 >diff.txt 2>&1 || fail "h5diff: $(head -5 diff.txt)"
h5dump -p ref.h5 | tail -n +2 >ref.dump
h5dump -p out.h5 | tail -n +2 >out.dump
cmp -s ref.dump out.dump || fail "h5dump differs: $(diff ref.dump out.dump | head -5)"
left=
for f in ck.h5 ck.h5.* out.csv.tmp.* out.h5.tmp.* out.csv.incomplete; do
    [ -e "$f" ] && left="$left $f"
done
[ -z "$left" ] || fail "left behind: $left"
echo "soak: PASS: $kills kills in $attempts runs ($fresh started afresh, $mid_checkpoint killed while writing a checkpoint, $no_progress without a new checkpoint); outputs equal the uninterrupted run's ($(stat -c %s ref.csv) bytes of CSV, $(stat -c %s ref.h5) of HDF5)"
rm -rf "$DIR"
