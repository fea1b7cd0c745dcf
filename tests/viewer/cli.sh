#!/usr/bin/env bash
# skein-view's command line: help, errors (each one line on stderr, exit 2 or 1), no display, and
# screenshots (the xvfb cases run under xvfb-run).
# Usage: cli.sh SKEIN_VIEW SOURCE_DIR CASE
# shellcheck source=../cli/lib.sh
. "$2/tests/cli/lib.sh" # SKEIN (here skein-view), SRC, SCRATCH and the helpers; shifts the first two off
CASE=$1
ROPES="$SRC/tests/viewer/short_ropes.json"

is_png() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

case $CASE in
help)
    run_skein --help
    expect_status 0
    [ ! -s "$SCRATCH/err" ] || fail "stderr: $(cat "$SCRATCH/err")"
    for s in "usage: skein-view FILE [--rope I]... [--group G]" "--screenshot PNG" "--frames N" "--size WxH" \
        "--strain-scale S" "--paused" "--set PATH=VALUE" "simulated alone" "moves exactly as it does inside the whole batch" \
        "docs/model.md section 8" "space        pause" "right arrow  single step" "+ / -" "R            reset" \
        "Tab          next rope" "left drag    orbit" "wheel        zoom" "F            frame all" \
        "S            screenshot" "H            print this help" "Esc          quit" "exit status" \
        "skein-view OUT.h5 [--rope I]..." "replay keys:" "Home / End   first / last frame" "[ or PgUp"; do
        expect_stdout_has "$s"
    done
    ;;
no_display)
    env -u DISPLAY -u WAYLAND_DISPLAY "$SKEIN" "$ROPES" --screenshot shot.png --frames 5 >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 2
    expect_stderr "skein-view: no display (set DISPLAY or run under xvfb-run)"
    expect_no_output "$SCRATCH" shot.png
    ;;
no_display_interactive)
    env -u DISPLAY -u WAYLAND_DISPLAY "$SKEIN" "$ROPES" --rope 2 >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 2
    expect_stderr "skein-view: no display (set DISPLAY or run under xvfb-run)"
    ;;
hdf5_not_skein)
    echo "not hdf5" >run.h5
    run_skein run.h5 --rope 0
    expect_status 2
    expect_stderr "skein-view: run.h5: not an HDF5 file, or damaged"
    ;;
hdf5_rope_missing)
    # skein is built beside skein-view.
    "$(dirname "$SKEIN")/skein" run "$ROPES" --steps 20 --every 10 --ropes 1,2 --h5 run.h5 --quiet ||
        fail "skein run --h5 failed"
    run_skein run.h5 --rope 0 --screenshot shot.png
    expect_status 2
    expect_stderr "skein-view: --rope 0: run.h5 holds ropes 1-2"
    expect_no_output "$SCRATCH" shot.png
    run_skein run.h5 --rope 1 --screenshot shot.png --frames 3
    expect_status 2
    expect_stderr "skein-view: --frames 3: run.h5 holds 3 frames (0 to 2)"
    run_skein run.h5 --rope 1 --set dt=0.01
    expect_status 2
    expect_stderr "skein-view: --set does not apply to a replay (the file holds its scenario)"
    ;;
bad_scenario)
    # The loader's own message (tests/bad/expected.tsv), after "skein-view: ", as skein prints it.
    cd "$SRC" || fail "no source directory"
    msg=$(awk -F'\t' '$1 == "mass_zero.json" { sub(/^[^\t]*\t/, ""); print; exit }' tests/bad/expected.tsv)
    [ -n "$msg" ] || fail "mass_zero.json is not in tests/bad/expected.tsv"
    run_skein tests/bad/mass_zero.json --screenshot "$SCRATCH/shot.png"
    expect_status 2
    expect_stderr "skein-view: $msg"
    expect_no_output "$SCRATCH" shot.png
    ;;
missing_file)
    run_skein "$SCRATCH/nothing.json"
    expect_status 1
    grep -q "^skein-view: .*nothing.json" "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not one line"
    ;;
unknown_option)
    run_skein "$ROPES" --frobnicate
    expect_status 2
    expect_stderr "skein-view: unknown option '--frobnicate' (see skein-view --help)"
    ;;
rope_out_of_range)
    run_skein "$ROPES" --rope 3 --screenshot shot.png
    expect_status 2
    expect_stderr "skein-view: --rope 3: the scenario has 3 ropes"
    expect_no_output "$SCRATCH" shot.png
    ;;
group_out_of_range)
    run_skein "$ROPES" --group 1 --rope 1
    expect_status 2
    expect_stderr "skein-view: --rope 1: group 1 has 1 rope"
    ;;
screenshot_replaces)
    echo "old" >shot.png
    run_skein "$ROPES" --rope 0 --rope 2 --screenshot shot.png --frames 10 --size 320x200
    expect_status 0
    is_png shot.png || fail "shot.png is not a PNG"
    expect_no_temp "$SCRATCH" shot.png
    # 320 x 200 in the PNG header (IHDR width and height, big-endian).
    [ "$(head -c 24 shot.png | tail -c 8 | od -An -tx1 | tr -d ' \n')" = "00000140000000c8" ] || fail "not 320x200"
    ;;
screenshot_unwritable)
    # found before anything is read or drawn, as skein run finds its outputs' (exit 2)
    run_skein "$ROPES" --screenshot /nonexistent-dir/shot.png
    expect_status 2
    expect_stderr "skein-view: --screenshot /nonexistent-dir/shot.png: cannot create a file in /nonexistent-dir: No such file or directory"
    ;;
screenshot_paths)
    # --screenshot gets skein run's output checks: never the file shown (a scenario, a replay, by any
    # spelling or link), nor the warm start it reads, a directory, a FIFO or a device; exit 2, one line,
    # every file as it was.
    cp "$ROPES" ball.json
    sum=$(cksum <ball.json)
    shot_refused() {
        local want=$1
        shift
        run_skein "$@"
        expect_status 2
        expect_stderr "skein-view: $want"
        [ "$(cksum <ball.json)" = "$sum" ] || fail "ball.json was changed"
        [ -z "$(find . -name '*.tmp.*' | head -1)" ] || fail "left a temporary: $(ls)"
    }
    shot_refused "--screenshot ball.json: is the file ball.json itself, which skein-view reads; the picture would replace it" \
        ball.json --screenshot ball.json
    shot_refused "--screenshot ./ball.json: is the file ball.json itself, which skein-view reads; the picture would replace it" \
        ball.json --screenshot ./ball.json
    ln -s ball.json alias.json
    shot_refused "--screenshot ball.json: is the file alias.json itself, which skein-view reads; the picture would replace it" \
        alias.json --screenshot ball.json
    "$(dirname "$SKEIN")/skein" run ball.json --steps 20 --every 10 --h5 rep.h5 --quiet || fail "skein run --h5 failed"
    rsum=$(cksum <rep.h5)
    shot_refused "--screenshot rep.h5: is the file rep.h5 itself, which skein-view reads; the picture would replace it" \
        rep.h5 --screenshot rep.h5
    [ "$(cksum <rep.h5)" = "$rsum" ] || fail "rep.h5 was changed"
    # the warm start's file, read once the scenario is loaded
    /usr/bin/python3 -c 'import json, sys
s = json.load(open("ball.json")); s["initial"] = {"from": "rep.h5"}; json.dump(s, open("warm.json", "w"))' ||
        fail "cannot write warm.json"
    shot_refused "--screenshot rep.h5: is the warm start's file rep.h5 (initial.from) itself; the picture would replace it" \
        warm.json --screenshot rep.h5
    [ "$(cksum <rep.h5)" = "$rsum" ] || fail "rep.h5 was changed"
    mkdir dir.png
    shot_refused "--screenshot dir.png: is a directory; name a file" ball.json --screenshot dir.png
    mkfifo fifo.png
    shot_refused "--screenshot fifo.png: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
        ball.json --screenshot fifo.png
    [ -p fifo.png ] || fail "fifo.png is no longer a FIFO"
    if [ "$(id -u)" -eq 0 ]; then
        mknod null.png c 1 3 || fail "mknod failed"
        shot_refused "--screenshot null.png: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
            ball.json --screenshot null.png
        [ -c null.png ] || fail "null.png is no longer a character device"
    else
        echo "SKIP: the character device case needs root (mknod)"
    fi
    ;;
screenshot_initial)
    # --frames 0 (the default): the initial state; the same picture twice (deterministic).
    run_skein "$ROPES" --screenshot a.png
    expect_status 0
    run_skein "$ROPES" --screenshot b.png --frames 0
    expect_status 0
    cmp -s a.png b.png || fail "two pictures of the initial state differ"
    run_skein "$ROPES" --screenshot c.png --frames 100
    expect_status 0
    ! cmp -s a.png c.png || fail "100 steps later the picture is the same"
    ;;
*)
    fail "no such case $CASE"
    ;;
esac
exit 0
