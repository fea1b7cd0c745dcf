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
