#!/usr/bin/env bash
# Makes the seeds of the fuzz targets of the checkpoint reader (tests/fuzz_checkpoint_seeds/) and of
# skein-view's HDF5 replay reader (tests/fuzz_h5_replay_seeds/) with a built skein: real checkpoints with their
# frame journals, and real outputs of skein run --h5, of small scenarios (small files fuzz fast) that
# between them have every kind of state a checkpoint keeps (velocities, verlet's previous positions,
# contacts, BDF2's steps before), deploying and diverged ropes, and both engines.
# Usage: tests/fuzz_make_seeds.sh BUILD_DIR   (needs h5dump, of hdf5-tools)
set -euo pipefail
skein=$(realpath "$1")/skein
src=$(realpath "$(dirname "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

springs='{"skein": 1, "dt": 1e-3, "steps": 100000000, "integrator": "symplectic", "groups": [
 {"count": 3, "particles": 4, "start": [0, 2, 0], "end": [0.6, 2, 0], "mass": 0.1, "pinned": [0],
  "link": {"type": "spring", "stiffness": 200}, "drag": {"k1": 0.1, "k2": 0.01},
  "sweep": {"link.stiffness": {"random": {"min": 100, "max": 400, "seed": 3}}}},
 {"count": 2, "particles": 3, "start": [0, 1, 0], "end": [0.4, 1, 0.1], "mass": 0.05,
  "link": {"type": "bungee", "stiffness": 80},
  "anchor": {"type": "anchored_bungee", "point": [0, 1.1, 0], "stiffness": 60, "length": 0.05,
   "motion": {"amplitude": [0.05, 0.02, 0], "omega": 7, "phase": 0.3}},
  "buoyancy": {"water_height": 0.8, "max_depth": 0.1, "density": 1000, "volume": 1e-5}},
 {"count": 2, "particles": 1, "start": [0, 3, 0], "end": [0, 3, 0], "mass": 0.2, "velocity": [0.5, 1, 0]}]}'
deploying='{"skein": 1, "dt": 1e-3, "steps": 100000000, "integrator": "euler", "groups": [
 {"count": 2, "particles": 6, "start": [0, 5, 0], "end": [0, 5, 0.1], "mass": 0.05,
  "link": {"type": "spring", "stiffness": 300, "length": 0.05},
  "anchor": {"type": "anchored_spring", "point": [0, 5, 0], "stiffness": 300, "length": 0.01},
  "deploy": {"velocity": 1.5, "initial_particles": 2}, "sweep": {"deploy.velocity": {"from": 0.5, "to": 2}}},
 {"count": 1, "particles": 3, "start": [0, 3, 0], "end": [0, 3, 0], "mass": 0.05,
  "link": {"type": "spring", "stiffness": 100, "length": 0.1},
  "anchor": {"type": "anchored_spring", "point": [0, 3.1, 0], "stiffness": 100, "length": 0.1},
  "deploy": {"velocity": 0.5, "initial_particles": 1, "max_length": 0.3}}]}'
contacts='{"skein": 1, "dt": 1e-3, "steps": 100000000, "integrator": "verlet",
 "ground": {"height": 0, "restitution": 0.3}, "groups": [
 {"count": 2, "particles": 4, "start": [0, 0.3, 0], "end": [0.3, 0.2, 0], "mass": 0.1, "pinned": [0],
  "link": {"type": "rod"}},
 {"count": 2, "particles": 3, "start": [0, 0.4, 0], "end": [0.2, 0.4, 0], "mass": 0.1,
  "link": {"type": "cable", "restitution": 0.5},
  "anchor": {"type": "cable", "point": [0, 0.45, 0], "length": 0.06, "restitution": 0.2}}]}'
bdf2='{"skein": 1, "dt": 1e-2, "steps": 100000000, "integrator": "implicit", "implicit": {"scheme": "bdf2"},
 "groups": [{"count": 3, "particles": 5, "start": [0, 2, 0], "end": [1, 2, 0], "mass": 0.1, "pinned": [0],
  "link": {"type": "spring", "stiffness": 500}, "sweep": {"link.stiffness": {"from": 300, "to": 900}}}]}'
exploding='{"skein": 1, "dt": 1e-3, "steps": 100000000, "integrator": "cyclone", "groups": [
 {"count": 4, "particles": 4, "start": [0, 10, 0], "end": [0.5, 10, 0], "mass": 0.01, "pinned": [0],
  "link": {"type": "spring", "stiffness": 10}, "sweep": {"link.stiffness": {"values": [5, 1e7, 6, 3e6]}}}]}'

# A checkpoint of scenario $2 taken at the run's first checkpoint (a frame every $every steps, 50 unless set, a
# checkpoint every $checkpoint_every, 100 unless set), with its journal cut back to what the checkpoint counts,
# written as NAME.ckpt: the checkpoint then the journal (the split the fuzz target makes: the checkpoint's own
# length, in its seal).
checkpoint_seed() {
    local name=$1 json=$2
    shift 2
    rm -rf ck.h5 ck.h5.frames out.csv pv pv.tmp.* res.csv res.csv.tmp.*
    printf '%s' "$json" >s.json
    "$skein" run s.json --every "${every:-50}" --checkpoint ck.h5 --checkpoint-every "${checkpoint_every:-100}" \
        --csv out.csv --quiet "$@" \
        >/dev/null 2>&1 &
    local pid=$! i
    for i in $(seq 5000); do [ -e ck.h5 ] && break; sleep 0.002; done
    kill -STOP $pid
    cp ck.h5 c.h5
    cp ck.h5.frames c.frames
    kill -KILL $pid
    wait $pid 2>/dev/null || true
    local bytes
    bytes=$(h5dump -a journal_bytes c.h5 | sed -n 's/.*(0): *\([0-9]*\).*/\1/p')
    truncate -s "$bytes" c.frames
    cat c.h5 c.frames >"$src/fuzz_checkpoint_seeds/$name.ckpt"
}

checkpoint_seed springs_batch "$springs" --engine batch
checkpoint_seed springs_reference "$springs" --engine reference
checkpoint_seed deploying_reference "$deploying" --engine reference
checkpoint_seed contacts_batch "$contacts" --engine batch
checkpoint_seed bdf2_batch "$bdf2" --engine batch
checkpoint_seed bdf2_reference "$bdf2" --engine reference
every=20 checkpoint_every=200 checkpoint_seed diverged_batch "$exploding" --engine batch
# --vtk and --results: the VTK directory's attributes and each rope's extremes
checkpoint_seed results_batch "$deploying" --engine batch --vtk pv --vtk-cells ropes --results res.csv
every=20 checkpoint_every=200 checkpoint_seed results_reference "$exploding" --engine reference --vtk pv --results res.csv

# Outputs of the viewer's test scenario and of the others, a few frames of a few ropes.
"$skein" run "$src/viewer/short_ropes.json" --steps 40 --every 10 --ropes 1,2 --h5 "$src/fuzz_h5_replay_seeds/short_ropes.h5" --quiet
for name in deploying contacts exploding; do
    printf '%s' "${!name}" >s.json
    "$skein" run s.json --steps 300 --every 100 --h5 "$src/fuzz_h5_replay_seeds/$name.h5" --quiet || true
done
# Outputs a warm start can start from (every rope, verlet's previous positions, deploying segments).
for name in deploying contacts; do
    printf '%s' "${!name}" >s.json
    "$skein" run s.json --steps 300 --every 100 --h5 "$src/fuzz_h5_replay_seeds/warm_$name.h5" --quiet
done
# fuzz_checkpoint_seeds/bdf2_version_2.ckpt is not made here: a checkpoint of format version 2 (BDF2 without
# the velocities two steps before), as skein wrote before version 3, which the reader still takes.
ls -l "$src/fuzz_checkpoint_seeds" "$src/fuzz_h5_replay_seeds"
