#!/usr/bin/env bash
# skein run across processes (mpirun --oversubscribe -np 2 and 3): the CSV byte for byte and the HDF5 file
# (h5diff; written collectively through MPI-IO, each rank its own rows) of a single process, and the summary's
# totals; a rank that fails stops every rank with one line naming it and no file left; Ctrl-C keeps the
# outputs marked incomplete; checkpoints killed and resumed with another number of processes give the
# uninterrupted run's outputs; the results table; refusals.
# Usage: mpi.sh SKEIN SRC MPIRUN CASE
source "$(dirname "$0")/../cli/lib.sh"
MPIRUN=$1
shift
# Open MPI refuses root (CI runs as root) unless told twice.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one thread per rank: the ranks share CI's two cores
run_ranks() {
    local ranks=$1
    shift
    local one=(--threads 1) # each option once: not where the command line has its own
    [[ " $* " == *" --threads "* ]] && one=()
    "$MPIRUN" --oversubscribe -np "$ranks" "$SKEIN" "$@" "${one[@]}" >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
}

# The summary without what differs by design (threads, timings, the outputs' names).
totals() { grep -vE '^(threads|wall time|speed|output) ' "$1"; }

# same_as_one_process STATUS ARGS...: one process, then 2 and 3 ranks (or $RANKS); the same files and totals.
same_as_one_process() {
    local want=$1
    shift
    run_skein "$@" --csv one.csv --h5 one.h5
    expect_status "$want"
    cp out one.txt
    cp err one.err
    for ranks in ${RANKS:-2 3}; do
        run_ranks $ranks "$@" --csv r$ranks.csv --h5 r$ranks.h5
        expect_status "$want"
        cmp one.csv r$ranks.csv || fail "$ranks ranks: the CSV differs from one process's"
        h5diff one.h5 r$ranks.h5 >diff.txt 2>&1 || fail "$ranks ranks: h5diff: $(head -5 diff.txt)"
        [ "$(totals one.txt)" = "$(totals out)" ] || fail "$ranks ranks: the summary differs: $(diff <(totals one.txt) <(totals out))"
        [ "$ranks" -eq 1 ] || grep -q "^threads      1 in each of $ranks processes$" out ||
            fail "$ranks ranks: no threads line: $(cat out)"
        # a note (ropes diverged) is one process's, once
        [ "$(grep '^skein:' err)" = "$(cat one.err)" ] || fail "$ranks ranks: stderr [$(cat err)], one process [$(cat one.err)]"
        expect_no_temp . r$ranks.csv
        expect_no_temp . r$ranks.h5
    done
}

SC=$SRC/scenarios

# The checkpoint tests' run: tests/checkpoint/long.json made smaller (three groups: springs on the ground,
# rods, deploying ropes), its first checkpoint at step 500 of 12000, so that most of the run is still ahead of
# a kill after it.
ck_run=(run "$SRC/tests/checkpoint/long.json" --steps 12000 --every 500 --set 'groups[0].count=30'
    --set 'groups[1].count=10' --set 'groups[2].count=8' --set 'output.ropes=[0,1,29,30,31,39,40,41,47]' --threads 1)

# kill_after_checkpoint RANKS: the checkpointed run across RANKS processes (1: skein alone, no mpirun) in the
# background (its outputs out.csv and out.h5, or those in the array ck_outputs); once its first checkpoint is
# there, every process of it frozen (SIGSTOP) and killed (SIGKILL).
kill_after_checkpoint() {
    local ranks=$1 procs
    local outputs=(--csv out.csv --h5 out.h5)
    [ -z "${ck_outputs+x}" ] || outputs=("${ck_outputs[@]}")
    if [ "$ranks" -eq 1 ]; then
        "$SKEIN" "${ck_run[@]}" "${outputs[@]}" --checkpoint ck.h5 --checkpoint-every 500 >out 2>err &
    else
        "$MPIRUN" --oversubscribe -np "$ranks" "$SKEIN" "${ck_run[@]}" "${outputs[@]}" --checkpoint ck.h5 \
            --checkpoint-every 500 >out 2>err &
    fi
    pid=$!
    for _ in $(seq 2000); do
        [ -e ck.h5 ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    procs="$(pgrep -P $pid) $pid"
    # shellcheck disable=SC2086
    kill -STOP $procs 2>/dev/null
    [ -e ck.h5 ] && [ -e ck.h5.frames ] || fail "$ranks ranks: no checkpoint was written: $(cat err)"
    # shellcheck disable=SC2086
    kill -KILL $procs 2>/dev/null
    wait $pid 2>/dev/null
    [ ! -e out.csv ] && [ ! -e out.h5 ] || fail "$ranks ranks: a killed run left an output under its own name"
}

# The resumed run's outputs are the uninterrupted run's (ref.csv, ref.h5), and nothing of the checkpoint is left.
expect_resumed() {
    expect_status 0
    grep -qE "^steps +12000 .*, resumed at step [1-9][0-9]*$" out || fail "$1: summary: $(cat out)"
    grep -q "^checkpoint   ck.h5 removed: the run finished$" out || fail "$1: summary: $(cat out)"
    cmp ref.csv out.csv || fail "$1: the CSV differs from the uninterrupted run's"
    h5diff ref.h5 out.h5 >diff.txt 2>&1 || fail "$1: h5diff: $(head -5 diff.txt)"
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "$1: the checkpoint or its journal is left"
    for f in ck.h5 out.csv out.h5; do expect_no_temp . $f; done
}

case $1 in
w1)
    # springs with a linear and a random sweep (each rope keeps its values wherever it runs)
    same_as_one_process 0 run "$SC/w1_springs.json" --steps 200 --every 50 --set 'groups[0].count=50' \
        --set 'output.ropes=[0,16,17,24,25,33,49]' \
        --set 'groups[0].sweep={"link.stiffness":{"from":100,"to":1000},"mass":{"random":{"min":0.05,"max":0.2,"seed":7}}}'
    ;;
w2)
    # rods, a rod anchor and the ground: Cyclone's resolver, contacts in the summary; 1 to 4 ranks (mpirun
    # -np 1 runs as one process)
    RANKS="1 2 3 4" same_as_one_process 0 run "$SC/w2_rods.json" --steps 60 --every 20 --set 'groups[0].count=24' \
        --set 'output.ropes=[0,7,8,11,12,23]'
    grep -q "contacts   last step" one.txt || fail "no contacts in the summary: $(cat one.txt)"
    ;;
deploying)
    # deploying ropes (implicit, a deployment speed sweep) past their first insertions, beside a second group
    cat >deploying.json <<'JSON'
{
  "skein": 1, "dt": 1e-3, "steps": 300, "integrator": "implicit", "gravity": [0, -9.81, 0],
  "groups": [
    { "count": 7, "particles": 12, "start": [1.0606601717798212, 98.939339828220179, 0],
      "end": [0.35355339059327379, 99.646446609406726, 0], "mass": 0.003,
      "link": { "type": "spring", "stiffness": 3e5, "length": 1 },
      "anchor": { "type": "anchored_spring", "point": [0, 100, 0], "stiffness": 3e5, "length": 0.5 },
      "deploy": { "velocity": 2, "initial_particles": 2, "insert_velocity": "along" },
      "sweep": { "deploy.velocity": { "from": 1, "to": 4 } } },
    { "count": 5, "particles": 8, "start": [0, 0, 0], "end": [0.7, 0, 0], "mass": 0.1, "pinned": [0],
      "link": { "type": "spring", "stiffness": 500, "length": 0.1 } }
  ],
  "output": { "every": 100 }
}
JSON
    same_as_one_process 0 run deploying.json
    [ "$(awk -F, 'NR > 1 && $2 == 300 && $1 == 6' one.csv | wc -l)" -gt 2 ] || fail "rope 6 did not deploy"
    ;;
diverging)
    # the stiffest ropes blow up (omega dt > 2 for symplectic Euler): exit 3 everywhere, the same note
    same_as_one_process 3 run "$SC/w1_springs.json" --steps 100 --every 25 --set 'groups[0].count=30' \
        --set 'output.ropes=[0,14,15,29]' --set 'groups[0].sweep={"link.stiffness":{"from":100,"to":1e8}}'
    grep -q "ropes diverged" one.err || fail "no rope diverged: $(cat one.err)"
    ;;
failing_rank)
    # rank 1 fails at its frame of step 100 (as a full disk or a lost node would): every rank stops with exit 1,
    # one line naming rank 1, no output and no temporary left
    SKEIN_TEST_FAIL_RANK=1:100 run_ranks 3 run "$SC/w1_springs.json" --steps 300 --every 50 \
        --set 'groups[0].count=30' --set 'output.ropes=[0,29]' --csv out.csv --h5 out.h5
    [ "$status" -eq 1 ] || fail "exit status $status, expected 1"
    [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "not one line: $(cat err)"
    grep -qx "skein: rank 1: $SC/w1_springs.json: frame of step 100: injected failure (SKEIN_TEST_FAIL_RANK)" err ||
        fail "stderr: $(cat err)"
    expect_no_output . out.csv
    expect_no_output . out.h5
    # an output rank 0 cannot create: refused before anything runs, naming rank 0
    run_ranks 2 run "$SC/w1_springs.json" --steps 10 --set 'groups[0].count=4' --set 'output.ropes=[0]' \
        --csv missing/out.csv
    [ "$status" -eq 2 ] || fail "exit status $status, expected 2"
    [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "not one line: $(cat err)"
    grep -q "^skein: rank 0: --csv missing/out.csv" err || fail "stderr: $(cat err)"
    ;;
interrupted)
    # Ctrl-C in a terminal reaches every rank: they stop at the same step and rank 0 keeps both outputs marked
    # incomplete, their frames a single process's up to there
    run_skein run "$SC/w1_springs.json" --steps 3000 --every 100 --set 'groups[0].count=64' \
        --set 'output.ropes=[0,63]' --csv full.csv
    expect_status 0
    "$MPIRUN" --oversubscribe -np 2 "$SKEIN" run "$SC/w1_springs.json" --steps 100000000 --every 100 \
        --set 'groups[0].count=64' --set 'output.ropes=[0,63]' --threads 1 --csv out.csv --h5 out.h5 \
        --results res.csv >out 2>err &
    pid=$!
    waited=0
    until file_over 'out.csv.tmp.*' 200000; do
        sleep 0.05
        waited=$((waited + 1))
        [ "$waited" -lt 1200 ] || { kill -KILL "$pid"; fail "no sign of stepping after 60 s"; }
    done
    for rank in $(pgrep -P "$pid"); do kill -INT "$rank"; done
    wait "$pid"
    status=$?
    [ "$status" -eq 130 ] || fail "exit status $status, expected 130: $(cat err)"
    grep -q "^skein: interrupted at step [0-9]* of 100000000; what was written up to that step is kept as out.h5.incomplete" err ||
        fail "stderr: $(cat err)"
    [ -s out.csv.incomplete ] && [ -s out.h5.incomplete ] || fail "no incomplete outputs: $(ls)"
    expect_no_output . out.csv
    expect_no_output . out.h5
    expect_no_output . res.csv
    # the table: a row per rope (64, from both ranks) where they stopped, marked incomplete
    grep -q "out.csv.incomplete res.csv.incomplete (any earlier" err || fail "stderr: $(cat err)"
    [ "$(wc -l <res.csv.incomplete)" -eq 65 ] || fail "the table has $(wc -l <res.csv.incomplete) lines, expected 65"
    [ "$(cut -d, -f1 res.csv.incomplete | sed 1d | tr '\n' ' ')" = "$(seq -s ' ' 0 63) " ] ||
        fail "the table's ropes: $(cut -d, -f1 res.csv.incomplete | tr '\n' ' ')"
    h5dump -a complete out.h5.incomplete | grep -q '(0): 0' || fail "the HDF5 file is not marked incomplete"
    # the frames on the grid of 100 steps that both have are the same rows
    last=$(awk -F, 'NR > 1 && $2 % 100 == 0 && $2 <= 3000 { s = $2 } END { print s }' out.csv.incomplete)
    [ "$last" -ge 100 ] || fail "the run stopped before its second frame"
    [ "$(awk -F, -v s="$last" 'NR == 1 || $2 <= s' out.csv.incomplete)" = "$(awk -F, -v s="$last" 'NR == 1 || $2 <= s' full.csv)" ] ||
        fail "the incomplete CSV is not a single process's up to step $last"
    ;;
interrupted_mpirun)
    # Ctrl-C to mpirun (in a terminal it reaches mpirun alone: Open MPI puts each rank in its own process group):
    # mpirun sets its own exit status to 1, sends the ranks SIGTERM odls_base_sigkill_timeout seconds later,
    # which they take as Ctrl-C, and SIGKILL as long again after; given the time, rank 0 keeps the outputs
    # marked incomplete and says so, but mpirun exits 1 (docs/cluster.md)
    "$MPIRUN" --oversubscribe --mca odls_base_sigkill_timeout 5 -np 2 "$SKEIN" run "$SC/w1_springs.json" \
        --steps 100000000 --every 100 --set 'groups[0].count=64' --set 'output.ropes=[0,63]' --threads 1 \
        --csv out.csv --h5 out.h5 --results res.csv >out 2>err &
    pid=$!
    waited=0
    until file_over 'out.csv.tmp.*' 20000; do
        sleep 0.05
        waited=$((waited + 1))
        [ "$waited" -lt 1200 ] || { kill -KILL "$pid"; fail "no sign of stepping after 60 s"; }
    done
    kill -INT "$pid"
    wait "$pid"
    status=$?
    [ "$status" -eq 1 ] || fail "mpirun's exit status $status, expected 1 (Open MPI's for a job it aborted): $(cat err)"
    grep -q "^skein: interrupted at step [0-9]* of 100000000; what was written up to that step is kept as" err ||
        fail "stderr: $(cat err)"
    [ -s out.csv.incomplete ] && [ -s out.h5.incomplete ] && [ -s res.csv.incomplete ] ||
        fail "no incomplete outputs: $(ls)"
    h5dump -a complete out.h5.incomplete | grep -q '(0): 0' || fail "the HDF5 file is not marked incomplete"
    for f in out.csv out.h5 res.csv; do expect_no_output . $f; done
    ;;
collective)
    # the HDF5 file is written by every rank through MPI-IO, each its own ropes' rows (SKEIN_TEST_H5_SHARES has
    # each say how many): 3000 ropes of 64 particles in chunks of 682 ropes, split at ropes 1000 and 2000, two
    # chunks shared by two ranks; verlet, for the previous positions
    w1=(run "$SC/w1_springs.json" --steps 20 --every 10 --set 'groups[0].count=3000' --set 'output={"every":10}'
        --set 'integrator="verlet"' --quiet)
    run_skein "${w1[@]}" --h5 one.h5
    expect_status 0
    SKEIN_TEST_H5_SHARES=1 run_ranks 3 "${w1[@]}" --h5 r3.h5
    [ "$status" -eq 0 ] || fail "exit status $status: $(cat err)"
    h5diff one.h5 r3.h5 >diff.txt 2>&1 || fail "h5diff: $(head -5 diff.txt)"
    for rank in 0 1 2; do
        grep -qx "h5 share: rank $rank wrote 3000 rope frames" err || fail "rank $rank: not its 1000 ropes x 3 frames: $(cat err)"
    done
    # the same layout, attributes, chunks, filters and compressed sizes; MPI-IO allocates space early and puts
    # the fixed datasets elsewhere
    h5dump -p -A one.h5 | grep -vE '^HDF5 |H5D_ALLOC_TIME_|OFFSET [0-9]+$' >one.layout
    h5dump -p -A r3.h5 | grep -vE '^HDF5 |H5D_ALLOC_TIME_|OFFSET [0-9]+$' >r3.layout
    cmp -s one.layout r3.layout || fail "the layouts differ: $(diff one.layout r3.layout | head -10)"
    [ "$(h5dump -p -A r3.h5 | grep -c H5D_ALLOC_TIME_EARLY)" -ge 8 ] || fail "r3.h5 was not written through MPI-IO"
    expect_no_temp . r3.h5
    # ranks without a rope to store take part with none
    run_skein "${w1[@]}" --set 'output.ropes=[0,1]' --h5 few.h5
    expect_status 0
    SKEIN_TEST_H5_SHARES=1 run_ranks 3 "${w1[@]}" --set 'output.ropes=[0,1]' --h5 few3.h5
    [ "$status" -eq 0 ] || fail "exit status $status: $(cat err)"
    h5diff few.h5 few3.h5 >diff.txt 2>&1 || fail "h5diff: $(head -5 diff.txt)"
    grep -qx "h5 share: rank 0 wrote 6 rope frames" err && grep -qx "h5 share: rank 2 wrote 0 rope frames" err ||
        fail "shares: $(cat err)"
    ;;
memory)
    # the memory check counts each rank's share: a batch that one process may not hold runs across 2
    w1=(run "$SC/w1_springs.json" --steps 1 --quiet)
    SKEIN_MEMORY_LIMIT=1 run_skein "${w1[@]}"
    need=$(sed -n 's/.*the batch needs \([0-9.]*\) MB.*/\1/p' err)
    [ -n "$need" ] || fail "no estimate: $(cat err)"
    two_thirds=$(awk -v mb="$need" 'BEGIN { printf "%d", mb * 1e6 * 2 / 3 }')
    SKEIN_MEMORY_LIMIT=$two_thirds run_skein "${w1[@]}"
    expect_status 2
    SKEIN_MEMORY_LIMIT=$two_thirds run_ranks 2 "${w1[@]}"
    [ "$status" -eq 0 ] || fail "2 ranks under $two_thirds bytes: exit status $status: $(cat err)"
    # under two fifths, half the batch does not fit either: refused as the batch is loaded, exit 2
    SKEIN_MEMORY_LIMIT=$(awk -v mb="$need" 'BEGIN { printf "%d", mb * 1e6 * 2 / 5 }') run_ranks 2 "${w1[@]}"
    [ "$status" -eq 2 ] || fail "exit status $status, expected 2"
    grep -q "^skein: rank 0: $SC/w1_springs.json: groups: the batch needs .* per process across 2 processes" err ||
        fail "stderr: $(cat err)"
    ;;
checkpoint_ranks)
    # checkpoints of 2 ranks, all killed after the first: resumed by 3 ranks (--resume alone: the checkpoint
    # names the run), then again by one process; the outputs are the uninterrupted run's; a full disk
    run_skein "${ck_run[@]}" --csv ref.csv --h5 ref.h5 --quiet
    expect_status 0
    # the ropes' states streamed to rank 0 in chunks of 5 ropes (48 ropes: each rank's in several)
    SKEIN_TEST_CHECKPOINT_CHUNK=5 kill_after_checkpoint 2
    run_ranks 3 run --resume ck.h5
    expect_resumed "2 ranks resumed by 3"
    grep -q "^threads      1 in each of 3 processes$" out || fail "not 3 processes: $(cat out)"
    rm -f out.csv out.h5
    kill_after_checkpoint 2
    run_skein "${ck_run[@]}" --csv out.csv --h5 out.h5 --resume ck.h5
    expect_resumed "2 ranks resumed by one process"
    # a checkpoint rank 0 cannot write (a full disk: a small tmpfs in a mount namespace, where one may be made)
    # stops every rank with one line naming it and no file left, the other ranks' states taken and dropped
    if unshare -m true 2>/dev/null; then
        mkdir disk
        # shellcheck disable=SC2016
        SKEIN_TEST_CHECKPOINT_CHUNK=5 unshare -m bash -c 'mount -t tmpfs -o size=300k tmpfs disk && exec "$@"' _ \
            "$MPIRUN" --oversubscribe -np 3 "$SKEIN" "${ck_run[@]}" --h5 full.h5 --checkpoint disk/ck.h5 \
            --checkpoint-every 500 >out 2>err
        status=$?
        [ "$status" -eq 1 ] || fail "full disk: exit status $status, expected 1: $(cat err)"
        [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "full disk: not one line: $(cat err)"
        grep -q "^skein: rank 0: disk/ck.h5: cannot write the checkpoint: No space left on device .*; no checkpoint was taken yet$" err ||
            fail "full disk: stderr: $(cat err)"
        expect_no_output . full.h5
    fi
    ;;
checkpoint_single)
    # a single process's checkpoint resumed by 2 ranks; a checkpoint of 2 ranks kept by a failure resumed by 3
    run_skein "${ck_run[@]}" --csv ref.csv --h5 ref.h5 --quiet
    expect_status 0
    kill_after_checkpoint 1
    run_ranks 2 "${ck_run[@]}" --csv out.csv --h5 out.h5 --resume ck.h5
    expect_resumed "one process resumed by 2 ranks"
    # a rank that fails after a checkpoint (states streamed in chunks of 7 ropes): one line, naming it and the
    # checkpoint kept; refused when resumed as another run (other steps); resumed by 3 ranks
    rm -f out.csv out.h5
    SKEIN_TEST_CHECKPOINT_CHUNK=7 SKEIN_TEST_FAIL_RANK=1:1200 run_ranks 2 "${ck_run[@]}" --csv out.csv --h5 out.h5 \
        --checkpoint ck.h5 --checkpoint-every 500
    [ "$status" -eq 1 ] || fail "failing rank: exit status $status, expected 1"
    [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "not one line: $(cat err)"
    grep -q "^skein: rank 1: .*injected failure (SKEIN_TEST_FAIL_RANK); the checkpoint ck.h5 (step 1000) is kept: go on from it with --resume ck.h5$" err ||
        fail "stderr: $(cat err)"
    run_ranks 2 "${ck_run[@]/#12000/30000}" --csv out.csv --h5 out.h5 --resume ck.h5
    [ "$status" -eq 2 ] || fail "other steps: exit status $status, expected 2"
    [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "not one line: $(cat err)"
    grep -q "^skein: rank 0: ck.h5: the run that wrote it goes to step 12000, this one to step 30000" err ||
        fail "stderr: $(cat err)"
    [ -e ck.h5 ] && [ -e ck.h5.frames ] || fail "a refused resume removed the checkpoint"
    run_ranks 3 "${ck_run[@]}" --csv out.csv --h5 out.h5 --resume ck.h5
    expect_resumed "a failure at 2 ranks resumed by 3"
    ;;
vtk)
    # --vtk across ranks: rank 0 writes the directory from every rank's rows, equal to one process's file for
    # file (both cell kinds); a checkpointed run that a failing rank stops, resumed by 3 ranks, too
    v=(run "$SC/w1_springs.json" --steps 300 --every 100 --set 'groups[0].count=64' --set 'output.ropes=[0,5,40,63]'
        --quiet)
    for cells in links ropes; do
        run_skein "${v[@]}" --vtk-cells $cells --vtk one_$cells
        expect_status 0
        for ranks in 2 3; do
            run_ranks $ranks "${v[@]}" --vtk-cells $cells --vtk r${ranks}_$cells
            [ "$status" -eq 0 ] || fail "$ranks ranks, $cells: exit status $status: $(cat err)"
            diff -r one_$cells r${ranks}_$cells >diff.txt || fail "$ranks ranks, $cells: $(head -5 diff.txt)"
            [ "$(ls r${ranks}_$cells | wc -l)" -eq 5 ] || fail "$ranks ranks: $(ls r${ranks}_$cells)"
            expect_no_temp . r${ranks}_$cells
        done
    done
    SKEIN_TEST_FAIL_RANK=1:200 run_ranks 2 "${v[@]}" --vtk ck_out --checkpoint ck.h5 --checkpoint-every 100
    [ "$status" -eq 1 ] || fail "failing rank: exit status $status, expected 1: $(cat err)"
    [ ! -e ck_out ] && [ -e ck.h5 ] || fail "after the failure: $(ls)"
    run_ranks 3 run --resume ck.h5
    [ "$status" -eq 0 ] || fail "resumed: exit status $status: $(cat err)"
    diff -r one_links ck_out >diff.txt || fail "resumed: $(head -5 diff.txt)"
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "the finished run kept its checkpoint"
    expect_no_temp . ck_out
    ;;
warm_start)
    # a warm start across ranks: each rank puts its own ropes at the frame; the outputs are one process's, and
    # continued from frame 2 for the remaining steps the run ends at the earlier run's last frame
    cp "$SC/hanging_lines_settle.json" .
    run_skein run hanging_lines_settle.json --steps 2000 --every 500 --h5 a.h5 --csv a.csv --quiet
    expect_status 0
    w=(run hanging_lines_settle.json --set 'initial={"from": "a.h5", "frame": 2}' --steps 1000 --every 500 --quiet)
    run_skein "${w[@]}" --csv one.csv --h5 one.h5
    expect_status 0
    for ranks in 2 3; do
        run_ranks $ranks "${w[@]}" --csv r$ranks.csv --h5 r$ranks.h5
        [ "$status" -eq 0 ] || fail "$ranks ranks: exit status $status: $(cat err)"
        cmp one.csv r$ranks.csv || fail "$ranks ranks: the CSV differs from one process's"
        h5diff one.h5 r$ranks.h5 >diff.txt 2>&1 || fail "$ranks ranks: h5diff: $(head -5 diff.txt)"
    done
    rows_at() { awk -F, -v s="$2" 'NR > 1 && $2 == s { $2 = ""; $3 = ""; print }' OFS=, "$1"; }
    [ "$(rows_at a.csv 2000 | wc -l)" -eq 960 ] || fail "$(rows_at a.csv 2000 | wc -l) rows at the end"
    [ "$(rows_at a.csv 2000)" = "$(rows_at r3.csv 1000)" ] || fail "3 ranks: the continued run ends elsewhere"
    # an output onto the warm start's file is refused before anything is written
    run_ranks 2 "${w[@]}" --h5 a.h5
    [ "$status" -eq 2 ] || fail "output on the warm start's file: exit status $status, expected 2: $(cat err)"
    [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "not one line: $(cat err)"
    ;;
checkpoint_collective)
    # a checkpointed run across ranks writes its HDF5 file collectively, each rank its own ropes' rows (25 frames
    # of 9 ropes in all), and so does a resumed one, the journal's frames included (handed back to each rank)
    run_skein "${ck_run[@]}" --csv ref.csv --h5 ref.h5 --quiet
    expect_status 0
    shares() {
        local total=0 writers=0 n
        for rank in $(seq 0 $(($1 - 1))); do
            n=$(sed -n "s/^h5 share: rank $rank wrote \([0-9]*\) rope frames$/\1/p" err)
            [ -n "$n" ] || fail "$2: rank $rank did not say its share: $(cat err)"
            total=$((total + n))
            [ "$n" -eq 0 ] || writers=$((writers + 1))
        done
        [ "$total" -eq 225 ] && [ "$writers" -ge 2 ] || fail "$2: $total rope frames from $writers ranks: $(cat err)"
        [ "$(h5dump -p -A out.h5 | grep -c H5D_ALLOC_TIME_EARLY)" -ge 8 ] || fail "$2: not written through MPI-IO"
    }
    SKEIN_TEST_H5_SHARES=1 run_ranks 2 "${ck_run[@]}" --csv out.csv --h5 out.h5 --checkpoint ck.h5 \
        --checkpoint-every 500
    [ "$status" -eq 0 ] || fail "exit status $status: $(cat err)"
    cmp ref.csv out.csv || fail "the CSV differs"
    h5diff ref.h5 out.h5 >diff.txt 2>&1 || fail "h5diff: $(head -5 diff.txt)"
    shares 2 "2 ranks"
    rm -f out.csv out.h5
    SKEIN_TEST_FAIL_RANK=1:6000 run_ranks 2 "${ck_run[@]}" --csv out.csv --h5 out.h5 --checkpoint ck.h5 \
        --checkpoint-every 500
    [ "$status" -eq 1 ] || fail "failing rank: exit status $status, expected 1: $(cat err)"
    SKEIN_TEST_H5_SHARES=1 run_ranks 3 run --resume ck.h5
    expect_resumed "resumed by 3 ranks"
    shares 3 "resumed by 3 ranks"
    ;;
results)
    # --results across ranks: every rank's ropes' rows (swept values, tips, energies, the extremes each rank
    # tracked over every step, the step a rope diverged) in one table, byte for byte one process's, diverging
    # ropes (exit 3) among them
    r=(run "$SC/w1_springs.json" --steps 200 --every 50 --set 'groups[0].count=50' --set 'output.ropes=[0,49]'
        --set 'groups[0].sweep={"link.stiffness":{"from":100,"to":1e8},"mass":{"random":{"min":0.05,"max":0.2,"seed":7}}}')
    run_skein "${r[@]}" --results one.csv
    expect_status 3
    cp out one.txt
    awk -F, 'NR > 1 && $NF >= 0' one.csv | grep -q . || fail "no rope diverged: $(cat one.csv)"
    awk -F, 'NR > 1 && $(NF - 2) == ""' one.csv | grep -q . && fail "a rope without its max_tension: $(cat one.csv)"
    for ranks in 2 3; do
        run_ranks $ranks "${r[@]}" --results r$ranks.csv
        expect_status 3
        cmp one.csv r$ranks.csv || fail "$ranks ranks: the table differs from one process's: $(diff one.csv r$ranks.csv | head -5)"
        grep -q "^output       r$ranks.csv (50 ropes, one row each)$" out || fail "$ranks ranks: summary: $(cat out)"
        [ "$(totals one.txt)" = "$(totals out)" ] || fail "$ranks ranks: the summary differs: $(diff <(totals one.txt) <(totals out))"
        expect_no_temp . r$ranks.csv
    done
    # a tether stepped just above its stability limit (tests/cli/commands.sh, stability): the ropes that gained
    # energy no load can give, counted over every rank, one warning as one process's
    cat >tether.json <<'JSON'
{"skein": 1, "dt": 1.01e-4, "steps": 200, "integrator": "symplectic", "gravity": [0, -9.81, 0],
 "groups": [{"count": 3, "particles": 8, "start": [0, 0, 0], "end": [7, 0, 0], "mass": 0.003, "pinned": [0],
             "link": {"type": "spring", "stiffness": 3e5, "length": 1}},
            {"count": 6, "particles": 40, "start": [0, 0, 0], "end": [39, 0, 0], "mass": 0.003, "pinned": [0],
             "link": {"type": "spring", "stiffness": 3e5, "length": 1}}]}
JSON
    run_skein run tether.json --results one.csv --quiet
    expect_status 0
    grep '^skein: warning: group 1: 6 ropes gained energy' err >one.err || fail "no energy warning: $(cat err)"
    for ranks in 2 3; do
        run_ranks $ranks run tether.json --results r$ranks.csv --quiet
        expect_status 0
        cmp one.csv r$ranks.csv || fail "$ranks ranks: the tether's table differs"
        [ "$(grep 'gained energy' err)" = "$(cat one.err)" ] ||
            fail "$ranks ranks: [$(cat err)], one process [$(cat one.err)]"
    done
    ;;
results_checkpoint)
    # a checkpointed run across ranks carries each rope's extremes: killed after its first checkpoint and
    # resumed with 3 ranks (--resume alone), with one process, or a single process's resumed by 2 ranks, it
    # writes the uninterrupted run's table byte for byte
    run_skein "${ck_run[@]}" --results ref.csv --h5 ref.h5 --quiet
    expect_status 0
    ck_outputs=(--results res.csv --h5 out.h5)
    resumed_table() {
        [ "$status" -eq 0 ] || fail "$1: exit status $status: $(cat err)"
        cmp ref.csv res.csv || fail "$1: the table differs from the uninterrupted run's: $(diff ref.csv res.csv | head -5)"
        h5diff ref.h5 out.h5 >diff.txt 2>&1 || fail "$1: h5diff: $(head -5 diff.txt)"
        [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "$1: the checkpoint or its journal is left"
        for f in ck.h5 res.csv out.h5; do expect_no_temp . $f; done
        rm -f res.csv out.h5
    }
    SKEIN_TEST_CHECKPOINT_CHUNK=5 kill_after_checkpoint 2
    h5dump -H ck.h5 | grep -q 'DATASET "extremes"' || fail "the checkpoint of 2 ranks has no extremes"
    run_ranks 3 run --resume ck.h5
    resumed_table "2 ranks resumed by 3"
    kill_after_checkpoint 3
    run_skein "${ck_run[@]}" --results res.csv --h5 out.h5 --resume ck.h5
    resumed_table "3 ranks resumed by one process"
    kill_after_checkpoint 1
    run_ranks 2 "${ck_run[@]}" --results res.csv --h5 out.h5 --resume ck.h5
    resumed_table "one process resumed by 2 ranks"
    ;;
checkpoint_bdf2)
    # BDF2's checkpoints across ranks: each rope's state a step before and its Newton counts streamed to rank 0
    # with the rest; killed after the first, resumed by 3 ranks, the outputs the uninterrupted run's
    ck_run=(run "$SRC/scenarios/w3_stiff_tether.json" --steps 12000 --every 500 --set dt=1e-3
        --set 'groups[0].count=21' --set 'groups[0].particles=12' --set 'groups[0].end=[11, 0, 0]'
        --set 'implicit={"scheme": "bdf2", "tolerance": 1e-7}' --set 'output.ropes=[0,10,20]' --threads 1)
    run_skein "${ck_run[@]}" --csv ref.csv --h5 ref.h5 --quiet
    expect_status 0
    SKEIN_TEST_CHECKPOINT_CHUNK=4 kill_after_checkpoint 2
    run_ranks 3 run --resume ck.h5
    expect_resumed "bdf2: 2 ranks resumed by 3"
    ;;
refused)
    # the results table is checked on rank 0 as one process checks it: onto another output, or where no file
    # can be created, refused before anything is written, one line, no file
    for out in "--results rows.csv --csv rows.csv" "--results missing/rows.csv"; do
        # shellcheck disable=SC2086
        run_ranks 2 run "$SC/w1_springs.json" --steps 10 --set 'groups[0].count=4' --set 'output.ropes=[0]' $out
        [ "$status" -eq 2 ] || fail "$out: exit status $status, expected 2: $(cat err)"
        grep -qE "^skein: rank 0: (--csv rows.csv and --results rows.csv: the same file|--results missing/rows.csv)" err ||
            fail "$out: stderr: $(cat err)"
        [ "$(grep -c '^skein:' err)" -eq 1 ] || fail "$out: not one line: $(cat err)"
        [ ! -e rows.csv ] || fail "$out: an output was written"
        expect_no_temp . rows.csv
    done
    ;;
*)
    fail "unknown case $1"
    ;;
esac
exit 0
