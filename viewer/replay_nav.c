/* The replay's frame navigation and real-time playback. */
#include "replay_nav.h"

#include <GLFW/glfw3.h>

const char sk_replay_key_help[] =
    "  space        pause / play (from the last frame: start over)\n"
    "  right/left   pause, then one frame forward / back (hold to repeat)\n"
    "  Home / End   first / last frame (R: first)\n"
    "  ] or PgDn    a tenth of the frames forward;  [ or PgUp  back\n"
    "  Tab, mouse, wheel, F, S, H, Esc as when simulating\n";

sk_replay_nav sk_replay_nav_make(const double *time, long n, bool paused)
{
    sk_replay_nav nav = {.time = time, .n = n > 0 ? n : 1, .paused = paused};
    sk_replay_nav_goto(&nav, 0);
    return nav;
}

void sk_replay_nav_goto(sk_replay_nav *nav, long f)
{
    nav->frame = f < 0 ? 0 : f >= nav->n ? nav->n - 1 : f;
    nav->clock = nav->time[nav->frame];
}

long sk_replay_nav_jump_size(const sk_replay_nav *nav)
{
    long j = (nav->n - 1) / 10;
    return j > 0 ? j : 1;
}

void sk_replay_nav_advance(sk_replay_nav *nav, double frame_time)
{
    if (nav->paused || !(frame_time > 0))
        return;
    nav->clock += frame_time < SK_REPLAY_MAX_FRAME_TIME ? frame_time : SK_REPLAY_MAX_FRAME_TIME;
    while (nav->frame + 1 < nav->n && nav->time[nav->frame + 1] <= nav->clock)
        nav->frame++;
    if (nav->frame == nav->n - 1) {
        nav->paused = true;
        nav->clock = nav->time[nav->frame];
    }
}

void sk_replay_nav_toggle(sk_replay_nav *nav)
{
    if (nav->paused && nav->frame == nav->n - 1 && nav->n > 1)
        sk_replay_nav_goto(nav, 0);
    nav->paused = !nav->paused;
}

bool sk_replay_nav_key(sk_replay_nav *nav, int key, int event)
{
    if (event != GLFW_PRESS && event != GLFW_REPEAT)
        return false;
    switch (key) {
    case GLFW_KEY_RIGHT:
        nav->paused = true;
        sk_replay_nav_goto(nav, nav->frame + 1);
        break;
    case GLFW_KEY_LEFT:
        nav->paused = true;
        sk_replay_nav_goto(nav, nav->frame - 1);
        break;
    case GLFW_KEY_RIGHT_BRACKET:
    case GLFW_KEY_PAGE_DOWN:
        sk_replay_nav_goto(nav, nav->frame + sk_replay_nav_jump_size(nav));
        break;
    case GLFW_KEY_LEFT_BRACKET:
    case GLFW_KEY_PAGE_UP:
        sk_replay_nav_goto(nav, nav->frame - sk_replay_nav_jump_size(nav));
        break;
    case GLFW_KEY_HOME:
    case GLFW_KEY_R:
        if (event == GLFW_PRESS)
            sk_replay_nav_goto(nav, 0);
        break;
    case GLFW_KEY_END:
        if (event == GLFW_PRESS)
            sk_replay_nav_goto(nav, nav->n - 1);
        break;
    case GLFW_KEY_SPACE:
        if (event == GLFW_PRESS)
            sk_replay_nav_toggle(nav);
        break;
    default:
        return false;
    }
    return true;
}
