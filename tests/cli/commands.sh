#!/usr/bin/env bash
# The commands and options of skein, one case per ctest test.
# Usage: commands.sh SKEIN SRC CASE [REAL_TYPE]
source "$(dirname "$0")/lib.sh"
ball="$SRC/scenarios/seed001_ball.json"
w1="$SRC/scenarios/w1_springs.json"

case $1 in
help)
    for form in --help -h help "run --steps abc --help"; do
        # shellcheck disable=SC2086
        run_skein $form
        expect_status 0
        [ "$(head -1 "$SCRATCH/out")" = "usage: skein [options]                  run the built-in default batch, print a summary" ] ||
            fail "skein $form: usage not on stdout"
        [ ! -s "$SCRATCH/err" ] || fail "skein $form wrote to stderr"
    done
    expect_stdout_has "--ropes LIST"
    expect_stdout_has "The default batch: 2048 ropes of 32 particles"
    # --results is checkpointed like every other output
    ! grep -qF "not with checkpoints" "$SCRATCH/out" || fail "--help says --results does not work with checkpoints"
    expect_stdout_has "a checkpoint keeps"
    expect_stdout_has "--vtk-cells, --results, --engine"
    ;;
version)
    run_skein --version
    expect_status 0
    grep -qE '^skein [0-9]+\.[0-9]+\.[0-9]+$' "$SCRATCH/out" || fail "version line: $(cat "$SCRATCH/out")"
    ;;
info)
    run_skein info
    expect_status 0
    expect_stdout_has "real type    $2"
    for isa in avx512 avx2 scalar; do
        grep -qE "^isa +$isa +(compiled|not compiled), (usable on this CPU|not supported by this CPU)$" "$SCRATCH/out" ||
            fail "no line for isa $isa: $(cat "$SCRATCH/out")"
    done
    grep -qE '^isa +scalar +[a-z ]+, usable on this CPU$' "$SCRATCH/out" || fail "scalar must be usable"
    grep -qE '^threads +[1-9][0-9]* ' "$SCRATCH/out" || fail "no thread count"
    grep -qE '^build type +' "$SCRATCH/out" || fail "no build type"
    ;;
default)
    # skein alone: the built-in batch and its summary. A second argument "short" (sanitizer builds)
    # shortens the run through --steps; the summary must be the same shape.
    if [ "${2:-}" = short ]; then
        run_skein --steps 20
        steps=20
    else
        run_skein
        steps=2000
    fi
    expect_status 0
    [ ! -s "$SCRATCH/err" ] || fail "stderr not empty: $(cat "$SCRATCH/err")"
    expect_stdout_has "scenario     <default>"
    expect_stdout_has "ropes        2048 in 1 group"
    expect_stdout_has "particles    65536"
    expect_stdout_has "steps        $steps (dt 0.0005 s,"
    expect_stdout_has "diverged     0 ropes"
    expect_stdout_has "output       none"
    grep -qE '^speed +[0-9]\.[0-9]{2}e\+[0-9]{2} particle-steps/s$' "$SCRATCH/out" ||
        fail "no particle-steps per second: $(cat "$SCRATCH/out")"
    grep -qE '^threads +[1-9]' "$SCRATCH/out" || fail "no threads line"
    grep -qE '^engine +' "$SCRATCH/out" || fail "no engine line"
    ;;
quiet)
    run_skein run "$ball" --steps 20 --quiet --csv "$SCRATCH/out.csv"
    expect_status 0
    [ ! -s "$SCRATCH/out" ] && [ ! -s "$SCRATCH/err" ] || fail "--quiet printed something"
    [ -s "$SCRATCH/out.csv" ] || fail "no CSV"
    ;;
validate_roundtrip)
    # The normalised scenario loads again and normalises to itself.
    for f in "$SRC"/scenarios/*.json; do
        run_skein validate "$f"
        expect_status 0
        cp "$SCRATCH/out" "$SCRATCH/a.json"
        run_skein validate "$SCRATCH/a.json"
        expect_status 0
        cmp -s "$SCRATCH/out" "$SCRATCH/a.json" || fail "validate of validate's output of $f differs"
    done
    ;;
validate_set)
    # --set reaches the loader: the ball with 20 steps runs 20 steps.
    run_skein run "$ball" --set steps=20 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 10 20" ] || fail "frames $(csv_steps "$SCRATCH/out.csv")"
    run_skein validate "$ball" --set steps=20
    expect_status 0
    cp "$SCRATCH/out" "$SCRATCH/a.json"
    run_skein run "$SCRATCH/a.json" --csv "$SCRATCH/out2.csv"
    expect_status 0
    cmp -s "$SCRATCH/out.csv" "$SCRATCH/out2.csv" || fail "validate --set output does not run the same"
    ;;
every)
    # Frames: step 0, every multiple of --every, and the last step.
    run_skein run "$ball" --steps 25 --every 10 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 10 20 25" ] || fail "frames $(csv_steps "$SCRATCH/out.csv")"
    run_skein run "$ball" --steps 0 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0" ] || fail "--steps 0 frames $(csv_steps "$SCRATCH/out.csv")"
    # w1 has output.every 1000: a 3-step run has frames 0 and 3.
    run_skein run "$w1" --steps 3 --ropes 7 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 3" ] || fail "w1 frames $(csv_steps "$SCRATCH/out.csv")"
    ;;
duration)
    # dt 0.01: 0.2 s is 20 steps, 0.234 s rounds to 23.
    run_skein run "$ball" --duration 0.2 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 10 20" ] || fail "frames $(csv_steps "$SCRATCH/out.csv")"
    run_skein run "$ball" --duration 0.234 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 10 20 23" ] || fail "frames $(csv_steps "$SCRATCH/out.csv")"
    ;;
ropes)
    # --ropes picks ropes by global index, ranges included, sorted and without repeats.
    run_skein run "$w1" --steps 0 --ropes 4095,2-3,0,3 --csv "$SCRATCH/out.csv"
    expect_status 0
    rows=$(csv_check "$SCRATCH/out.csv") || fail "bad CSV"
    [ "$rows" -eq $((4 * 64)) ] || fail "$rows rows, expected 256"
    got=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $1 }' "$SCRATCH/out.csv")
    [ "$got" = "0 2 3 4095 " ] || fail "ropes [$got]"
    ;;
ropes_replace_list)
    # --ropes replaces output.ropes (w1 names ropes 0 and 4095): with a smaller count the file's list no
    # longer fits, which is no error then; without --ropes it is. A checkpoint of such a run resumes alone.
    run_skein run "$w1" --steps 2 --set 'groups[0].count=64' --ropes 0-63 --csv "$SCRATCH/out.csv"
    expect_status 0
    got=$(awk -F, 'NR > 1 && !seen[$1]++ { n++ } END { print n }' "$SCRATCH/out.csv")
    [ "$got" = 64 ] || fail "$got ropes written, expected 64"
    run_skein run "$w1" --steps 2 --set 'groups[0].count=64' --csv "$SCRATCH/other.csv"
    expect_status 2
    grep -qF "output.ropes[1]" "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    run_skein validate "$w1" --set 'groups[0].count=64'
    expect_status 2
    "$SKEIN" run "$w1" --steps 400 --every 1 --set 'groups[0].count=64' --ropes 1-2 --csv ck.csv --checkpoint ck.h5 \
        --checkpoint-every 1 --quiet >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    until [ -e ck.h5 ]; do kill -0 $pid 2>/dev/null || fail "the run ended first: $(cat "$SCRATCH/err")"; sleep 0.01; done
    kill -KILL $pid
    wait $pid
    run_skein run --resume ck.h5 --quiet
    expect_status 0
    got=$(awk -F, 'NR > 1 && !seen[$1]++ { printf "%s ", $1 }' ck.csv)
    [ "$got" = "1 2 " ] || fail "ropes [$got]"
    ;;
csv_unwritable)
    # found before the first step: exit 2, naming the option and the directory
    run_skein run "$ball" --steps 5 --csv "$SCRATCH/missing/out.csv"
    expect_status 2
    expect_stderr "skein: --csv $SCRATCH/missing/out.csv: cannot create a file in $SCRATCH/missing: No such file or directory"
    [ ! -e "$SCRATCH/missing" ] || fail "created the directory"
    expect_no_output "$SCRATCH" out.csv
    ;;
csv_full)
    # A file size limit stands in for a full disk: the write fails late, the run exits 1 naming the
    # file, the temporary is removed and an existing file is left as it was.
    echo "old contents" >"$SCRATCH/out.csv"
    (
        trap '' XFSZ
        ulimit -f 16
        exec "$SKEIN" run "$w1" --steps 2 --ropes 0-99 --every 1 --csv "$SCRATCH/out.csv"
    ) >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 1
    grep -qE "^skein: $SCRATCH/out.csv: write failed: File too large$" "$SCRATCH/err" ||
        fail "stderr: $(cat "$SCRATCH/err")"
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "more than one line on stderr"
    [ "$(cat "$SCRATCH/out.csv")" = "old contents" ] || fail "the existing file was changed"
    expect_no_temp "$SCRATCH" out.csv
    ;;
csv_replaces)
    # A successful run replaces an existing file, with the permissions of a newly created one.
    echo "old contents" >"$SCRATCH/out.csv"
    chmod 600 "$SCRATCH/out.csv"
    umask 022
    run_skein run "$ball" --steps 10 --csv "$SCRATCH/out.csv"
    expect_status 0
    [ "$(head -1 "$SCRATCH/out.csv")" = "rope,step,time,particle,x,y,z,vx,vy,vz" ] || fail "not replaced"
    [ "$(stat -c %a "$SCRATCH/out.csv")" = 644 ] || fail "mode $(stat -c %a "$SCRATCH/out.csv")"
    expect_no_temp "$SCRATCH" out.csv
    ;;
interrupt)
    # Ctrl-C during a long run: exit 130; the CSV is kept as out.csv.incomplete (never under its own
    # name), ending with the frame of the step reached; no temporary left.
    # interrupted once frames are in the temporary (past the writer's buffer): the run is stepping. A frame
    # every 100 steps of 64 of W1's ropes, so that a sanitizer build gets there in a second or two, not near
    # the minute the wait allows (all 4096 took 30 s there).
    interrupt_when 'file_over "out.csv.tmp.*" 10000' run "$w1" --set 'groups[0].count=64' --set 'output.ropes=[0,63]' \
        --steps 100000000 --every 100 --csv "$SCRATCH/out.csv"
    expect_status 130
    expect_no_output "$SCRATCH" out.csv
    expect_no_temp "$SCRATCH" out.csv.incomplete
    rows=$(csv_check "$SCRATCH/out.csv.incomplete") || fail "bad CSV"
    frames=$(csv_steps "$SCRATCH/out.csv.incomplete")
    n_frames=$(echo "$frames" | wc -w)
    [ "$rows" -eq $((n_frames * 2 * 64)) ] && [ "${frames%% *}" = 0 ] && [ "${frames##* }" -gt 0 ] ||
        fail "$rows rows, frames [$frames]"
    expect_stderr "skein: interrupted at step ${frames##* } of 100000000; what was written up to that step is kept as $SCRATCH/out.csv.incomplete (any earlier file under the outputs' own names is left as it was)"
    ;;
bdf2)
    # BDF2 on W3's tether made softer (4 ropes, 40 particles, 3e3 N/m, 20 steps of 2.5e-2 s: a float build's
    # forces are good to about 2e-4 N, its velocity updates to about 2e-3 m/s): the summary counts Newton's solves
    # and the steps that did not converge: none with the default 16 solves at most (each step within 1e-2 m/s),
    # with 1 only the steps whose one solve reaches a trial that passes the rate test (docs/model.md 2.1: the
    # residual's contraction over the solve times its move within the tolerance), one per rope here; the batch engine
    # equals the reference, Newton's counts included.
    w3=(--set 'groups[0].count=4' --set 'groups[0].particles=40' --set 'groups[0].end=[39, 0, 0]' --set dt=2.5e-2
        --set 'groups[0].link.stiffness=3e3' --set 'output.ropes=[0]'
        --set 'implicit={"scheme": "bdf2", "tolerance": 1e-2}')
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 20 --engine reference
    expect_status 0
    grep -qE '^  newton     last step: [0-9.]+ solves per rope \(max [0-9]+\); steps not converged: 0, in 0 ropes$' \
        "$SCRATCH/out" || fail "no newton line: $(cat "$SCRATCH/out")"
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 20 --engine reference \
        --set 'implicit.iterations=1'
    expect_status 0
    expect_stdout_has "  newton     last step: 1.0 solves per rope (max 1); steps not converged: 4, in 4 ropes"
    run_skein run "$ball" --engine batch --steps 0 --quiet
    if [ "$status" -eq 0 ]; then
        run_skein compare "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 20 --every 5 --ropes 0-3
        expect_status 0
        expect_stdout_has "  position  0 (identical bits)"
        expect_stdout_has "  velocity  0 (identical bits)"
        expect_stdout_has "  newton    the same in all 20 rope frames (solves and steps not converged)"
    fi
    # checkpointed (the checkpoints keep the step before): the same frames as the run without, the same Newton line
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 20 --engine reference --every 5 \
        --csv "$SCRATCH/plain.csv"
    expect_status 0
    grep '^  newton' "$SCRATCH/out" >"$SCRATCH/newton_plain"
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 20 --engine reference --every 5 \
        --csv "$SCRATCH/ck.csv" --checkpoint "$SCRATCH/ck" --checkpoint-every 5
    expect_status 0
    cmp -s "$SCRATCH/plain.csv" "$SCRATCH/ck.csv" || fail "a checkpointed bdf2 run wrote other frames"
    grep '^  newton' "$SCRATCH/out" | cmp -s - "$SCRATCH/newton_plain" || fail "a checkpointed bdf2 run's newton line differs"
    [ ! -e "$SCRATCH/ck" ] || fail "a finished run left its checkpoint"
    ;;
equilibrium)
    # "initial": {"equilibrium": true}: W3's tether (4 ropes, 40 particles) between two pins starts at rest in its
    # catenary (the batch engine's start is the reference's, bit for bit); one solve is too few for it: the run
    # is refused before its first step, naming the ropes, and writes nothing.
    w3=(--set 'groups[0].count=4' --set 'groups[0].particles=40' --set 'groups[0].end=[30, 0, 0]'
        --set 'groups[0].pinned=[0, 39]' --set 'groups[0].link.stiffness=3e3' --set 'output.ropes=[0]'
        --set 'initial={"equilibrium": true, "tolerance": 1e-2}')
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 0 --engine reference --csv "$SCRATCH/ref.csv"
    expect_status 0
    expect_stdout_has "  start      kinetic 0 J,"
    # the summary says how hard the solve was: the reference's Newton, the same whatever the engine
    grep -E '^equilibrium  every rope at rest within 0.01 N before step 0: [0-9]+[.][0-9] solves per rope \(max [0-9]+\)$' \
        "$SCRATCH/out" >"$SCRATCH/eq_ref" || fail "no equilibrium line: $(cat "$SCRATCH/out")"
    run_skein run "$ball" --engine batch --steps 0 --quiet
    if [ "$status" -eq 0 ]; then
        run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 0 --csv "$SCRATCH/batch.csv"
        expect_status 0
        cmp -s "$SCRATCH/ref.csv" "$SCRATCH/batch.csv" || fail "the engines' equilibria differ"
        grep '^equilibrium' "$SCRATCH/out" | cmp -s - "$SCRATCH/eq_ref" || fail "the engines' equilibrium lines differ"
    fi
    run_skein run "$ball" --steps 1
    ! grep -q '^equilibrium' "$SCRATCH/out" || fail "an equilibrium line without initial.equilibrium"
    run_skein run "$SRC/scenarios/w3_stiff_tether.json" "${w3[@]}" --steps 10 --engine reference \
        --set 'initial.iterations=1' --csv "$SCRATCH/out.csv"
    expect_status 2
    expect_stderr "skein: $SRC/scenarios/w3_stiff_tether.json: initial.equilibrium: 4 ropes did not come to rest within 0.01 N in 1 solves: 0, 1, 2, 3 (raise initial.iterations or initial.tolerance)"
    [ ! -e "$SCRATCH/out.csv" ] || fail "an output was written"
    ;;
compare_reference)
    # skein compare runs an engine against the reference; against the reference itself every frame
    # is identical to the bit.
    run_skein compare "$SRC/scenarios/seed002_rod_chain_ground.json" --engine reference --steps 30 --every 10
    expect_status 0
    expect_stdout_has "compared     reference engine (reference) against the reference: 30 steps, 4 frames, 1 rope"
    expect_stdout_has "group 0      1 rope, 1 compared: within tolerance"
    expect_stdout_has "  position  0 (identical bits)"
    expect_stdout_has "  velocity  0 (identical bits)"
    expect_stdout_has "  contacts  the same in all 4 rope frames (contacts and resolver iterations)"
    expect_stdout_has "tolerance    0 (identical bits)"
    ;;
compare_batch)
    # The default engine under test is the batch engine. Either it is not built and compare says so
    # exactly as run does, or: it matches the reference to the bit on springs (w1), and on a driven
    # anchor (SLEEF's sin against libm's) the exit status follows the deviation it reports.
    run_skein run "$ball" --engine batch --steps 0 --quiet
    if [ "$status" -ne 0 ]; then
        expect_status 2
        cp "$SCRATCH/err" "$SCRATCH/batch_err"
        run_skein compare "$ball" --steps 5
        expect_status 2
        cmp -s "$SCRATCH/err" "$SCRATCH/batch_err" || fail "compare: $(cat "$SCRATCH/err")"
        exit 0
    fi
    run_skein compare "$w1" --steps 20 --every 5 --ropes 0-9
    expect_status 0
    expect_stdout_has "20 steps, 5 frames, 10 ropes"
    expect_stdout_has "  position  0 (identical bits)"
    expect_stdout_has "  velocity  0 (identical bits)"
    ! grep -q "  contacts" "$SCRATCH/out" || fail "springs have no contacts to compare: $(cat "$SCRATCH/out")"
    # rods on the ground: the batch engine's contacts and resolver iterations are the reference's
    run_skein compare "$SRC/scenarios/w2_rods.json" --steps 1000 --every 250 --set 'groups[0].count=16' \
        --set 'output.ropes=[0]' --ropes 0-15
    expect_status 0
    expect_stdout_has "  position  0 (identical bits)"
    expect_stdout_has "  contacts  the same in all 80 rope frames (contacts and resolver iterations)"

    driven="$SRC/tests/cli/driven_anchor.json"
    run_skein compare "$driven"
    dev=$(awk '$1 == "position" || $1 == "velocity" { print $2 }' "$SCRATCH/out" | sort -g | tail -1)
    [ -n "$dev" ] || fail "no deviations reported: $(cat "$SCRATCH/out")"
    if grep -q "BEYOND TOLERANCE" "$SCRATCH/out"; then
        # exit 4 (the engines differ), saying why by design and which tolerance covers it
        expect_status 4
        cover=$(sed -n 's/.*; --tolerance \([0-9.e+-]*\) covers it$/\1/p' "$SCRATCH/err")
        [ -n "$cover" ] || fail "stderr: $(cat "$SCRATCH/err")"
        expect_stderr "skein: compare: 1 of 1 group beyond tolerance 0, where driven anchors take their sine from SLEEF and libm by design; --tolerance $cover covers it"
        expect_stdout_has "group 0      64 ropes, 64 compared: BEYOND TOLERANCE"
        expect_stdout_has "differ in the last bits by design; --tolerance $cover covers this run"
        run_skein compare "$driven" --tolerance "$cover"
        expect_status 0
        # Beyond 1e-30 too when the largest deviation is not zero (it may be only a zero's sign).
        run_skein compare "$driven" --tolerance 1e-30
        if [ "$dev" = 0 ]; then expect_status 0; else expect_status 4; fi
    else
        expect_status 0
        [ "$dev" = 0 ] || fail "within tolerance 0 with a deviation of $dev"
    fi
    # Positions of order 1 m after 0.2 s: a tolerance of 1 m accepts any finite difference.
    run_skein compare "$driven" --tolerance 1
    expect_status 0
    expect_stdout_has "group 0      64 ropes, 64 compared: within tolerance"
    expect_stdout_has "tolerance    1"
    ;;
stability)
    # A stiff tether (1 m links of 3 g at 3e5 N/m, pinned at one end): its explicit limit is 2 sqrt(m / 4k) =
    # 1e-4 s. validate lists it; a run just above it warns, naming the group, dt and the limit, and one just
    # below does not; with --results a rope stepped above it for 200 steps, which grows to meganewtons
    # without crossing a divergence bound, is flagged as gaining energy nothing gives it.
    cat >tether.json <<'JSON'
{"skein": 1, "dt": 1e-4, "steps": 200, "integrator": "symplectic", "gravity": [0, -9.81, 0],
 "groups": [{"count": 2, "particles": 40, "start": [0, 0, 0], "end": [39, 0, 0], "mass": 0.003, "pinned": [0],
             "link": {"type": "spring", "stiffness": 3e5, "length": 1}}]}
JSON
    run_skein validate tether.json
    expect_status 0
    expect_stderr "skein: group 0: explicit stability limit dt < 0.0001 s (symplectic, dt 0.0001 s)"
    run_skein run tether.json --set dt=1.001e-4 --steps 2 --quiet
    expect_status 0
    expect_stderr "skein: warning: group 0: dt 0.0001001 s is above the explicit stability limit 0.0001 s of its stiffest rope (symplectic): its ropes may grow without bound; take a smaller dt or the implicit integrator"
    run_skein run tether.json --set dt=0.999e-4 --steps 2 --quiet
    expect_status 0
    [ ! -s "$SCRATCH/err" ] || fail "a step below the limit warned: $(cat "$SCRATCH/err")"
    run_skein compare tether.json --set dt=1.001e-4 --steps 2
    grep -qF "skein: warning: group 0: dt 0.0001001 s is above" "$SCRATCH/err" || fail "compare: $(cat "$SCRATCH/err")"
    run_skein run tether.json --set dt=1.01e-4 --results res.csv --quiet
    expect_status 0
    grep -qE '^skein: warning: group 0: 2 ropes gained energy no load can give \(rope 0: [0-9.e+]+ J more than at the start\): a step above the stability limit \(dt 0.000101 s, limit 0.0001 s\)\?$' \
        "$SCRATCH/err" || fail "no energy warning: $(cat "$SCRATCH/err")"
    awk -F, 'NR > 1 && $NF != -1 { exit 1 }' res.csv || fail "a rope was marked diverged: $(cat res.csv)"
    run_skein run tether.json --set dt=0.999e-4 --results res.csv --quiet
    expect_status 0
    [ ! -s "$SCRATCH/err" ] || fail "a stable run was flagged: $(cat "$SCRATCH/err")"
    ;;
*) fail "no such case $1" ;;
esac
exit 0
