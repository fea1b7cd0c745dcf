/* Reference engine: the anchor point, static or driven (docs/model.md section 6). */
#include "reference/reference.h"
#include "model/anchor_path.h"
#include "model/real_math.h"
#include "model/vec3.h"

sk_vec3 sk_anchor_position(const sk_group *g, const sk_rope_params *p, sk_real t)
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
