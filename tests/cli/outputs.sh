#!/usr/bin/env bash
# Output paths are checked before the first step: exit 2, one line naming the option and the path, nothing
# written, the scenario untouched. Usage: outputs.sh SKEIN SRC CASE
source "$(dirname "$0")/lib.sh"
cp "$SRC/scenarios/seed001_ball.json" ball.json
sum=$(cksum <ball.json)

# Refused: exit 2 with exactly this line, no output written, the scenario as it was.
refused() {
    local want=$1
    shift
    run_skein "$@"
    expect_status 2
    expect_stderr "skein: $want"
    [ "$(cksum <ball.json)" = "$sum" ] || fail "the scenario file was changed"
    [ ! -s "$SCRATCH/out" ] || fail "the refused run printed: $(cat "$SCRATCH/out")"
    local left
    left=$(find . -name '*.tmp.*' -o -name '*.incomplete' -o -name '.skein-check.*' -o -name '*.frames' | head -1)
    [ -z "$left" ] || fail "left $left"
}

case $1 in
same_file)
    refused "--csv same.out and --h5 same.out: the same file; give each output its own" \
        run ball.json --steps 5 --csv same.out --h5 same.out
    [ ! -e same.out ] || fail "same.out written"
    refused "--h5 x.h5 and --checkpoint x.h5: the same file; give each output its own" \
        run ball.json --steps 5 --h5 x.h5 --checkpoint x.h5 --checkpoint-every 1
    # spelled differently, or through a link, it is still the same file
    refused "--csv ./a.csv and --h5 a.csv: the same file; give each output its own" \
        run ball.json --steps 5 --csv ./a.csv --h5 a.csv
    mkdir sub
    refused "--csv sub/../b.csv and --h5 b.csv: the same file; give each output its own" \
        run ball.json --steps 5 --csv sub/../b.csv --h5 b.csv
    echo existing >target.csv
    ln -s target.csv link.csv
    refused "--csv target.csv and --h5 link.csv: the same file; give each output its own" \
        run ball.json --steps 5 --csv target.csv --h5 link.csv
    [ "$(cat target.csv)" = existing ] || fail "target.csv changed"
    # the checkpoint's journal is a file the run writes too
    refused "--csv ck.h5.frames and --checkpoint's journal ck.h5.frames: the same file; give each output its own" \
        run ball.json --steps 5 --csv ck.h5.frames --checkpoint ck.h5 --checkpoint-every 1
    ;;
on_scenario)
    refused "--csv ball.json: is the scenario file ball.json itself; the run would overwrite its input" \
        run ball.json --steps 5 --csv ball.json
    refused "--h5 ./ball.json: is the scenario file ball.json itself; the run would overwrite its input" \
        run ball.json --steps 5 --h5 ./ball.json
    ln -s ball.json alias.json
    refused "--csv ball.json: is the scenario file alias.json itself; the run would overwrite its input" \
        run alias.json --steps 5 --csv ball.json
    refused "--checkpoint ball.json: is the scenario file ball.json itself; the run would overwrite its input" \
        run ball.json --steps 5 --checkpoint ball.json --checkpoint-every 1
    ;;
directory)
    mkdir out.csv
    refused "--csv out.csv: is a directory; name a file" run ball.json --steps 5 --csv out.csv --h5 fine.h5
    [ ! -e fine.h5 ] || fail "the other output was written"
    refused "--h5 .: is a directory; name a file" run ball.json --steps 5 --h5 .
    ;;
no_directory)
    refused "--h5 missing/out.h5: cannot create a file in missing: No such file or directory" \
        run ball.json --steps 5 --csv fine.csv --h5 missing/out.h5
    [ ! -e missing ] && [ ! -e fine.csv ] || fail "created something"
    echo plain >file
    refused "--checkpoint file/ck.h5: cannot create a file in file: Not a directory" \
        run ball.json --steps 5 --checkpoint file/ck.h5 --checkpoint-every 1
    ;;
special)
    # An output onto something that is not a regular file (a FIFO; as root a character device) is refused
    # before the first step: renaming the finished file onto it would replace the device with a plain file.
    mkfifo pipe.csv
    refused "--csv pipe.csv: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
        run ball.json --steps 5 --csv pipe.csv
    [ -p pipe.csv ] || fail "pipe.csv is no longer a FIFO"
    ln -s pipe.csv pipe.h5
    refused "--h5 pipe.h5: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
        run ball.json --steps 5 --h5 pipe.h5
    [ -p pipe.csv ] && [ -L pipe.h5 ] || fail "the FIFO or the link to it was replaced"
    refused "--checkpoint pipe.csv: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
        run ball.json --steps 5 --checkpoint pipe.csv --checkpoint-every 1
    if [ "$(id -u)" -eq 0 ]; then
        mknod null.csv c 1 3 || fail "mknod failed"
        mknod null.h5 c 1 3 || fail "mknod failed"
        refused "--csv null.csv: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
            run ball.json --steps 5 --csv null.csv
        refused "--h5 null.h5: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
            run ball.json --steps 5 --h5 null.h5
        refused "--results null.csv: is not a regular file (a device, a FIFO or a socket), which the output would replace; name a file" \
            run ball.json --steps 5 --results null.csv
        [ -c null.csv ] && [ -c null.h5 ] || fail "a character device was replaced"
    else
        echo "SKIP: the character device cases need root (mknod)"
    fi
    # a regular file through a link is an output as any other
    echo old >real.csv
    ln -s real.csv link.csv
    run_skein run ball.json --steps 5 --csv link.csv --quiet
    expect_status 0
    [ "$(head -1 link.csv)" = "rope,step,time,particle,x,y,z,vx,vy,vz" ] || fail "link.csv was not written"
    ;;
incomplete_names)
    # A Ctrl-C keeps what was written as FILE.incomplete: a FILE.incomplete that is not what skein keeps there
    # (the user's own file, a directory, a FIFO) is refused before the first step rather than replaced.
    # refused as refused() checks, the .incomplete names left aside (they are the user's here)
    refused_beside() {
        local want=$1
        shift
        run_skein "$@"
        expect_status 2
        expect_stderr "skein: $want"
        [ ! -s "$SCRATCH/out" ] || fail "the refused run printed: $(cat "$SCRATCH/out")"
        local left
        left=$(find . -name '*.tmp.*' -o -name '.skein-check.*' -o -name '*.frames' -o -name 'out.csv' -o -name 'out.h5' -o -name 'res.csv' -o -name vtk | head -1)
        [ -z "$left" ] || fail "left $left"
    }
    echo precious >out.csv.incomplete
    refused_beside "--csv out.csv: out.csv.incomplete is there and is not what a stopped run of skein kept; a Ctrl-C would replace it: move it away or name another output" \
        run ball.json --steps 5 --csv out.csv
    [ "$(cat out.csv.incomplete)" = precious ] || fail "out.csv.incomplete changed"
    rm out.csv.incomplete
    echo precious >out.h5.incomplete
    refused_beside "--h5 out.h5: out.h5.incomplete is there and is not what a stopped run of skein kept; a Ctrl-C would replace it: move it away or name another output" \
        run ball.json --steps 5 --h5 out.h5
    rm out.h5.incomplete
    mkdir res.csv.incomplete
    refused_beside "--results res.csv: res.csv.incomplete is there and is not what a stopped run of skein kept; a Ctrl-C would replace it: move it away or name another output" \
        run ball.json --steps 5 --results res.csv
    rmdir res.csv.incomplete
    mkdir -p vtk.incomplete && echo mine >vtk.incomplete/notes.txt
    refused_beside "--vtk vtk: vtk.incomplete is there and is not what a stopped run of skein kept; a Ctrl-C would replace it: move it away or name another output" \
        run ball.json --steps 5 --vtk vtk
    [ "$(cat vtk.incomplete/notes.txt)" = mine ] || fail "vtk.incomplete/notes.txt changed"
    rm -r vtk.incomplete
    # what a Ctrl-C of skein kept is taken: the next Ctrl-C replaces it
    interrupt_when "cpu_over 20" run "$SRC/tests/checkpoint/long.json" --steps 100000000 --every 1000 \
        --csv out.csv --h5 out.h5 --results res.csv --vtk vtk --quiet
    expect_status 130
    [ -s out.csv.incomplete ] && [ -s out.h5.incomplete ] && [ -s res.csv.incomplete ] && [ -d vtk.incomplete ] ||
        fail "the Ctrl-C kept $(ls)"
    run_skein run ball.json --steps 5 --csv out.csv --h5 out.h5 --results res.csv --vtk vtk --quiet
    expect_status 0
    ;;
no_orphan_journal)
    # A checkpointed run that fails before its first checkpoint (a file-size limit stands in for a full disk)
    # leaves neither checkpoint nor journal: there is nothing to resume.
    (
        trap '' XFSZ
        ulimit -f 1
        exec "$SKEIN" run "$SRC/scenarios/w1_springs.json" --steps 4 --every 1 --ropes 0-999 --csv out.csv \
            --checkpoint ck.h5 --checkpoint-every 4
    ) >"$SCRATCH/out" 2>"$SCRATCH/err"
    status=$?
    expect_status 1
    [ ! -e ck.h5 ] && [ ! -e ck.h5.frames ] || fail "left $(ls)"
    ;;
*)
    fail "unknown case $1"
    ;;
esac
exit 0
