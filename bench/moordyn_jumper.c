/* MoorDyn on W4's jumper, for bench/README.md ("W4"): the Lowe and Langley input file of MoorDyn's own tests
 * (tests/Mooring/lowe_and_langley_2006/line.txt), its top end moved along x by A sin(2 pi t / 27) as W4's
 * jumpers are, coupling steps of 5 ms through MoorDyn's C API; prints the CPU and wall time of the steps alone
 * (the initial-condition solve of MoorDyn_Init left out) and the top node's force at the end. Not part of the
 * build: compile it against a MoorDyn build (CMake, Release),
 *   cc -O2 bench/moordyn_jumper.c -I MoorDyn/source -I MoorDyn/build/source -L MoorDyn/build/source \
 *      -lmoordyn -Wl,-rpath,$PWD/MoorDyn/build/source -lm -o moordyn_jumper
 * and run it in a folder holding line.txt: `moordyn_jumper line.txt [AMPLITUDE [SECONDS]]` (10 m, 100 s). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "MoorDyn2.h"

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *file = argc > 1 ? argv[1] : "line.txt";
    const double amplitude = argc > 2 ? atof(argv[2]) : 10.0, duration = argc > 3 ? atof(argv[3]) : 100.0;
    const double pi = 3.14159265358979323846;
    MoorDyn system = MoorDyn_Create(file);
    if (!system)
        return 1;
    MoorDynPoint top = MoorDyn_GetPoint(system, 2);
    double r0[3], r[3], u[3] = {0, 0, 0}, f[3];
    if (!top || MoorDyn_GetPointPos(top, r0) != MOORDYN_SUCCESS || MoorDyn_Init(system, r0, u) != MOORDYN_SUCCESS)
        return 1;
    const double wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    double t = 0, dt = 0.005;
    while (t < duration - 1e-9) {
        MoorDyn_GetPointPos(top, r);
        /* the velocity that brings the top onto the sine at the end of the step, as MoorDyn's own test does */
        u[0] = (r0[0] + amplitude * sin(2 * pi / 27 * (t + dt)) - r[0]) / dt;
        if (MoorDyn_Step(system, r, u, f, &t, &dt) != MOORDYN_SUCCESS)
            return 1;
    }
    const double wall = seconds(CLOCK_MONOTONIC) - wall0, cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    double force[3] = {0, 0, 0};
    unsigned int segments = 0;
    MoorDynLine line = MoorDyn_GetLine(system, 1);
    if (line && MoorDyn_GetLineN(line, &segments) == MOORDYN_SUCCESS)
        MoorDyn_GetLineNodeForce(line, segments, force);
    printf("%.1f s simulated: steps %.3f s CPU, %.3f s wall; top node force %.3f kN\n", t, cpu, wall,
           1e-3 * sqrt(force[0] * force[0] + force[1] * force[1] + force[2] * force[2]));
    MoorDyn_Close(system);
    return 0;
}
