#!/usr/bin/env bash
# skein run across processes on this machine: W1 (65,536 ropes of 64 springs) with HDF5 output every 100
# steps, as 1 process x 2 threads, 2 ranks x 1 thread and 2 ranks x 2 threads (oversubscribed); then one frame
# of 1,048,576 ropes written to HDF5 by 1 process and by 2 ranks (one file written collectively through MPI-IO,
# each rank its own rows). Medians of REPEATS runs; the machine may be shared: compare figures of one run.
# Usage: bench/mpi_scaling.sh [BUILD_DIR [REPEATS [STEPS]]]   (default: build 3 300)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
repeats=${2:-3}
steps=${3:-300}
skein=$build/skein
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# wall seconds of one command
seconds() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

# W1 at 65,536 ropes; the output holds every 64th rope (1024 ropes x 64 particles a frame).
w1=(run scenarios/w1_springs.json --steps "$steps" --every 100 --set 'groups[0].count=65536'
    --set "output.ropes=$(/usr/bin/python3 -c 'print(list(range(0, 65536, 64)))' | tr -d ' ')" --quiet)
particle_steps=$((65536 * 64 * steps))
echo "W1, 65536 ropes x 64 springs, $steps steps, HDF5 every 100 steps (1024 ropes), median of $repeats:"
for config in "1 2" "2 1" "2 2"; do
    set -- $config
    ranks=$1 threads=$2
    times=()
    for ((i = 0; i < repeats; i++)); do
        if [ "$ranks" -eq 1 ]; then
            times+=("$(seconds "$skein" "${w1[@]}" --threads "$threads" --h5 "$work/w1.h5")")
        else
            times+=("$(seconds mpirun --oversubscribe -np "$ranks" "$skein" "${w1[@]}" --threads "$threads" --h5 "$work/w1.h5")")
        fi
    done
    t=$(printf '%s\n' "${times[@]}" | median)
    printf '  %d x %d threads: %.2f s wall, %.3g particle-steps/s\n' "$ranks" "$threads" "$t" \
        "$(awk -v n="$particle_steps" -v t="$t" 'BEGIN { print n / t }')"
done

# One frame (step 0) of 1,048,576 ropes of 8 particles: the run with --h5 less the same run without.
big=(run scenarios/w1_springs.json --steps 0 --set 'groups[0].count=1048576' --set 'groups[0].particles=8'
     --set 'output.ropes=[0]' --ropes 0-1048575 --quiet)
echo "One frame of 1048576 ropes x 8 particles to HDF5, median of $repeats:"
for config in "1 2" "2 1"; do
    set -- $config
    ranks=$1 threads=$2
    launch=()
    [ "$ranks" -eq 1 ] || launch=(mpirun --oversubscribe -np "$ranks")
    with=() without=()
    for ((i = 0; i < repeats; i++)); do
        with+=("$(seconds "${launch[@]}" "$skein" "${big[@]}" --threads "$threads" --h5 "$work/big.h5")")
        without+=("$(seconds "${launch[@]}" "$skein" "${big[@]}" --threads "$threads")")
    done
    tw=$(printf '%s\n' "${with[@]}" | median)
    to=$(printf '%s\n' "${without[@]}" | median)
    # the frame's data as stored uncompressed, and the file on disk
    raw=$(/usr/bin/python3 -c '
import sys, h5py
n = 0
def add(name, obj):
    global n
    if isinstance(obj, h5py.Dataset): n += obj.size * obj.dtype.itemsize
h5py.File(sys.argv[1], "r").visititems(add)
print(n)' "$work/big.h5")
    disk=$(stat -c %s "$work/big.h5")
    awk -v r="$ranks" -v th="$threads" -v tw="$tw" -v to="$to" -v raw="$raw" -v disk="$disk" 'BEGIN {
        printf "  %d x %d threads: write %.2f s (run %.2f s, without output %.2f s), %.0f MB/s of data (%.0f MB), %.0f MB/s to disk\n",
            r, th, tw - to, tw, to, raw / 1e6 / (tw - to), raw / 1e6, disk / 1e6 / (tw - to) }'
done
