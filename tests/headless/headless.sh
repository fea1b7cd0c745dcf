#!/usr/bin/env bash
# The headless batch run through the command line: HDF5 output against the CSV, sweeps, --set, Ctrl-C,
# divergence, the summary, the progress bar, output failures, the memory limit, the README example.
# Usage: headless.sh SKEIN SRC CASE PROBE REAL_TYPE   (PROBE: the h5_probe tool)
source "$(dirname "$0")/../cli/lib.sh"
CASE=$1
PROBE=$2
REAL=$3
here="$SRC/tests/headless"
sweeps="$here/sweeps.json"
diverge="$here/diverge.json"
w1="$SRC/scenarios/w1_springs.json"

# probe MODE FILE > OUT: the h5_probe tool, failing the test when it fails.
probe() {
    "$PROBE" "$1" "$2" || fail "h5_probe $1 $2 failed"
}

# expect_line FILE LINE: FILE holds exactly this line.
expect_line() {
    grep -qxF -- "$2" "$1" || fail "$1 lacks the line [$2]: $(cat "$1")"
}

# The rows of a CSV of one rope (column 1) without the step and time columns, per frame: "particle,x,...".
rope_rows() {
    awk -F, -v r="$2" -v s="$3" 'NR > 1 && $1 == r && $2 == s { print $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 }' "$1"
}

# An endless run (w1, two ropes written) stopped with SIGINT once the sign $1 says it is stepping (see
# interrupt_when); extra options follow.
run_until_interrupted() {
    local sign=$1
    shift
    interrupt_when "$sign" run "$w1" --steps 100000000 --ropes 0,4095 "$@"
}

case $CASE in
h5_equals_csv | h5_equals_csv_reference)
    # The HDF5 file holds the CSV's numbers to the bit: printed as CSV by the probe, the files are equal.
    engine=batch
    [ "$CASE" = h5_equals_csv_reference ] && engine=reference
    run_skein run "$sweeps" --engine $engine --csv "$SCRATCH/out.csv" --h5 "$SCRATCH/out.h5"
    expect_status 0
    expect_no_temp "$SCRATCH" out.h5
    probe csv "$SCRATCH/out.h5" >"$SCRATCH/h5.csv"
    cmp -s "$SCRATCH/h5.csv" "$SCRATCH/out.csv" || fail "the HDF5 frames differ from the CSV: $(diff "$SCRATCH/h5.csv" "$SCRATCH/out.csv" | head -5)"
    probe describe "$SCRATCH/out.h5" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "complete 1"
    expect_line "$SCRATCH/d" "steps 300"
    expect_line "$SCRATCH/d" "every 100"
    expect_line "$SCRATCH/d" "real $REAL"
    expect_line "$SCRATCH/d" "units time s"
    expect_line "$SCRATCH/d" "frames 4: 0 100 200 300"
    expect_line "$SCRATCH/d" "group 0 first_rope 0 count 5 particles 4"
    expect_line "$SCRATCH/d" "  position 4x5x4x3 [m] velocity [m/s] count 4x5 energy 4x5x3 [J] tension 4x5x3 [N]"
    expect_line "$SCRATCH/d" "group 1 first_rope 5 count 3 particles 6"
    expect_line "$SCRATCH/d" "  position 4x3x6x3 [m] velocity [m/s] count 4x3 energy 4x3x3 [J] tension 4x3x5 [N]"
    expect_line "$SCRATCH/d" "  diverged -1 -1 -1 -1 -1"
    expect_line "$SCRATCH/d" "nonfinite 0"
    expect_stdout_has "output       $SCRATCH/out.h5 (4 frames of 8 ropes, complete)"
    ;;
sweeps_land)
    # Each rope gets its own swept values: the HDF5 parameters of the stored ropes 1, 3, 4 and 6, worked
    # out by hand (stiffness 100 + 400 r / 4; start[1] from the list), and the CSV's first frame shows the
    # same values on the same ropes (particle 0 sits at start; particle 1 moves at the swept velocity).
    run_skein run "$sweeps" --steps 0 --ropes 1,3,4,6 --csv "$SCRATCH/out.csv" --h5 "$SCRATCH/out.h5"
    expect_status 0
    probe describe "$SCRATCH/out.h5" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "  ropes 1 3 4"
    expect_line "$SCRATCH/d" "  ropes 6"
    expect_line "$SCRATCH/d" "  param link.stiffness [N/m] 200 400 500"
    expect_line "$SCRATCH/d" "  param start[1] [m] 2.5 3.5 4"
    expect_line "$SCRATCH/d" "  param deploy.velocity [m/s] 1"
    vx=$(awk '$1 == "param" && $2 == "velocity[0]" { print $4, $5, $6 }' "$SCRATCH/d")
    [ -n "$vx" ] || fail "no velocity[0] parameters: $(cat "$SCRATCH/d")"
    i=0
    for r in 1 3 4; do
        i=$((i + 1))
        y=$(awk -F, -v r=$r 'NR > 1 && $1 == r && $4 == 0 { print $6 }' "$SCRATCH/out.csv")
        want=$(awk '$1 == "param" && $2 == "start[1]" { print $(4 + '$i' - 1) }' "$SCRATCH/d")
        [ "$y" = "$want" ] || fail "rope $r starts at y = $y, its swept start[1] is $want"
        v=$(awk -F, -v r=$r 'NR > 1 && $1 == r && $4 == 1 { print $8 }' "$SCRATCH/out.csv")
        want=$(echo "$vx" | awk -v i=$i '{ print $i }')
        [ "$v" = "$want" ] || fail "rope $r particle 1 moves at vx = $v, its swept velocity[0] is $want"
    done
    # the random sweep draws different values in [-1, 1]
    echo "$vx" | awk '{ if ($1 == $2 || $2 == $3 || $1 < -1 || $3 > 1) exit 1 }' || fail "velocity[0] values $vx"
    ;;
set_from_command_line)
    # --set reaches every kind of key: a sweep's bound, a group's vector component, the top level.
    run_skein run "$sweeps" --set 'groups[0].sweep.link.stiffness.to=900' --set 'groups[0].start[0]=1.25' \
        --set steps=50 --set output.every=25 --csv "$SCRATCH/out.csv" --h5 "$SCRATCH/out.h5"
    expect_status 0
    probe describe "$SCRATCH/out.h5" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "  param link.stiffness [N/m] 100 300 500 700 900"
    expect_line "$SCRATCH/d" "frames 3: 0 25 50"
    expect_line "$SCRATCH/d" "steps 50"
    x=$(awk -F, 'NR > 1 && $1 == 2 && $2 == 0 && $4 == 0 { print $5 }' "$SCRATCH/out.csv")
    [ "$x" = 1.25 ] || fail "rope 2 starts at x = $x, not the 1.25 set"
    [ "$(csv_steps "$SCRATCH/out.csv")" = "0 25 50" ] || fail "frames $(csv_steps "$SCRATCH/out.csv")"
    # validate shows the overridden scenario (the one the HDF5 file stores as its attribute "scenario")
    run_skein validate "$sweeps" --set 'groups[0].sweep.link.stiffness.to=900'
    grep -q '"to": 900' "$SCRATCH/out" || fail "validate does not show the override"
    # a bad override names its key and runs nothing
    run_skein run "$sweeps" --set 'groups[0].mass=-1' --h5 "$SCRATCH/bad.h5"
    expect_status 2
    expect_stderr "skein: --set groups[0].mass=-1: groups[0].mass: must be > 0"
    expect_no_output "$SCRATCH" bad.h5
    ;;
interrupt_h5)
    # Ctrl-C: the steps under way finish, that step is written as a last frame, both outputs are kept
    # beside their names (out.h5.incomplete saying complete = 0, out.csv.incomplete), earlier complete
    # files under the names stay as they were, exit 130, one line on stderr.
    echo "an earlier complete output" >"$SCRATCH/out.h5"
    echo "an earlier complete output" >"$SCRATCH/out.csv"
    run_until_interrupted 'cpu_over 50' --every 100000000 --h5 "$SCRATCH/out.h5" --csv "$SCRATCH/out.csv"
    expect_status 130
    expect_no_temp "$SCRATCH" out.h5
    expect_no_temp "$SCRATCH" out.h5.incomplete
    expect_no_temp "$SCRATCH" out.csv.incomplete
    [ "$(cat "$SCRATCH/out.h5")" = "an earlier complete output" ] || fail "out.h5 was replaced"
    [ "$(cat "$SCRATCH/out.csv")" = "an earlier complete output" ] || fail "out.csv was replaced"
    [ -s "$SCRATCH/out.csv.incomplete" ] || fail "no out.csv.incomplete"
    probe describe "$SCRATCH/out.h5.incomplete" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "complete 0"
    stop=$(awk '$1 == "frames" { if ($2 != "2:" || $3 != 0) exit 1; print $4 }' "$SCRATCH/d") ||
        fail "frames: $(grep frames "$SCRATCH/d")"
    [ "$stop" -gt 0 ] || fail "stopped at step $stop"
    expect_stderr "skein: interrupted at step $stop of 100000000; what was written up to that step is kept as $SCRATCH/out.h5.incomplete (attribute complete = 0) $SCRATCH/out.csv.incomplete (any earlier file under the outputs' own names is left as it was)"
    probe csv "$SCRATCH/out.h5.incomplete" >"$SCRATCH/h5.csv"
    cmp -s "$SCRATCH/h5.csv" "$SCRATCH/out.csv.incomplete" || fail "the incomplete outputs differ"
    expect_stdout_has "output       $SCRATCH/out.h5.incomplete (2 frames of 2 ropes, marked incomplete)"
    expect_stdout_has "steps        $stop (dt 0.0001 s,"
    ;;
diverge | diverge_reference)
    # Rope 2 (stiffness 2e5 where the others have 500-900) blows up: it is marked at a frame, holds its
    # previous frame from then on; the other ropes equal, bit for bit, a run where rope 2 is tame; exit 3;
    # no non-finite number anywhere. Both engines give the same files.
    # Rope 2's stiffness: in float the instability grows from rounding noise and overflows at 3e38, so a
    # softer wild rope is needed for it to diverge at a later frame (not the first), as in double.
    wild=2e5
    [ "$REAL" = float ] && wild=1.2e5
    values="groups[0].sweep.link.stiffness={\"values\": [500, 600, $wild, 700, 800, 900]}"
    run_skein run "$diverge" --set "$values" --csv "$SCRATCH/a.csv" --h5 "$SCRATCH/a.h5"
    expect_status 3
    at=$(sed -n 's/^skein: 1 of 6 ropes diverged: rope 2 at step \([0-9]*\); each holds its last finite frame from then on$/\1/p' "$SCRATCH/err")
    [ -n "$at" ] || fail "stderr: $(cat "$SCRATCH/err")"
    # the wild rope's step is above its group's explicit stability limit, which is said first
    [ "$(wc -l <"$SCRATCH/err")" -eq 2 ] || fail "not two lines on stderr: $(cat "$SCRATCH/err")"
    head -1 "$SCRATCH/err" | grep -qE '^skein: warning: group 0: dt [0-9.e-]+ s is above the explicit stability limit [0-9.e-]+ s of its stiffest rope' ||
        fail "no stability warning: $(cat "$SCRATCH/err")"
    [ "$at" -gt 50 ] && [ "$at" -le 400 ] && [ $((at % 50)) -eq 0 ] || fail "diverged at step $at, not a later frame"
    expect_stdout_has "diverged     1 rope: rope 2 at step $at"
    expect_stdout_has "group 0      6 ropes, 1 diverged"
    ! grep -qiE 'nan|inf' "$SCRATCH/a.csv" || fail "a non-finite number in the CSV"
    probe describe "$SCRATCH/a.h5" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "  diverged -1 -1 $at -1 -1 -1"
    expect_line "$SCRATCH/d" "nonfinite 0"
    expect_line "$SCRATCH/d" "complete 1"
    probe csv "$SCRATCH/a.h5" >"$SCRATCH/h5.csv"
    cmp -s "$SCRATCH/h5.csv" "$SCRATCH/a.csv" || fail "the HDF5 frames differ from the CSV"
    # from the marked frame on, rope 2 repeats its previous frame
    held=$((at - 50))
    rope_rows "$SCRATCH/a.csv" 2 $held >"$SCRATCH/held"
    [ -s "$SCRATCH/held" ] || fail "no rows of rope 2 at step $held"
    for s in $(seq "$at" 50 400); do
        rope_rows "$SCRATCH/a.csv" 2 "$s" | cmp -s - "$SCRATCH/held" || fail "rope 2 at step $s is not its step $held"
    done
    # the others: as in a run without the wild rope
    run_skein run "$diverge" --set 'groups[0].sweep.link.stiffness={"values": [500, 600, 650, 700, 800, 900]}' \
        --csv "$SCRATCH/b.csv"
    expect_status 0
    awk -F, '$1 != 2' "$SCRATCH/a.csv" >"$SCRATCH/a_others"
    awk -F, '$1 != 2' "$SCRATCH/b.csv" >"$SCRATCH/b_others"
    [ "$(wc -l <"$SCRATCH/a_others")" -eq $((1 + 5 * 9 * 8)) ] || fail "rows of the other ropes: $(wc -l <"$SCRATCH/a_others")"
    cmp -s "$SCRATCH/a_others" "$SCRATCH/b_others" || fail "the other ropes changed"
    if [ "$CASE" = diverge_reference ]; then
        mv "$SCRATCH/out" "$SCRATCH/batch_out"
        run_skein run "$diverge" --set "$values" --engine reference --csv "$SCRATCH/r.csv" --h5 "$SCRATCH/r.h5"
        expect_status 3
        [ "$(wc -l <"$SCRATCH/err")" -eq 2 ] || fail "not two lines on stderr: $(cat "$SCRATCH/err")"
        head -1 "$SCRATCH/err" | grep -qE '^skein: warning: group 0: dt [0-9.e-]+ s is above the explicit stability limit' ||
            fail "no stability warning: $(cat "$SCRATCH/err")"
        [ "$(sed -n 2p "$SCRATCH/err")" = "skein: 1 of 6 ropes diverged: rope 2 at step $at; each holds its last finite frame from then on" ] ||
            fail "stderr: $(cat "$SCRATCH/err")"
        cmp -s "$SCRATCH/r.csv" "$SCRATCH/a.csv" || fail "the reference engine's CSV differs from the batch engine's"
        probe describe "$SCRATCH/r.h5" >"$SCRATCH/rd"
        cmp -s "$SCRATCH/rd" "$SCRATCH/d" || fail "the reference engine's HDF5 differs: $(diff "$SCRATCH/rd" "$SCRATCH/d" | head -4)"
    fi
    ;;
summary_figures)
    # Energies and tension worked out by hand:
    #   group 0: two ropes of three pinned particles 1 m apart, links of rest length 0.8 with stiffness 10
    #   and 30: pinned particles hold no kinetic or gravity energy; elastic k 0.2^2 / 2 per link:
    #   2 x 0.2 + 2 x 0.6 = 1.6 J; largest tension 30 x 0.2 = 6 N; nothing moves, so the end is the start
    #   group 1: a 2 kg particle dropped from 10 m, g = -10, dt 0.01, 100 symplectic steps:
    #   v = -10 m/s, y = 10 - 10 * 0.01^2 * 100 * 101 / 2 = 4.95 m: kinetic 100 J, gravity 99 J (from 200)
    cat >"$SCRATCH/s.json" <<'EOF'
{"skein": 1, "dt": 0.01, "steps": 100, "gravity": [0, -10, 0], "groups": [
 {"count": 2, "particles": 3, "start": [0, 1, 0], "end": [2, 1, 0], "mass": 0.5, "pinned": [0, 1, 2],
  "velocity": [1, 0, 0], "link": {"type": "spring", "stiffness": 10, "length": 0.8},
  "sweep": {"link.stiffness": {"values": [10, 30]}}},
 {"count": 1, "particles": 1, "start": [0, 10, 0], "end": [0, 10, 0], "mass": 2}]}
EOF
    run_skein run "$SCRATCH/s.json"
    expect_status 0
    expect_stdout_has "ropes        3 in 2 groups"
    expect_stdout_has "particles    7"
    expect_stdout_has "group 0      2 ropes, 0 diverged"
    expect_stdout_has "group 1      1 rope, 0 diverged"
    awk '
        function near(a, b) { return (a - b) <= 1e-4 * (b < 0 ? -b : b) + 1e-9 && (b - a) <= 1e-4 * (b < 0 ? -b : b) + 1e-9 }
        /^group / { g = $2 }
        $1 == "start" || $1 == "end" {
            line = $0; gsub(/,/, "", line); split(line, w, " ")
            k = w[3]; gr = w[6]; el = w[9]
            key = g " " $1
            if (key == "0 start" || key == "0 end") { ok = near(k, 0) && near(gr, 0) && near(el, 1.6) && near(w[13], 6) }
            else if (key == "1 start") { ok = near(k, 0) && near(gr, 200) && near(el, 0) && w[11] == "no" }
            else if (key == "1 end") { ok = near(k, 100) && near(gr, 99) && near(el, 0) }
            if (!ok) { print "bad line: " $0 > "/dev/stderr"; bad = 1 }
            seen++
        }
        END { exit bad || seen != 4 }' "$SCRATCH/out" || fail "summary figures: $(cat "$SCRATCH/out")"
    ;;
progress_not_terminal)
    # stderr is a file: no progress bar even for a run of more than a second (of CPU: stepping, whatever the
    # machine's load), only the one line of Ctrl-C.
    run_until_interrupted 'cpu_over 300'
    expect_status 130
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr: $(cat -v "$SCRATCH/err")"
    ! grep -q 'particle-steps/s' "$SCRATCH/err" || fail "a progress bar on a file"
    grep -q '^skein: interrupted at step [0-9]* of 100000000$' "$SCRATCH/err" || fail "stderr: $(cat -v "$SCRATCH/err")"
    ;;
progress_terminal)
    # On a terminal (script(1) gives one) the bar appears once the run has taken a second: steps, speed,
    # time left; --quiet silences it.
    command -v script >/dev/null || fail "script(1) is missing (util-linux)"
    cmd="timeout -s INT 1.8 $(printf %q "$SKEIN") run $(printf %q "$w1") --steps 100000000 --ropes 0"
    script -qec "$cmd" /dev/null >"$SCRATCH/tty" 2>&1
    grep -qE 'step [0-9]+/100000000 [0-9.]+e[+-][0-9]+ particle-steps/s [0-9:]+ left' "$SCRATCH/tty" ||
        fail "no progress bar on a terminal: $(cat -v "$SCRATCH/tty" | head -5)"
    script -qec "$cmd --quiet" /dev/null >"$SCRATCH/tty" 2>&1
    ! grep -q 'particle-steps/s' "$SCRATCH/tty" || fail "--quiet showed the bar"
    ;;
h5_unwritable)
    run_skein run "$sweeps" --steps 5 --csv "$SCRATCH/out.csv" --h5 "$SCRATCH/missing/out.h5"
    expect_status 2
    expect_stderr "skein: --h5 $SCRATCH/missing/out.h5: cannot create a file in $SCRATCH/missing: No such file or directory"
    [ ! -e "$SCRATCH/missing" ] || fail "created the directory"
    expect_no_output "$SCRATCH" out.csv
    ;;
h5_full)
    # A file size limit stands in for a full disk: exit 1 naming the file and the system's reason, the
    # temporary is removed and an existing file is left as it was.
    echo "old contents" >"$SCRATCH/out.h5"
    (
        trap '' XFSZ
        ulimit -f 64
        exec "$SKEIN" run "$w1" --steps 3 --every 1 --ropes 0-999 --h5 "$SCRATCH/out.h5"
    ) >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 1
    grep -qE "^skein: $SCRATCH/out.h5: [a-z ]+: File too large$" "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "more than one line on stderr"
    [ "$(cat "$SCRATCH/out.h5")" = "old contents" ] || fail "the existing file was changed"
    expect_no_temp "$SCRATCH" out.h5
    ;;
h5_replaces)
    echo "old contents" >"$SCRATCH/out.h5"
    chmod 600 "$SCRATCH/out.h5"
    umask 022
    run_skein run "$sweeps" --steps 10 --h5 "$SCRATCH/out.h5" --quiet
    expect_status 0
    [ "$(stat -c %a "$SCRATCH/out.h5")" = 644 ] || fail "mode $(stat -c %a "$SCRATCH/out.h5")"
    probe describe "$SCRATCH/out.h5" >"$SCRATCH/d"
    expect_line "$SCRATCH/d" "complete 1"
    expect_no_temp "$SCRATCH" out.h5
    ;;
memory_refused)
    # 1,048,576 ropes of 32 particles under a 900 MB limit: refused before anything is allocated or written,
    # with the figure the batch would need.
    SKEIN_MEMORY_LIMIT=900000000 run_skein run "$w1" --set 'groups[0].count=1048576' \
        --set 'groups[0].particles=32' --h5 "$SCRATCH/out.h5" --csv "$SCRATCH/out.csv"
    expect_status 2
    grep -qE "^skein: --set groups\[0\]\.count=1048576: groups\[0\]\.count: the batch needs [0-9]+\.[0-9] GB, more than the 900\.0 MB this machine allows; at most [0-9]+ of this group's 1048576 ropes fit$" "$SCRATCH/err" ||
        fail "stderr: $(cat "$SCRATCH/err")"
    expect_no_output "$SCRATCH" out.h5
    expect_no_output "$SCRATCH" out.csv
    ;;
readme_example)
    # The README's example, as written there, on the default batch (shortened to 500 steps): it prints the
    # length of every 256th rope against its stiffness; the plotting variant runs too when matplotlib is
    # installed.
    if ! /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
        echo "h5py is not installed (apt install python3-h5py): skipped"
        exit 77
    fi
    awk '/^## Reading the HDF5 output/ { on = 1 } on && /^```python/ { n++; inside = 1; next }
         inside && /^```/ { inside = 0; next } inside { print > (dir "/example" n ".py") }' \
        dir="$SCRATCH" "$SRC/README.md"
    [ -s "$SCRATCH/example1.py" ] || fail "no python example under '## Reading the HDF5 output' in README.md"
    [ "$(wc -l <"$SCRATCH/example1.py")" -le 5 ] || fail "the example is longer than five lines"
    run_skein --steps 500 --h5 out.h5 --quiet
    expect_status 0
    /usr/bin/python3 "$SCRATCH/example1.py" >"$SCRATCH/py" 2>&1 || fail "the example fails: $(cat "$SCRATCH/py")"
    [ "$(grep -cE '^k = +[0-9.]+ N/m +length = [0-9.]+ m$' "$SCRATCH/py")" -eq 8 ] || fail "example output: $(cat "$SCRATCH/py")"
    # the ropes start 3.1 m long; under their own weight the softer ones stretch more
    awk '{ l[NR] = $7 } END { for (i = 2; i <= NR; i++) if (!(l[i] < l[i - 1])) exit 1; exit !(l[NR] > 3.1) }' \
        "$SCRATCH/py" || fail "length does not fall with stiffness: $(cat "$SCRATCH/py")"
    if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null && [ -s "$SCRATCH/example2.py" ]; then
        cat "$SCRATCH/example1.py" "$SCRATCH/example2.py" >"$SCRATCH/plot.py"
        /usr/bin/python3 "$SCRATCH/plot.py" >/dev/null 2>&1 || fail "the plotting example fails"
        [ -s "$SCRATCH/length.png" ] || fail "no length.png"
    fi
    ;;
*) fail "no such case $CASE" ;;
esac
exit 0
