/* The fixed-step accumulator of real time (docs/model.md section 8), as seed 000's main loop runs it. */
#include "accumulator.h"

sk_accumulator sk_accumulator_make(sk_real dt)
{
    sk_accumulator acc = {(double)dt, 0.0};
    return acc;
}

long sk_accumulator_add(sk_accumulator *acc, double frame_time)
{
    if (frame_time > 0) {
        if (frame_time > SK_ACCUMULATOR_MAX_FRAME)
            frame_time = SK_ACCUMULATOR_MAX_FRAME;
        acc->remainder += frame_time;
    }
    long steps = 0;
    while (acc->remainder >= acc->dt) {
        acc->remainder -= acc->dt;
        steps++;
    }
    return steps;
}
