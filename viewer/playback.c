/* Pause, speed and the real-time accumulator. */
#include "playback.h"

#include <math.h>

sk_playback sk_playback_make(double dt, bool paused)
{
    sk_playback p = {.dt = dt, .paused = paused, .speed_exp = 0};
    p.acc.dt = dt;
    p.acc.remainder = 0;
    return p;
}

double sk_playback_speed(const sk_playback *p) { return ldexp(1.0, p->speed_exp); }

long sk_playback_frame(sk_playback *p, double frame_time)
{
    if (p->paused)
        return 0;
    return sk_accumulator_add(&p->acc, frame_time);
}

void sk_playback_toggle_pause(sk_playback *p) { p->paused = !p->paused; }

/* Powers of two: dt / speed and the rescaled remainder are exact. */
static void set_speed(sk_playback *p, int exp)
{
    if (exp > SK_PLAYBACK_SPEED_EXP_MAX)
        exp = SK_PLAYBACK_SPEED_EXP_MAX;
    if (exp < -SK_PLAYBACK_SPEED_EXP_MAX)
        exp = -SK_PLAYBACK_SPEED_EXP_MAX;
    /* The remainder is real time at the old speed; the same fraction of a step at the new one. */
    p->acc.remainder = ldexp(p->acc.remainder, p->speed_exp - exp);
    p->speed_exp = exp;
    p->acc.dt = ldexp(p->dt, -exp);
}

void sk_playback_faster(sk_playback *p) { set_speed(p, p->speed_exp + 1); }

void sk_playback_slower(sk_playback *p) { set_speed(p, p->speed_exp - 1); }

void sk_playback_clear(sk_playback *p) { p->acc.remainder = 0; }
