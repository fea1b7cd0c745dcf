#!/usr/bin/env bash
# skein run --vtk DIR on the command line: the directory's rules checked before the first step (exit 2, one
# line, nothing written), an earlier output replaced whole, Ctrl-C keeping DIR.incomplete.
# Usage: cli.sh SKEIN SRC CASE
source "$(dirname "$0")/../cli/lib.sh"
cp "$SRC/scenarios/seed001_ball.json" ball.json
rods="$SRC/scenarios/seed002_rod_chain_ground.json"

# Refused: exit 2 with exactly this line, nothing written.
refused() {
    local want=$1
    shift
    run_skein "$@"
    expect_status 2
    expect_stderr "skein: $want"
    [ ! -s "$SCRATCH/out" ] || fail "the refused run printed: $(cat "$SCRATCH/out")"
    local left
    left=$(find . -name '*.tmp.*' -o -name '*.incomplete' -o -name '.skein-check.*' | head -1)
    [ -z "$left" ] || fail "left $left"
}

# frames DIR: the frames the collection lists, after checking that each listed file is there and nothing else.
frames() {
    local listed files
    listed=$(grep -c '<DataSet timestep=' "$1/skein.pvd") || fail "$1/skein.pvd lists no frame"
    files=$(find "$1" -name 'frame_*.vtp' | wc -l)
    [ "$(find "$1" -mindepth 1 | wc -l)" -eq $((files + 1)) ] || fail "$1 holds $(ls "$1")"
    [ "$listed" -eq "$files" ] || fail "$1: $listed frames listed, $files files"
    echo "$listed"
}

case $1 in
refused)
    mkdir theirs
    echo mine >theirs/notes.txt
    refused "--vtk theirs: holds notes.txt, which skein did not write; name a new or empty directory, or an earlier VTK output of skein (which is replaced)" \
        run ball.json --steps 5 --vtk theirs
    [ "$(ls theirs)" = notes.txt ] || fail "theirs changed: $(ls theirs)"
    refused "--vtk ball.json: is the scenario file ball.json itself; the run would overwrite its input" \
        run ball.json --steps 5 --vtk ball.json
    echo plain >plain
    refused "--vtk plain: exists and is not a directory; name a directory" run ball.json --steps 5 --vtk plain
    refused "--csv same and --vtk same: the same file; give each output its own" \
        run ball.json --steps 5 --csv same --vtk same/
    refused "--vtk missing/out: cannot create a file in missing: No such file or directory" \
        run ball.json --steps 5 --vtk missing/out
    refused "--vtk-cells needs --vtk DIR" run ball.json --steps 5 --vtk-cells ropes
    refused "--vtk-cells: 'points' is not one of links, ropes" run ball.json --vtk pv --vtk-cells points
    refused "--vtk: empty directory name" run ball.json --vtk ''
    [ ! -e pv ] && [ ! -e same ] && [ ! -e missing ] || fail "created something: $(ls)"
    ;;
replaces)
    # a run writes its frames; a second run's output replaces the first's whole (and an empty directory is
    # taken as it is); a trailing slash names the directory itself
    run_skein run "$rods" --steps 20 --every 5 --vtk pv
    expect_status 0
    expect_stdout_has "output       pv/ (5 frames of 1 rope, VTK: open skein.pvd in ParaView)"
    [ "$(frames pv)" -eq 5 ] || fail "first run: $(frames pv) frames"
    run_skein run "$rods" --steps 5 --every 5 --vtk pv/ --vtk-cells ropes
    expect_status 0
    [ "$(frames pv)" -eq 2 ] || fail "second run: $(frames pv) frames"
    grep -q 'Name="max_tension"' pv/frame_000000.vtp || fail "not the second run's layout"
    mkdir empty
    run_skein run "$rods" --steps 5 --every 5 --vtk empty --quiet
    expect_status 0
    [ "$(frames empty)" -eq 2 ] || fail "empty: $(frames empty) frames"
    [ "$(ls)" = "$(printf 'ball.json\nempty\nerr\nout\npv')" ] || fail "left $(ls)"
    ;;
interrupt)
    # Ctrl-C during a long run: exit 130; the frames so far are kept as pv.incomplete, listed in its
    # collection up to the step reached; an earlier pv stays as it was; no temporary left.
    w1="$SRC/scenarios/w1_springs.json"
    run_skein run "$w1" --steps 10 --every 5 --vtk pv --quiet
    expect_status 0
    before=$(cksum <pv/skein.pvd)
    interrupt_when '[ -n "$(find "$SCRATCH" -path "*/pv.tmp.*/frame_000003.vtp" | head -1)" ]' \
        run "$w1" --steps 100000000 --every 100 --vtk "$SCRATCH/pv"
    expect_status 130
    [ "$(cksum <pv/skein.pvd)" = "$before" ] && [ "$(frames pv)" -eq 3 ] || fail "the earlier pv changed"
    expect_no_temp "$SCRATCH" pv
    n=$(frames pv.incomplete)
    [ "$n" -ge 4 ] || fail "$n frames kept"
    step=$(sed -n 's/^skein: interrupted at step \([0-9]*\) of 100000000; .*/\1/p' "$SCRATCH/err")
    [ -n "$step" ] && [ "$step" -gt 0 ] || fail "stderr: $(cat "$SCRATCH/err")"
    expect_stderr "skein: interrupted at step $step of 100000000; what was written up to that step is kept as $SCRATCH/pv.incomplete/ (any earlier file under the outputs' own names is left as it was)"
    # frames at every 100 steps up to the step reached, then that step itself (unless it just was one)
    want=$((step / 100 + 1 + (step % 100 != 0)))
    [ "$n" -eq "$want" ] || fail "$n frames kept up to step $step, expected $want"
    expect_stdout_has "output       $SCRATCH/pv.incomplete/ ($n frames of 2 ropes, VTK: open skein.pvd in ParaView)"
    ;;
*)
    fail "unknown case $1"
    ;;
esac
exit 0
