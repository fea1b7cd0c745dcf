/* Moving through a replay's frames: real-time playback by the frames' stored times, pause, one frame
 * forward or back, first and last frame, and jumps of a tenth of the frames (the time slider on the
 * keys). No window is needed, so the tests drive it as the window does. Key codes are GLFW's. */
#ifndef SKEIN_VIEWER_REPLAY_NAV_H
#define SKEIN_VIEWER_REPLAY_NAV_H

#include <stdbool.h>

/* The replay keys, one per line, as --help and H print them. */
extern const char sk_replay_key_help[];

/* Real time a frame of the window may add to the playback clock (s): after a stall the replay goes on
 * where it was instead of leaping ahead. */
#define SK_REPLAY_MAX_FRAME_TIME 0.1

typedef struct sk_replay_nav {
    const double *time; /* [n] the frames' times (s), non-decreasing */
    long n;             /* frames, at least 1 */
    long frame;         /* the frame shown */
    double clock;       /* playback time (s): the frame shown is the last one with time <= clock */
    bool paused;
} sk_replay_nav;

sk_replay_nav sk_replay_nav_make(const double *time, long n, bool paused);

/* Shows frame f, clamped to [0, n - 1]; the clock moves to its time. */
void sk_replay_nav_goto(sk_replay_nav *nav, long f);

/* Frames a jump moves: a tenth of the frames after the first, at least 1. */
long sk_replay_nav_jump_size(const sk_replay_nav *nav);

/* A frame of real time: unless paused, the clock advances by frame_time (at most
 * SK_REPLAY_MAX_FRAME_TIME) and the frame follows it; reaching the last frame pauses there. */
void sk_replay_nav_advance(sk_replay_nav *nav, double frame_time);

/* Space: pause or play (playing from the last frame starts over at the first). */
void sk_replay_nav_toggle(sk_replay_nav *nav);

/* A key event (GLFW_PRESS or GLFW_REPEAT): space pause/play; right/left arrow pause and move one frame;
 * Home/End (or R for Home) first/last frame; ] or Page Down forward a jump, [ or Page Up back a jump.
 * Returns whether the key was one of these (releases and other keys: false, nothing done). */
bool sk_replay_nav_key(sk_replay_nav *nav, int key, int event);

#endif
