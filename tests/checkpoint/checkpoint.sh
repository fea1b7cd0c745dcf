#!/usr/bin/env bash
# Checkpoints through the command line: a run killed (SIGKILL) or stopped (Ctrl-C) after a checkpoint and
# resumed writes outputs equal to an uninterrupted run's (the CSV byte for byte; the HDF5 file object for
# object, every dataset and attribute, as h5diff and h5dump see them); a full disk under the CSV, the HDF5
# file or the checkpoint stops the run with exit 1 naming the file, keeps the last checkpoint, leaves no
# file that looks complete, and the run resumes once there is room; checkpoints that are not this run's are
# refused with exit 2.
# Usage: checkpoint.sh SKEIN SRC CASE PROBE [short]   (PROBE: the h5_probe tool; short: sanitizer builds)

# The full-disk cases mount a small tmpfs in a mount namespace of their own (so nothing is left mounted);
# where that is not allowed, a file size limit (ulimit -f) stands in for the full disk.
if [ -z "${SKEIN_IN_NAMESPACE:-}" ] && [[ "$3" == full_* ]] && unshare -m true 2>/dev/null; then
    SKEIN_IN_NAMESPACE=1 exec unshare -m bash "$0" "$@"
fi

source "$(dirname "$0")/../cli/lib.sh"
CASE=$1
PROBE=$2
long="$SRC/tests/checkpoint/long.json"
if [ "${3:-}" = short ]; then
    plan=(--steps 3000 --every 100)
    K=500
else
    plan=(--steps 8000 --every 400)
    K=1600
fi

# The uninterrupted run of the long scenario, its outputs as ref.csv and ref.h5 (extra options follow).
reference_run() {
    run_skein run "$long" "${plan[@]}" --csv ref.csv --h5 ref.h5 --quiet "$@"
    expect_status "${want_status:-0}"
}

# The outputs out.csv and out.h5 equal ref.csv and ref.h5: the CSV byte for byte, the HDF5 file for h5diff
# (every object, dataset value and attribute) and for h5dump (types, shapes, chunks, filters, stored sizes).
expect_same_outputs() {
    cmp -s ref.csv out.csv || fail "out.csv differs from the uninterrupted run's: $(cmp ref.csv out.csv)"
    h5diff ref.h5 out.h5 >"$SCRATCH/diff" 2>&1 || fail "h5diff: $(head -5 "$SCRATCH/diff")"
    h5dump -p ref.h5 | tail -n +2 >"$SCRATCH/ref.dump"
    h5dump -p out.h5 | tail -n +2 >"$SCRATCH/out.dump"
    cmp -s "$SCRATCH/ref.dump" "$SCRATCH/out.dump" || fail "h5dump differs: $(diff "$SCRATCH/ref.dump" "$SCRATCH/out.dump" | head -5)"
    "$PROBE" describe out.h5 | grep -qx "complete 1" || fail "out.h5 is not marked complete"
}

# Nothing of the checkpointing is left: the checkpoint, its journal, temporaries.
expect_clean() {
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "the checkpoint or its journal is left after the run finished"
    expect_no_temp . ck.h5
    expect_no_temp . out.csv
    expect_no_temp . out.h5
    [ ! -e out.csv.incomplete ] && [ ! -e out.h5.incomplete ] || fail "an .incomplete output is left"
}

# Waits (10 ms at a time, 20 s at most) for the file $1 to be there and, if given, to differ from the stat
# line $2; then freezes the run $pid (SIGSTOP) where it is, a few milliseconds after that checkpoint, with
# most of the run still ahead of it. The soak test (tests/soak/soak.sh) kills at random moments instead.
freeze_after_checkpoint() {
    for _ in $(seq 2000); do
        [ -e "$1" ] && [ "$(stat -c %y "$1" 2>/dev/null)" != "${2:-}" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    kill -STOP $pid 2>/dev/null
    [ -e "$1" ] || fail "no checkpoint was written: $(cat "$SCRATCH/err")"
}

# Starts the checkpointed run in the background (extra options follow) and freezes it after its first
# checkpoint.
start_and_wait() {
    "$SKEIN" run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --checkpoint ck.h5 --checkpoint-every $K --quiet "$@" \
        >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    freeze_after_checkpoint ck.h5
}

resume() {
    run_skein run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --resume ck.h5 "$@"
}

# A directory for outputs where the disk fills up: a tmpfs of $1 KiB, or without one a file size limit of
# $1 KiB on the run (stand_in set).
small_disk() {
    mkdir -p "$SCRATCH/disk"
    stand_in=
    if [ -n "${SKEIN_IN_NAMESPACE:-}" ] && mount -t tmpfs -o size="$1k" tmpfs "$SCRATCH/disk" 2>/dev/null; then
        trap 'umount "$SCRATCH/disk" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
    else
        stand_in=$1
    fi
}

# Runs skein with the disk full at $stand_in KiB when there is no tmpfs.
run_limited() {
    if [ -n "$stand_in" ]; then
        (
            trap '' XFSZ
            ulimit -f $((stand_in * 1024 / 512)) # blocks of 512 bytes
            exec "$SKEIN" "$@"
        ) >"$SCRATCH/out" 2>"$SCRATCH/err"
        status=$?
    else
        run_skein "$@"
    fi
}

case $CASE in
kill_resume | kill_resume_reference | kill_resume_verlet | diverge_resume)
    # SIGKILL at a random moment after the first checkpoint; the resumed run's outputs equal the uninterrupted
    # run's, and it leaves nothing of the checkpointing behind. With the reference engine (slower: a shorter
    # run); with verlet (the HDF5 file's previous positions, and every run's deploying segments, of the frames
    # before the checkpoint come from the journal); with ropes that diverge before and after the checkpoint
    # (exit 3 both times).
    extra=()
    want_status=0
    if [ "$CASE" = kill_resume_verlet ]; then
        extra=(--set integrator=verlet)
    elif [ "$CASE" = kill_resume_reference ]; then
        extra=(--engine reference)
        plan=(--steps $((${plan[1]} / 3)) --every $((${plan[3]} / 2)))
        K=$((K / 2))
    elif [ "$CASE" = diverge_resume ]; then
        extra=(--set 'groups[0].sweep.link.stiffness={"from": 150, "to": 2.5e5}')
        want_status=3
    fi
    reference_run "${extra[@]}"
    if [ "$CASE" = diverge_resume ]; then
        "$PROBE" describe ref.h5 | grep -q '^  diverged .*[0-9]' || fail "no rope diverged: $(cat "$SCRATCH/err")"
    fi
    start_and_wait "${extra[@]}"
    kill -KILL $pid
    wait $pid
    status=$?
    expect_status 137
    [ ! -e out.csv ] && [ ! -e out.h5 ] || fail "a killed run left an output under its own name"
    resume "${extra[@]}"
    expect_status $want_status
    grep -qE "^steps +${plan[1]} \(dt [0-9.e-]+ s, [0-9.]+ s simulated\), resumed at step [1-9][0-9]*$" "$SCRATCH/out" ||
        fail "summary: $(grep steps "$SCRATCH/out")"
    expect_stdout_has "checkpoint   ck.h5 removed: the run finished"
    expect_same_outputs
    expect_clean
    ;;
others_temps)
    # A resumed run removes the temporaries its checkpoint names (the killed run's outputs half written),
    # and no other file: temporaries of other runs writing beside the same names stay.
    reference_run
    start_and_wait
    kill -KILL $pid
    wait $pid
    own=$(ls out.csv.tmp.* out.h5.tmp.*)
    [ "$(echo "$own" | wc -l)" -eq 2 ] || fail "the killed run did not leave its two temporaries: $own"
    for f in out.csv.tmp.Other1 out.h5.tmp.Other2 ck.h5.tmp.Other3; do echo "another run's" >"$f"; done
    resume
    expect_status 0
    expect_same_outputs
    for f in $own; do [ ! -e "$f" ] || fail "$f, the killed run's, is left"; done
    for f in out.csv.tmp.Other1 out.h5.tmp.Other2 ck.h5.tmp.Other3; do
        [ "$(cat "$f")" = "another run's" ] || fail "$f, another run's, was removed or changed"
        rm "$f"
    done
    expect_clean
    ;;
kill_twice)
    # Killed, resumed on another ISA and thread count and killed again, resumed again.
    reference_run
    start_and_wait --threads 2
    kill -KILL $pid
    wait $pid
    first=$(stat -c %y ck.h5)
    "$SKEIN" run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --resume ck.h5 --isa scalar --threads 1 --quiet \
        >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    freeze_after_checkpoint ck.h5 "$first" # after a checkpoint of its own
    kill -KILL $pid
    wait $pid
    status=$?
    expect_status 137
    resume --threads 2
    expect_status 0
    expect_same_outputs
    expect_clean
    ;;
interrupt_resume)
    # Ctrl-C after a checkpoint: exit 130, the outputs kept marked incomplete, one line saying how to go on;
    # the resumed run's outputs equal the uninterrupted run's and replace the incomplete ones.
    reference_run
    start_and_wait
    kill -INT $pid
    kill -CONT $pid
    wait $pid
    status=$?
    expect_status 130
    grep -qE "^skein: interrupted at step [0-9]+ of ${plan[1]}; what was written up to that step is kept as out.h5.incomplete \(attribute complete = 0\) out.csv.incomplete \(any earlier file under the outputs' own names is left as it was\); the checkpoint ck.h5 \(step [0-9]+\) is kept: go on from it with --resume ck.h5$" \
        "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    [ -s out.csv.incomplete ] && [ -s out.h5.incomplete ] || fail "the incomplete outputs are missing"
    [ ! -e out.csv ] && [ ! -e out.h5 ] || fail "an interrupted run wrote under the outputs' own names"
    resume --quiet
    expect_status 0
    expect_same_outputs
    expect_clean
    ;;
shared_checkpoint)
    # One checkpoint, one run: a second run naming the same --checkpoint (or --resume) while the first runs
    # is refused at once (exit 2), before its first step and long before the first run's first checkpoint,
    # and touches nothing of it; a run killed with SIGKILL leaves no claim behind, so --resume goes on.
    busy="another run is using this checkpoint (it holds ck.h5.lock); wait for it to end, or name another checkpoint"
    "$SKEIN" run "$long" --steps 100000000 --every 1000 --csv first.csv --checkpoint ck.h5 --checkpoint-every 50000000 \
        --quiet >"$SCRATCH/out1" 2>"$SCRATCH/err1" &
    pid=$!
    for _ in $(seq 2000); do cpu_over 20 && break; sleep 0.01; done
    cpu_over 20 || fail "the first run is not stepping: $(cat "$SCRATCH/err1")"
    run_skein run "$long" --steps 50 --every 10 --csv other.csv --checkpoint ck.h5 --checkpoint-every 10 --quiet
    expect_status 2
    expect_stderr "skein: --checkpoint ck.h5: $busy"
    [ ! -e other.csv ] || fail "the second run wrote its output"
    kill -0 $pid 2>/dev/null || fail "the first run stopped: $(cat "$SCRATCH/err1")"
    kill -KILL $pid
    wait $pid
    # nothing holds it now: a run takes it, finishes and removes it
    run_skein run "$long" --steps 50 --every 10 --csv other.csv --checkpoint ck.h5 --checkpoint-every 10 --quiet
    expect_status 0
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] && [ ! -e ck.h5.lock ] || fail "left $(ls)"
    # killed after a checkpoint, resumed: a second --resume meanwhile is refused; then the run goes on
    reference_run
    start_and_wait
    kill -KILL $pid
    wait $pid
    "$SKEIN" run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --resume ck.h5 --quiet >"$SCRATCH/out1" 2>"$SCRATCH/err1" &
    pid=$!
    # the killed run's ck.h5.lock is still there, unheld: wait until the resumed run holds it (/proc/locks
    # lists the locks by inode), then freeze it
    held() {
        local ino
        ino=$(stat -c %i ck.h5.lock 2>/dev/null) || return 1
        awk -v i="$ino" '{ n = split($6, a, ":"); if (a[n] == i) f = 1 } END { exit !f }' /proc/locks
    }
    for _ in $(seq 2000); do held && break; kill -0 $pid 2>/dev/null || break; sleep 0.01; done
    kill -STOP $pid
    held || fail "the resumed run holds no claim on ck.h5.lock: $(cat /proc/locks)"
    sum=$(cksum <ck.h5)
    run_skein run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --resume ck.h5
    expect_status 2
    expect_stderr "skein: --resume ck.h5: $busy"
    run_skein run --resume ck.h5
    expect_status 2
    expect_stderr "skein: --resume ck.h5: $busy"
    [ "$(cksum <ck.h5)" = "$sum" ] || fail "a refused run changed ck.h5"
    kill -CONT $pid
    wait $pid
    status=$?
    expect_status 0
    expect_same_outputs
    expect_clean
    [ ! -e ck.h5.lock ] || fail "ck.h5.lock is left"
    ;;
resume_elsewhere)
    # Killed in one directory, resumed from another (the checkpoint named by its path there): the killed
    # run's temporaries (out.csv.tmp.*, out.h5.tmp.*, res.csv.tmp.*) are removed wherever the resumed run
    # starts, since its checkpoint records them by absolute path.
    reference_run
    mkdir first second
    cd first || fail "no directory first"
    start_and_wait --results res.csv
    kill -KILL $pid
    wait $pid
    left=$(ls out.csv.tmp.* out.h5.tmp.* res.csv.tmp.* 2>/dev/null | wc -l)
    [ "$left" -eq 3 ] || fail "the killed run did not leave its three temporaries: $(ls)"
    cd ../second || fail "no directory second"
    run_skein run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --results res.csv --resume ../first/ck.h5 --quiet
    expect_status 0
    cd .. || fail "no scratch directory"
    cmp -s ref.csv second/out.csv || fail "second/out.csv differs from the uninterrupted run's"
    left=$(cd first && ls)
    [ -z "$left" ] || fail "left in the killed run's directory: $left"
    ;;
resume_absolute)
    # `--resume ck.h5` alone takes outputs outside the current directory (a cluster job's /scratch) where the
    # run that recorded them is seen to have written: its temporaries there after a kill, its .incomplete
    # files after a Ctrl-C (SIGTERM). The final names must be free, as for any recalled output.
    reference_run
    mkdir abs
    abs="$SCRATCH/abs"
    for stop in KILL INT; do
        "$SKEIN" run "$long" "${plan[@]}" --csv "$abs/out.csv" --h5 "$abs/out.h5" --checkpoint ck.h5 \
            --checkpoint-every $K --quiet >"$SCRATCH/out" 2>"$SCRATCH/err" &
        pid=$!
        freeze_after_checkpoint ck.h5
        kill -$stop $pid
        kill -CONT $pid
        wait $pid
        if [ $stop = INT ]; then
            [ -e "$abs/out.csv.incomplete" ] && [ -e "$abs/out.h5.incomplete" ] || fail "the Ctrl-C kept $(ls abs)"
        else
            [ "$(ls abs | grep -c '\.tmp\.')" -eq 2 ] || fail "the kill left $(ls abs)"
        fi
        run_skein run --resume ck.h5 --quiet
        expect_status 0
        cmp -s ref.csv "$abs/out.csv" || fail "abs/out.csv differs from the uninterrupted run's ($stop)"
        h5diff ref.h5 "$abs/out.h5" >"$SCRATCH/diff" 2>&1 || fail "h5diff ($stop): $(head -5 "$SCRATCH/diff")"
        left=$(ls abs | grep -v '^out\.csv$\|^out\.h5$')
        [ -z "$left" ] || fail "left in abs ($stop): $left"
        [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "the checkpoint is left ($stop)"
        rm abs/out.csv abs/out.h5
    done
    ;;
resume_alone)
    # Ctrl-C after a checkpoint, then `skein run --resume ck.h5` and nothing else: the checkpoint's scenario,
    # plan, outputs and engine stand in for the command line; the outputs equal the uninterrupted run's. The
    # scenario file is gone by then: the scenario comes from the checkpoint.
    cp "$long" "$SCRATCH/long.json"
    long="$SCRATCH/long.json"
    reference_run
    start_and_wait
    kill -INT $pid
    kill -CONT $pid
    wait $pid
    status=$?
    expect_status 130
    rm "$long"
    run_skein run --resume ck.h5
    expect_status 0
    expect_stdout_has "scenario     $long"
    grep -qE "^steps +${plan[1]} \(dt [0-9.e-]+ s, [0-9.]+ s simulated\), resumed at step [1-9][0-9]*$" "$SCRATCH/out" ||
        fail "summary: $(grep steps "$SCRATCH/out")"
    expect_same_outputs
    expect_clean
    ;;
refused)
    # Checkpoints that are not this run's: exit 2, one line, nothing written.
    # a finished run leaves no checkpoint: a killed one does
    "$SKEIN" run "$long" --steps 6000000 --every 100 --ropes 0 --csv out.csv --checkpoint ck.h5 --checkpoint-every 100 \
        --quiet >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    for _ in $(seq 2000); do
        [ -e ck.h5 ] && break
        sleep 0.01
    done
    kill -KILL $pid
    wait $pid
    [ -e ck.h5 ] || fail "no checkpoint to refuse"
    rm -f out.csv.tmp.* # what the kill left (a resumed run would remove it)
    good=(run "$long" --steps 6000000 --every 100 --ropes 0 --csv out.csv --resume ck.h5)
    refuse() { # refuse WORDS ARGS...: exit 2, stderr one line starting "skein: " holding WORDS, no output
        local words=$1
        shift
        run_skein "$@"
        expect_status 2
        [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$SCRATCH/err")"
        grep -qF -- "$words" "$SCRATCH/err" || fail "stderr lacks [$words]: $(cat "$SCRATCH/err")"
        expect_no_output "$SCRATCH" out.csv
    }
    refuse "ck.h5: written for another scenario than $long (the file, or its overrides, differ)" \
        "${good[@]}" --set 'groups[0].mass=0.06'
    refuse "ck.h5: written by the batch engine; resume it with --engine batch" "${good[@]}" --engine reference
    refuse "ck.h5: the run that wrote it goes to step 6000000, this one to step 7000000" \
        run "$long" --steps 7000000 --every 100 --ropes 0 --csv out.csv --resume ck.h5
    refuse "ck.h5: the run that wrote it has a frame every 100 steps, this one every 200" \
        run "$long" --steps 6000000 --every 200 --ropes 0 --csv out.csv --resume ck.h5
    refuse "ck.h5: the run that wrote it writes other ropes (1 of them): resume with the same --ropes" \
        run "$long" --steps 6000000 --every 100 --ropes 0,1 --csv out.csv --resume ck.h5
    refuse "ck.h5: the run that wrote it has the outputs --csv out.csv: resume with the same --csv and --h5" \
        run "$long" --steps 6000000 --every 100 --ropes 0 --csv other.csv --resume ck.h5
    refuse "ck.h5: a checkpoint is there already: go on from it with --resume ck.h5, or remove it to start over" \
        run "$long" --csv out.csv --checkpoint ck.h5 --checkpoint-every 100
    refuse "--checkpoint needs --checkpoint-every K" run "$long" --csv out.csv --checkpoint new.h5
    refuse "--checkpoint-every needs --checkpoint FILE" run "$long" --csv out.csv --checkpoint-every 5
    refuse "--checkpoint and --resume: give one" "${good[@]}" --checkpoint ck.h5 --checkpoint-every 5
    refuse "missing.h5: cannot open the checkpoint: No such file or directory" \
        run "$long" --steps 6000000 --every 100 --ropes 0 --csv out.csv --resume missing.h5
    # --resume alone: what it recorded fills in the rest; what is given must still be this run's
    refuse "missing.h5: cannot open the checkpoint: No such file or directory" run --resume missing.h5
    refuse "--set needs the scenario FILE: --resume ck.h5 alone goes on with the scenario it recorded" \
        run --resume ck.h5 --set 'groups[0].mass=0.06'
    refuse "ck.h5: the run that wrote it goes to step 6000000, this one to step 7000000" \
        run --resume ck.h5 --steps 7000000
    refuse "ck.h5: the run that wrote it has the outputs --csv out.csv: resume with the same --csv and --h5" \
        run --resume ck.h5 --csv other.csv
    # a checkpoint must not choose what a run replaces: a recorded output that is there already is named again
    touch out.csv
    run_skein run --resume ck.h5
    expect_status 2
    grep -qxF "skein: ck.h5: records the output out.csv, which is there already; name it again with --csv to replace it" \
        "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    [ ! -s out.csv ] || fail "out.csv was written"
    rm out.csv
    # ... and one outside the current directory (here an absolute path) too
    "$SKEIN" run "$long" --steps 6000000 --every 100 --ropes 0 --csv "$SCRATCH/abs.csv" --checkpoint ck2.h5 \
        --checkpoint-every 100 --quiet >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    for _ in $(seq 2000); do
        [ -e ck2.h5 ] && break
        sleep 0.01
    done
    kill -KILL $pid
    wait $pid
    # without the killed run's temporary beside it (or a Ctrl-C's abs.csv.incomplete), nothing shows that this
    # run wrote there (resume_absolute: with it, the run goes on)
    rm -f "$SCRATCH"/abs.csv.tmp.*
    refuse "ck2.h5: records the output $SCRATCH/abs.csv, outside the current directory; name it again with --csv to write there" \
        run --resume ck2.h5
    cp ck.h5 saved.h5
    head -c 5000 saved.h5 >ck.h5
    refuse "ck.h5: the checkpoint is damaged or cut short" "${good[@]}"
    cp saved.h5 ck.h5
    printf 'X' | dd of=ck.h5 bs=1 seek=3000 conv=notrunc status=none
    refuse "ck.h5: the checkpoint is damaged (its checksum does not match)" "${good[@]}"
    [ -e ck.h5 ] || fail "a refused checkpoint was removed"
    cp saved.h5 ck.h5
    run_skein run "$long" --steps 2 --h5 plain.h5 --quiet
    refuse "plain.h5: not a skein checkpoint" \
        run "$long" --steps 6000000 --every 100 --ropes 0 --csv out.csv --resume plain.h5
    mv ck.h5.frames frames.saved
    refuse "ck.h5.frames: cannot open the frame journal the checkpoint refers to: No such file or directory" "${good[@]}"
    mv frames.saved ck.h5.frames
    ;;
vtk_results | vtk_results_reference | vtk_results_diverge)
    # --vtk and --results with checkpoints: killed after a checkpoint (2 threads) and resumed (1 thread), the
    # VTK directory equals an uninterrupted run's file for file and byte for byte, and so does the results
    # table: its largest tensions and strains are over every step, those before the checkpoint included, which
    # the checkpoint kept. With the reference engine (and --vtk-cells ropes); with ropes that diverge before
    # and after the checkpoint (a diverged rope reports the extremes up to the check before). The killed
    # run's temporary directory is removed, and the .incomplete outputs of an earlier Ctrl-C; another run's
    # temporary directory beside them stays.
    extra=()
    want_status=0
    cells=links
    if [ "$CASE" = vtk_results_reference ]; then
        extra=(--engine reference)
        plan=(--steps $((${plan[1]} / 6)) --every $((${plan[3]} / 4)))
        K=$((K / 4))
        cells=ropes
    elif [ "$CASE" = vtk_results_diverge ]; then
        extra=(--set 'groups[0].sweep.link.stiffness={"from": 150, "to": 2.5e5}')
        want_status=3
    fi
    outs() { echo --vtk "$1" --vtk-cells $cells --results "$1.csv"; }
    run_skein run "$long" "${plan[@]}" $(outs ref) --quiet "${extra[@]}"
    expect_status $want_status
    # the table holds extremes, not empty cells, for the ropes with links
    [ "$(awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) if ($i != "") n++; print n }' ref.csv)" -gt 10 ] ||
        fail "ref.csv has no figures: $(head -2 ref.csv)"
    "$SKEIN" run "$long" "${plan[@]}" $(outs pv) --checkpoint ck.h5 --checkpoint-every $K --threads 2 --quiet \
        "${extra[@]}" >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    freeze_after_checkpoint ck.h5
    kill -KILL $pid
    wait $pid
    status=$?
    expect_status 137
    own=$(ls -d pv.tmp.*)
    [ -d "$own" ] && [ -e "$(ls pv.csv.tmp.*)" ] || fail "the killed run left no temporaries: $(ls)"
    [ ! -e pv ] && [ ! -e pv.csv ] || fail "a killed run left an output under its own name"
    mkdir pv.tmp.Other1 pv.incomplete
    cp "$own/frame_000000.vtp" pv.tmp.Other1/
    cp "$own/frame_000000.vtp" pv.incomplete/ # as a Ctrl-C of an earlier run keeps them: superseded
    cp ref.csv pv.csv.incomplete # a results table, as a Ctrl-C keeps it
    run_skein run "$long" "${plan[@]}" $(outs pv) --resume ck.h5 --threads 1 "${extra[@]}"
    expect_status $want_status
    expect_stdout_has "checkpoint   ck.h5 removed: the run finished"
    diff -r ref pv >"$SCRATCH/diff" 2>&1 || fail "the VTK directory differs: $(head -5 "$SCRATCH/diff")"
    cmp -s ref.csv pv.csv || fail "the results table differs: $(diff ref.csv pv.csv | head -5)"
    [ ! -e "$own" ] || fail "$own, the killed run's temporary directory, is left"
    [ -e pv.tmp.Other1/frame_000000.vtp ] || fail "another run's temporary directory was removed"
    rm -r pv.tmp.Other1
    [ ! -e pv.incomplete ] && [ ! -e pv.csv.incomplete ] || fail "an .incomplete output is left"
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "the checkpoint or its journal is left after the run finished"
    expect_no_temp . pv
    expect_no_temp . pv.csv
    expect_no_temp . ck.h5
    ;;
refused_vtk_results)
    # A checkpoint of a run with --vtk and --results resumed without them, or with another directory, layout
    # or table: exit 2, one line, nothing written; a checkpoint of a run without them resumed with them too.
    taken() { # taken CK ARGS...: a checkpointed run killed once its first checkpoint is there
        local ck=$1
        shift
        "$SKEIN" run "$long" --steps 6000000 --every 100 --ropes 0 --checkpoint $ck --checkpoint-every 100 --quiet \
            "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" &
        pid=$!
        for _ in $(seq 2000); do
            [ -e $ck ] && break
            sleep 0.01
        done
        kill -KILL $pid
        wait $pid
        [ -e $ck ] || fail "no checkpoint to refuse"
    }
    taken ck.h5 --vtk pv --results res.csv
    taken plain.h5 --csv plain.csv
    rm -rf pv.tmp.* res.csv.tmp.* plain.csv.tmp.* # what the kills left (a resumed run would remove them)
    base=(run "$long" --steps 6000000 --every 100 --ropes 0)
    refuse() { # refuse WORDS ARGS...: exit 2, stderr one line holding WORDS, nothing written
        local words=$1
        shift
        run_skein "$@"
        expect_status 2
        [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$SCRATCH/err")"
        grep -qF -- "$words" "$SCRATCH/err" || fail "stderr lacks [$words]: $(cat "$SCRATCH/err")"
        for f in pv other res.csv other.csv plain.csv; do expect_no_output . $f; done
    }
    vtk_words="ck.h5: the run that wrote it has --vtk pv --vtk-cells links: resume with the same --vtk and --vtk-cells"
    refuse "$vtk_words" "${base[@]}" --results res.csv --resume ck.h5
    refuse "$vtk_words" "${base[@]}" --vtk other --results res.csv --resume ck.h5
    refuse "$vtk_words" "${base[@]}" --vtk pv --vtk-cells ropes --results res.csv --resume ck.h5
    refuse "ck.h5: the run that wrote it has --results res.csv: resume with the same --results" \
        "${base[@]}" --vtk pv --resume ck.h5
    refuse "ck.h5: the run that wrote it has --results res.csv: resume with the same --results" \
        "${base[@]}" --vtk pv --results other.csv --resume ck.h5
    refuse "plain.h5: the run that wrote it has no --vtk: resume with the same --vtk and --vtk-cells" \
        "${base[@]}" --csv plain.csv --vtk pv --resume plain.h5
    refuse "plain.h5: the run that wrote it has no --results: resume with the same --results" \
        "${base[@]}" --csv plain.csv --results res.csv --resume plain.h5
    [ -e ck.h5 ] && [ -e plain.h5 ] || fail "a refused checkpoint was removed"
    ;;
full_csv | full_h5)
    # The disk under one output fills up after some checkpoints: exit 1 naming the file and the reason, the
    # checkpoint kept, no output under its name, no temporary; with room again, the resumed run's outputs
    # equal the uninterrupted run's.
    if [ "$CASE" = full_csv ]; then
        # a hundred ropes written, so that the CSV's buffer goes to the disk during the run
        plan+=(--ropes 0-99)
        outs=(--csv disk/out.csv --h5 out.h5)
        full=disk/out.csv
        small_disk 2560
    else
        outs=(--csv out.csv --h5 disk/out.h5)
        full=disk/out.h5
        small_disk 128
    fi
    K=${plan[3]} # a checkpoint every frame: the disk fills up after some, whatever the real type's size
    reference_run
    if [ -n "$stand_in" ]; then
        # no tmpfs: a size limit fails whichever file reaches it first; the failure alone is checked
        run_limited run "$long" "${plan[@]}" "${outs[@]}" --checkpoint ck.h5 --checkpoint-every $K --quiet
        expect_status 1
        grep -qE "^skein: [a-z./]+: [a-z ]+: File too large; " "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
        expect_no_output "$SCRATCH" out.csv
        expect_no_output "$SCRATCH" out.h5
        echo "no tmpfs here: the failure under a file size limit was checked, not the resume"
        exit 0
    fi
    run_skein run "$long" "${plan[@]}" "${outs[@]}" --checkpoint ck.h5 --checkpoint-every $K --quiet
    expect_status 1
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$SCRATCH/err")"
    grep -qE "^skein: $full: [a-z ]+: No space left on device; the checkpoint ck.h5 \(step [0-9]+\) is kept: go on from it with --resume ck.h5$" \
        "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    for f in out.csv out.h5; do
        expect_no_output "$SCRATCH" $f
        expect_no_output "$SCRATCH/disk" $f
    done
    [ -s ck.h5 ] && [ -s ck.h5.frames ] || fail "the checkpoint was not kept"
    mount -o remount,size=64m "$SCRATCH/disk" || fail "cannot grow the tmpfs"
    run_skein run "$long" "${plan[@]}" "${outs[@]}" --resume ck.h5 --quiet
    expect_status 0
    if [ "$CASE" = full_csv ]; then mv disk/out.csv out.csv; else mv disk/out.h5 out.h5; fi
    expect_same_outputs
    expect_clean
    ;;
full_checkpoint)
    # The disk under the checkpoint and its journal fills up once the first checkpoint is there: exit 1 naming
    # the file and the reason, the first checkpoint kept whole, no temporary; the run resumes from it.
    reference_run
    small_disk 8192
    if [ -n "$stand_in" ]; then
        # no tmpfs: a size limit under the checkpoint's size fails the first checkpoint itself
        stand_in=256
        run_limited run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --checkpoint disk/ck.h5 --checkpoint-every $K --quiet
        expect_status 1
        grep -qE "^skein: disk/ck.h5: cannot write the checkpoint: File too large \(it needs about [0-9.]+ MB, 0.3 MB is the file size limit\); no checkpoint was taken yet$" \
            "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
        expect_no_temp disk ck.h5
        [ ! -e disk/ck.h5 ] || fail "a checkpoint that could not be written is there"
        expect_no_output "$SCRATCH" out.csv
        expect_no_output "$SCRATCH" out.h5
        echo "no tmpfs here: the failure under a file size limit was checked, not the resume"
        exit 0
    fi
    "$SKEIN" run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --checkpoint disk/ck.h5 --checkpoint-every $K --quiet \
        >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    for _ in $(seq 2000); do
        [ -e disk/ck.h5 ] && break
        sleep 0.01
    done
    [ -e disk/ck.h5 ] || fail "no first checkpoint"
    dd if=/dev/zero of=disk/filler bs=64k status=none 2>/dev/null # the disk is full
    wait $pid
    status=$?
    expect_status 1
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not one line: $(cat "$SCRATCH/err")"
    grep -qE "^skein: disk/ck.h5(.frames)?: [a-z ]+(: [a-z ]+)?: No space left on device( \([^)]*\))?; the checkpoint disk/ck.h5 \(step [0-9]+\) is kept: go on from it with --resume disk/ck.h5$" \
        "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    expect_no_temp disk ck.h5
    expect_no_output "$SCRATCH" out.csv
    expect_no_output "$SCRATCH" out.h5
    rm disk/filler
    run_skein run "$long" "${plan[@]}" --csv out.csv --h5 out.h5 --resume disk/ck.h5 --quiet
    expect_status 0
    expect_same_outputs
    [ ! -e disk/ck.h5 ] && [ ! -e disk/ck.h5.frames ] || fail "the checkpoint is left after the run finished"
    ;;
*) fail "no such case $CASE" ;;
esac
exit 0
