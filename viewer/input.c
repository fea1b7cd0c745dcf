/* Keys to actions, and the actions that change the viewer's state. */
#include "input.h"

#include <GLFW/glfw3.h>

const char sk_view_key_help[] =
    "  space        pause / resume\n"
    "  right arrow  single step: pause, then exactly one step of dt (hold to repeat)\n"
    "  + / -        simulation speed x2 / x0.5 (1/64 .. 64 times real time)\n"
    "  R            reset to the initial state\n"
    "  Tab          next rope (the one the title shows; its particles are larger)\n"
    "  left drag    orbit the camera        right drag  pan\n"
    "  wheel        zoom\n"
    "  F            frame all ropes\n"
    "  S            screenshot to skein-view-NNNN.png in the current directory\n"
    "  H            print this help\n"
    "  Esc          quit\n";

sk_view_controls sk_view_controls_make(sk_view_sim *sim, bool paused)
{
    sk_view_controls c = {
        .sim = sim,
        .playback = sk_playback_make(sk_scenario_dt(sim->scenario), paused),
        .current = 0,
    };
    return c;
}

sk_view_action sk_view_key_action(int key)
{
    switch (key) {
    case GLFW_KEY_SPACE:
        return SK_VIEW_PAUSE;
    case GLFW_KEY_RIGHT:
        return SK_VIEW_STEP;
    case GLFW_KEY_EQUAL: /* "+" is shift and this key on US keyboards: take it with or without shift */
    case GLFW_KEY_KP_ADD:
        return SK_VIEW_FASTER;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        return SK_VIEW_SLOWER;
    case GLFW_KEY_R:
        return SK_VIEW_RESET;
    case GLFW_KEY_TAB:
        return SK_VIEW_NEXT_ROPE;
    case GLFW_KEY_F:
        return SK_VIEW_FRAME;
    case GLFW_KEY_S:
        return SK_VIEW_SCREENSHOT;
    case GLFW_KEY_H:
        return SK_VIEW_HELP;
    case GLFW_KEY_ESCAPE:
        return SK_VIEW_QUIT;
    default:
        return SK_VIEW_NONE;
    }
}

int sk_view_controls_apply(sk_view_controls *c, sk_view_action a, sk_error *err)
{
    switch (a) {
    case SK_VIEW_PAUSE:
        sk_playback_toggle_pause(&c->playback);
        break;
    case SK_VIEW_STEP:
        c->playback.paused = true;
        sk_view_sim_step(c->sim);
        break;
    case SK_VIEW_FASTER:
        sk_playback_faster(&c->playback);
        break;
    case SK_VIEW_SLOWER:
        sk_playback_slower(&c->playback);
        break;
    case SK_VIEW_RESET: {
        int rc = sk_view_sim_reset(c->sim, err);
        if (rc != 0)
            return rc;
        sk_playback_clear(&c->playback);
        break;
    }
    case SK_VIEW_NEXT_ROPE:
        c->current = c->sim->n > 0 ? (c->current + 1) % c->sim->n : 0;
        break;
    default:
        break;
    }
    return 0;
}

sk_view_action sk_view_controls_key(sk_view_controls *c, int key, int event, int *status, sk_error *err)
{
    *status = 0;
    sk_view_action a = sk_view_key_action(key);
    bool repeats = a == SK_VIEW_STEP || a == SK_VIEW_FASTER || a == SK_VIEW_SLOWER;
    if (a == SK_VIEW_NONE || !(event == GLFW_PRESS || (event == GLFW_REPEAT && repeats)))
        return SK_VIEW_NONE;
    *status = sk_view_controls_apply(c, a, err);
    return a;
}

long sk_view_controls_advance(sk_view_controls *c, double frame_time, double (*clock)(void), double budget)
{
    long steps = sk_playback_frame(&c->playback, frame_time);
    double start = clock ? clock() : 0;
    for (long k = 0; k < steps; k++) {
        sk_view_sim_step(c->sim);
        /* Reading the clock costs little next to a step, but not nothing: every 64 steps. */
        if (clock && (k & 63) == 63 && clock() - start > budget) {
            sk_playback_clear(&c->playback);
            return k + 1;
        }
    }
    return steps;
}
