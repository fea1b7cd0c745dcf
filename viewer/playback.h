/* Real-time playback: pause, speed, and how many fixed steps each frame takes. Real time goes through
 * docs/model.md section 8's accumulator (each frame's real time clamped to 0.01 s, whole steps of dt); the
 * speed factor makes a step last dt / speed real seconds, so the clamp still bounds real time. */
#ifndef SKEIN_VIEWER_PLAYBACK_H
#define SKEIN_VIEWER_PLAYBACK_H

#include <stdbool.h>

#include "accumulator.h"

/* Speeds are 2^k for k in [-SK_PLAYBACK_SPEED_EXP_MAX, SK_PLAYBACK_SPEED_EXP_MAX]. */
#define SK_PLAYBACK_SPEED_EXP_MAX 6

typedef struct sk_playback {
    double dt;     /* the scenario's step (s) */
    bool paused;
    int speed_exp; /* speed = 2^speed_exp */
    sk_accumulator acc; /* in real seconds: acc.dt = dt / speed */
} sk_playback;

/* Running at speed 1 with an empty accumulator. */
sk_playback sk_playback_make(double dt, bool paused);

double sk_playback_speed(const sk_playback *p);

/* Steps to take for a frame that lasted frame_time real seconds: 0 while paused (the real time is
 * then dropped, not saved up). */
long sk_playback_frame(sk_playback *p, double frame_time);

void sk_playback_toggle_pause(sk_playback *p);

/* Doubles (halves) the speed, up to the limits; the part of a step already accumulated is kept. */
void sk_playback_faster(sk_playback *p);
void sk_playback_slower(sk_playback *p);

/* Forgets accumulated real time (after a reset). */
void sk_playback_clear(sk_playback *p);

#endif
