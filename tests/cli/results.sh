#!/usr/bin/env bash
# skein run --results FILE: one row per rope at the end of the run (columns in README.md), its path rules,
# Ctrl-C and diverging ropes. Usage: results.sh SKEIN SRC CASE
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# Two groups sweeping different keys (one shared), 7 + 5 ropes.
cat >sweep.json <<'JSON'
{"skein": 1, "dt": 1e-3, "steps": 200, "integrator": "symplectic",
 "groups": [
  {"count": 7, "particles": 5, "start": [0, 2, 0], "end": [1, 2, 0], "pinned": [0], "mass": 0.1,
   "link": {"type": "spring", "stiffness": 300},
   "sweep": {"link.stiffness": {"values": [100, 250.5, 0.1, 333, 1e3, 77.7, 512]},
             "mass": {"from": 0.1, "to": 0.3}}},
  {"count": 5, "particles": 4, "start": [0, 2, 0], "end": [0.6, 2, 0], "pinned": [0], "mass": 0.2,
   "link": {"type": "rod"},
   "sweep": {"mass": {"values": [0.05, 0.1, 0.15, 0.2, 0.7]}, "end[1]": {"from": 1.5, "to": 2.5}}}]}
JSON

case $1 in
table)
    # header, a row per rope (every rope, not only --ropes), swept values read back to the numbers swept, empty
    # where a group does not sweep a key; the tip is the last particle of the CSV's last frame, digit for digit;
    # the batch and the reference engine write the same table byte for byte
    run_skein run sweep.json --results res.csv --csv frames.csv --ropes 0,8 --quiet
    expect_status 0
    [ "$(head -1 res.csv)" = "rope,group,link.stiffness,mass,end[1],tip_x,tip_y,tip_z,tip_vx,tip_vy,tip_vz,kinetic,gravity,elastic,max_tension,max_strain,max_support_first,max_support_last,diverged_step" ] ||
        fail "header: $(head -1 res.csv)"
    expect_no_temp . res.csv
    real=$("$SKEIN" info | awk '$1 == "real" { print $3 }')
    $PY - res.csv frames.csv "$real" <<'PY' || fail "the table"
import csv, struct, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# the build's real: a float build sweeps floats, and its cells read back as floats
real = (lambda x: struct.unpack("f", struct.pack("f", x))[0]) if sys.argv[3] == "float" else (lambda x: x)
assert len(rows) == 12, len(rows)
stiff = [100, 250.5, 0.1, 333, 1e3, 77.7, 512]
for r, row in enumerate(rows):
    assert int(row["rope"]) == r and int(row["group"]) == (0 if r < 7 else 1), row
    assert row["diverged_step"] == "-1", row
    if r < 7:
        assert real(float(row["link.stiffness"])) == real(stiff[r]), row
        assert real(float(row["mass"])) == real(0.1 + (0.3 - 0.1) * r / 6), row
        assert row["end[1]"] == "", row
    else:
        assert row["link.stiffness"] == "", row
        assert real(float(row["mass"])) == real([0.05, 0.1, 0.15, 0.2, 0.7][r - 7]), row
        assert real(float(row["end[1]"])) == real(1.5 + (2.5 - 1.5) * (r - 7) / 4), row
    assert float(row["max_tension"]) > 0 and row["max_strain"] != "", row
frames = list(csv.reader(open(sys.argv[2])))[1:]
for rope in (0, 8):
    last = [f for f in frames if int(f[0]) == rope and f[1] == "200"][-1]
    row = rows[rope]
    assert [row[k] for k in ("tip_x", "tip_y", "tip_z", "tip_vx", "tip_vy", "tip_vz")] == last[4:10], (row, last)
PY
    run_skein run sweep.json --results ref.csv --engine reference --quiet
    expect_status 0
    cmp -s res.csv ref.csv || fail "the reference engine's table differs"
    ;;
paths)
    # the output checks of the other outputs: the same file as another, the scenario, a directory, the warm
    # start's file; and not with checkpoints (which keep no extremes); exit 2, one line, nothing written
    refused() {
        local want=$1
        shift
        run_skein "$@"
        expect_status 2
        expect_stderr "skein: $want"
        [ -z "$(find . -name '*.tmp.*' -o -name '*.incomplete' -o -name 'x.csv' -o -name 'ck.h5')" ] || fail "left $(ls)"
    }
    refused "--csv x.csv and --results ./x.csv: the same file; give each output its own" \
        run sweep.json --csv x.csv --results ./x.csv
    refused "--results sweep.json: is the scenario file sweep.json itself; the run would overwrite its input" \
        run sweep.json --results sweep.json
    mkdir dir.csv
    refused "--results dir.csv: is a directory; name a file" run sweep.json --results dir.csv
    echo not-hdf5 >w.h5
    refused "--results w.h5: is the warm start's file w.h5 (initial.from) itself; the run would overwrite its input" \
        run sweep.json --set 'initial={"from": "w.h5", "frame": 0}' --results w.h5
    [ "$(cat w.h5)" = not-hdf5 ] || fail "w.h5 changed"
    refused "--results: empty file name" run sweep.json --results ''
    ;;
interrupt)
    # Ctrl-C: exit 130, the table of the step reached kept as res.csv.incomplete (every rope), no res.csv
    interrupt_when 'cpu_over 30' run "$SRC/scenarios/w1_springs.json" --steps 100000000 --every 1000000 \
        --results "$SCRATCH/res.csv" --quiet
    expect_status 130
    expect_no_output "$SCRATCH" res.csv
    expect_no_temp "$SCRATCH" res.csv.incomplete
    [ "$(($(wc -l <"$SCRATCH/res.csv.incomplete") - 1))" -eq 4096 ] || fail "rows: $(wc -l <"$SCRATCH/res.csv.incomplete")"
    grep -q "kept as $SCRATCH/res.csv.incomplete" "$SCRATCH/err" || fail "stderr: $(cat "$SCRATCH/err")"
    ;;
diverging)
    # ropes that blow up: exit 3, their rows say the step they were marked at, with finite figures of the state
    # they hold; the others -1; both engines write the same table
    cat >boom.json <<'JSON'
{"skein": 1, "dt": 1e-3, "steps": 500, "integrator": "euler",
 "groups": [{"count": 6, "particles": 6, "start": [0, 10, 0], "end": [0.5, 10, 0], "mass": 0.01, "pinned": [0],
   "link": {"type": "spring", "stiffness": 10},
   "sweep": {"link.stiffness": {"values": [5, 6, 1e6, 5, 2e6, 7]}}}]}
JSON
    for engine in batch reference; do
        run_skein run boom.json --every 100 --results "$engine.csv" --engine $engine --quiet
        expect_status 3
    done
    cmp -s batch.csv reference.csv || fail "the engines' tables differ"
    $PY - batch.csv <<'PY' || fail "the diverged rows"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
steps = [int(r["diverged_step"]) for r in rows]
assert [s >= 0 for s in steps] == [False, False, True, False, True, False], steps
assert all(s % 100 == 0 for s in steps if s >= 0), steps
for r in rows:
    for k, v in r.items():
        if k not in ("rope", "group", "link.stiffness", "diverged_step"):
            assert math.isfinite(float(v)), (k, v)
PY
    ;;
write_error)
    # a table that cannot be written (a file-size limit stands in for a full disk): exit 1, one line naming the
    # file, neither the table nor its temporary left
    (
        trap '' XFSZ
        ulimit -f 8
        exec "$SKEIN" run "$SRC/scenarios/w1_springs.json" --steps 2 --results res.csv --quiet
    ) >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 1
    expect_stderr "skein: res.csv: write failed: File too large"
    expect_no_output . res.csv
    ;;
warm_start)
    # a warm-started run counts the state it starts from: with no steps, each rope's max_tension is the
    # largest tension of the frame it starts from (the HDF5 file's, to the bit), on either engine
    cp "$SRC/scenarios/hanging_lines_settle.json" "$SRC/scenarios/hanging_lines_gust.json" .
    run_skein run hanging_lines_settle.json --steps 300 --h5 hanging_lines_settle.h5 --quiet
    expect_status 0
    for engine in batch reference; do
        run_skein run hanging_lines_gust.json --steps 0 --results "$engine.csv" --engine $engine --quiet
        expect_status 0
    done
    cmp -s batch.csv reference.csv || fail "the engines' tables differ"
    $PY - batch.csv hanging_lines_settle.h5 <<'PY' || fail "the warm start's extremes"
import csv, sys, h5py
rows = list(csv.DictReader(open(sys.argv[1])))
tension = h5py.File(sys.argv[2], "r")["groups/0/tension"][-1]
assert len(rows) == len(tension) == 32
for r, row in enumerate(rows):
    # read back in the file's real type (a float build prints 9 digits)
    assert tension.dtype.type(row["max_tension"]) == tension[r].max() > 0, (r, row["max_tension"], tension[r].max())
PY
    ;;
*)
    fail "unknown case $1"
    ;;
esac
exit 0
