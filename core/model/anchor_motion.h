/* The anchor point x(t) of a group's rope and its velocity (docs/model.md section 6.5), with libm's sine: the
 * reference engine's every step, and where both engines place a pin anchor's particle before the first step. */
#ifndef SKEIN_MODEL_ANCHOR_MOTION_H
#define SKEIN_MODEL_ANCHOR_MOTION_H

#include "model/anchor_path.h"
#include "model/real_math.h"
#include "model/vec3.h"
#include "scenario/scenario_types.h"

/* point, plus whichever of the sine, the towing velocity * t and the path the group's motion has. */
static inline sk_vec3 sk_anchor_motion_point(const sk_group *g, const sk_rope_params *p, sk_real t)
{
    sk_vec3 x = p->anchor_point;
    if (!g->anchor_driven)
        return x;
    if (g->motion_sine)
        x = sk_vec3_add(x, sk_vec3_scale(p->motion_amplitude, SK_SIN((p->motion_omega * t) + p->motion_phase)));
    if (g->motion_tow)
        x = sk_vec3_add(x, sk_vec3_scale(p->motion_velocity, t));
    if (g->path_count > 0)
        x = sk_vec3_add(x, sk_path_displacement(g->path_times, g->path_points, g->path_count, t));
    return x;
}

/* The derivative of each motion: the sine's amplitude * (omega * cos(omega t + phase)), its cosine taken as the
 * sine of the angle plus pi/2 (the one function both engines have), the towing velocity, the path's slope. */
static inline sk_vec3 sk_anchor_motion_velocity(const sk_group *g, const sk_rope_params *p, sk_real t)
{
    sk_vec3 u = sk_vec3_zero();
    if (!g->anchor_driven)
        return u;
    if (g->motion_sine)
        u = sk_vec3_add(u, sk_vec3_scale(p->motion_amplitude,
                                         p->motion_omega * SK_SIN(((p->motion_omega * t) + p->motion_phase) + SK_HALF_PI)));
    if (g->motion_tow)
        u = sk_vec3_add(u, p->motion_velocity);
    if (g->path_count > 0)
        u = sk_vec3_add(u, sk_path_velocity(g->path_times, g->path_points, g->path_count, t));
    return u;
}

#endif
