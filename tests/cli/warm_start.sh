#!/usr/bin/env bash
# Warm starts through the command line: the example pair (hanging_lines_settle writes the HDF5 file that
# hanging_lines_gust starts from, beside it); a run continued from a frame of an earlier run's file ends with
# its last frame's rows byte for byte, on either engine; refusals with exit 2 and one line.
# Usage: warm_start.sh SKEIN SRC CASE
source "$(dirname "$0")/lib.sh"

# The rows of step $2 of CSV $1 without their step and time columns (the second run's time starts at 0).
rows_at() { awk -F, -v s="$2" 'NR > 1 && $2 == s { $2 = ""; $3 = ""; print }' OFS=, "$1"; }

cp "$SRC/scenarios/hanging_lines_settle.json" "$SRC/scenarios/hanging_lines_gust.json" .
case $1 in
example)
    # settle briefly: the gust starts from the file the settling run left beside it (a name relative to
    # the scenario's folder)
    run_skein run hanging_lines_settle.json --steps 2000 --every 1000 --h5 hanging_lines_settle.h5 --csv settle.csv
    expect_status 0
    run_skein validate hanging_lines_gust.json
    expect_status 0
    mkdir elsewhere && cd elsewhere || fail "no directory"
    run_skein run ../hanging_lines_gust.json --steps 100 --csv ../gust.csv
    expect_status 0
    cd .. || fail "no directory"
    [ -s gust.csv ] || fail "no CSV"
    expect_stdout_has "scenario     ../hanging_lines_gust.json"
    [ "$(rows_at settle.csv 2000 | wc -l)" -eq 960 ] || fail "settle: $(rows_at settle.csv 2000 | wc -l) rows at its end"
    # the gust's step 0 is the settled last frame (particle rows: positions and velocities to the digit)
    [ "$(rows_at settle.csv 2000)" = "$(rows_at gust.csv 0)" ] || fail "the gust does not start where the settling ended"
    [ "$(rows_at gust.csv 0)" != "$(rows_at gust.csv 100)" ] || fail "the gust did not move the ropes"
    ;;
continue)
    # 2000 steps with frames every 500; then from frame 2 (step 1000) for 1000 steps, on each engine
    run_skein run hanging_lines_settle.json --steps 2000 --every 500 --h5 a.h5 --csv a.csv
    expect_status 0
    for engine in batch reference; do
        run_skein run hanging_lines_settle.json --set 'initial={"from": "a.h5", "frame": 2}' --steps 1000 \
            --every 1000 --csv "b_$engine.csv" --engine $engine --threads 2
        expect_status 0
        [ "$(rows_at a.csv 2000 | wc -l)" -eq 960 ] || fail "$(rows_at a.csv 2000 | wc -l) rows at the end"
        [ "$(rows_at a.csv 2000)" = "$(rows_at "b_$engine.csv" 1000)" ] || fail "$engine: the continued run ends elsewhere"
        [ "$(rows_at a.csv 1000)" = "$(rows_at "b_$engine.csv" 0)" ] || fail "$engine: it does not start at frame 2"
    done
    # -3 from the end is frame 2 of 5
    run_skein run hanging_lines_settle.json --set 'initial={"from": "a.h5", "frame": -3}' --steps 1000 --csv c.csv
    expect_status 0
    [ "$(rows_at a.csv 2000)" = "$(rows_at c.csv 1000)" ] || fail "frame -3 is not frame 2"
    ;;
refused)
    run_skein run hanging_lines_gust.json --steps 10
    expect_status 2
    expect_stderr "skein: hanging_lines_gust.json: initial.from: hanging_lines_settle.h5: cannot open: No such file or directory"
    run_skein run hanging_lines_settle.json --steps 10 --ropes 0-3 --h5 hanging_lines_settle.h5
    expect_status 0
    run_skein run hanging_lines_gust.json --steps 10
    expect_status 2
    expect_stderr "skein: hanging_lines_gust.json: initial.from: hanging_lines_settle.h5: groups[0]: it stores 4 of the group's 32 ropes (written with a selection of ropes): a warm start needs every rope"
    run_skein run hanging_lines_settle.json --steps 10 --h5 hanging_lines_settle.h5
    expect_status 0
    run_skein run hanging_lines_gust.json --steps 10 --set initial.frame=2
    expect_status 2
    expect_stderr "skein: hanging_lines_gust.json: initial.frame: 2 is out of range: hanging_lines_settle.h5 holds 2 frames (0 to 1, or -2 to -1 from the end)"
    run_skein compare hanging_lines_gust.json --steps 10 --set initial.frame=-3
    expect_status 2
    expect_stderr "skein: hanging_lines_gust.json: initial.frame: -3 is out of range: hanging_lines_settle.h5 holds 2 frames (0 to 1, or -2 to -1 from the end)"
    # compare starts both engines from the file
    run_skein compare hanging_lines_gust.json --steps 10
    expect_status 0
    # an output onto the file the run starts from is refused before anything is written: the file is intact
    before=$(cksum < hanging_lines_settle.h5)
    run_skein run hanging_lines_gust.json --steps 10 --h5 hanging_lines_settle.h5
    expect_status 2
    expect_stderr "skein: --h5 hanging_lines_settle.h5: is the warm start's file hanging_lines_settle.h5 (initial.from) itself; the run would overwrite its input"
    run_skein run hanging_lines_gust.json --steps 10 --csv ./hanging_lines_settle.h5
    expect_status 2
    expect_stderr "skein: --csv ./hanging_lines_settle.h5: is the warm start's file hanging_lines_settle.h5 (initial.from) itself; the run would overwrite its input"
    [ "$(cksum < hanging_lines_settle.h5)" = "$before" ] || fail "the warm start's file changed"
    ;;
*) fail "unknown case $1" ;;
esac
exit 0
