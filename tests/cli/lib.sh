# Helpers for the CLI tests: sourced by every tests/cli/*.sh script.
# Usage of a script: SCRIPT SKEIN_BINARY SOURCE_DIR [args...]; it runs from a fresh scratch directory.
set -u

SKEIN=$1
SRC=$2
shift 2

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/skein-cli.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
cd "$SCRATCH" || exit 1

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# run_skein ARGS...: runs skein, capturing stdout in $SCRATCH/out, stderr in $SCRATCH/err and the exit
# status in $status.
run_skein() {
    "$SKEIN" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
}

expect_status() {
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1 (stderr: $(cat "$SCRATCH/err"))"
}

# The whole of stderr must be exactly this one line.
expect_stderr() {
    local got
    got=$(cat "$SCRATCH/err")
    [ "$got" = "$1" ] || fail "stderr was [$got], expected [$1]"
    [ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "stderr is not exactly one line"
}

expect_stdout_has() {
    grep -qF -- "$1" "$SCRATCH/out" || fail "stdout lacks [$1]: $(cat "$SCRATCH/out")"
}

# No temporary of an output named NAME may be left in DIR.
expect_no_temp() {
    local left
    left=$(find "$1" -maxdepth 1 -name "$2.tmp.*" | head -1)
    [ -z "$left" ] || fail "temporary $left left behind"
}

# Neither the output NAME nor a temporary of it may exist in DIR.
expect_no_output() {
    [ ! -e "$1/$2" ] || fail "$1/$2 exists"
    expect_no_temp "$1" "$2"
}

# csv_check FILE: header, ten fields per row, and per (rope, step) the particles numbered 0..n-1 in
# order. Prints the number of data rows.
csv_check() {
    local file=$1
    [ "$(head -1 "$file")" = "rope,step,time,particle,x,y,z,vx,vy,vz" ] || fail "bad header: $(head -1 "$file")"
    awk -F, 'NR > 1 {
            if (NF != 10) { print "row " NR " has " NF " fields" > "/dev/stderr"; exit 1 }
            key = $1 "," $2
            if (key != last) { expect = 0; last = key }
            if ($4 != expect) { print "row " NR ": particle " $4 ", expected " expect > "/dev/stderr"; exit 1 }
            expect++
            rows++
        }
        END { print rows + 0 }' "$file" || fail "$file is malformed"
}

# The distinct steps of a CSV file, in order, space separated.
csv_steps() {
    awk -F, 'NR > 1 && !seen[$2]++ { printf "%s%s", sep, $2; sep = " " }' "$1"
}

# interrupt_when SIGN ARGS...: runs skein ARGS in the background and, once the shell test SIGN holds (the
# run is stepping: a file it writes has grown, or it has used CPU; $pid names it), sends SIGINT as Ctrl-C
# would; waits for it, with its output and exit status as run_skein gives them. Never a fixed delay, which a
# loaded machine can outlast before the run even starts. Fails after 60 s without the sign.
interrupt_when() {
    local sign=$1
    shift
    "$SKEIN" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    local waited=0
    until eval "$sign"; do
        kill -0 "$pid" 2>/dev/null || fail "the run ended before it was interrupted: $(cat "$SCRATCH/err")"
        sleep 0.02
        waited=$((waited + 1))
        [ "$waited" -lt 3000 ] || { kill -KILL "$pid"; fail "no sign of stepping after 60 s: $sign"; }
    done
    kill -INT "$pid"
    wait "$pid"
    status=$?
}

# Signs for interrupt_when: a file matching the pattern (in the scratch directory) holds more than N bytes;
# the run has used more than N hundredths of a second of CPU.
file_over() { [ -n "$(find "$SCRATCH" -maxdepth 1 -name "$1" -size +"$2"c 2>/dev/null | head -1)" ]; }
cpu_over() { [ "$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)" -gt "$1" ]; }
