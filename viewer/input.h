/* The keys: what each one does to the viewer's state (pause, single step, speed, reset, next rope),
 * and what it asks of the window (frame the view, screenshot, help, quit). No window is needed, so the
 * key logic is tested as it runs. Key codes are GLFW's (GLFW_KEY_*). */
#ifndef SKEIN_VIEWER_INPUT_H
#define SKEIN_VIEWER_INPUT_H

#include "playback.h"
#include "sim.h"
#include "skein/types.h"

typedef enum sk_view_action {
    SK_VIEW_NONE,
    SK_VIEW_PAUSE,      /* space: pause or resume */
    SK_VIEW_STEP,       /* right arrow: pause, then exactly one step of dt */
    SK_VIEW_FASTER,     /* + (or =): double the simulation speed */
    SK_VIEW_SLOWER,     /* -: halve it */
    SK_VIEW_RESET,      /* R: back to the initial state */
    SK_VIEW_NEXT_ROPE,  /* Tab: the next rope becomes the current one */
    SK_VIEW_FRAME,      /* F: frame every rope */
    SK_VIEW_SCREENSHOT, /* S: write a PNG */
    SK_VIEW_HELP,       /* H: print the keys */
    SK_VIEW_QUIT        /* Esc */
} sk_view_action;

/* The keys and mouse, one per line, as --help and H print them. */
extern const char sk_view_key_help[];

/* The state the keys act on. */
typedef struct sk_view_controls {
    sk_view_sim *sim;
    sk_playback playback;
    int current; /* the rope named in the title, 0 <= current < sim->n */
} sk_view_controls;

sk_view_controls sk_view_controls_make(sk_view_sim *sim, bool paused);

/* The action of a GLFW key (SK_VIEW_NONE for others). */
sk_view_action sk_view_key_action(int key);

/* Does the state's part of an action (the rest is the window's). Returns 0, or the status of a reset
 * that ran out of memory (err set). */
int sk_view_controls_apply(sk_view_controls *c, sk_view_action a, sk_error *err);

/* A key event (GLFW_PRESS or GLFW_REPEAT; releases do nothing, and only the single step and the speed
 * keys repeat): applies its action and returns it, so the window can do its part. *status gets the
 * result of sk_view_controls_apply. */
sk_view_action sk_view_controls_key(sk_view_controls *c, int key, int event, int *status, sk_error *err);

/* A frame of real time: takes the steps the playback gives for frame_time. When clock is not NULL, stops
 * early once clock() has advanced by budget seconds and drops the rest (a slow machine then runs
 * slower than real time rather than freezing). Returns the steps taken. */
long sk_view_controls_advance(sk_view_controls *c, double frame_time, double (*clock)(void), double budget);

#endif
