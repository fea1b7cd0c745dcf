/* Reference engine: the anchor point, static or driven (docs/model.md section 6). */
#include "reference/reference.h"
#include "model/real_math.h"
#include "model/vec3.h"

sk_vec3 sk_anchor_position(const sk_group *g, const sk_rope_params *p, sk_real t)
{
    if (!g->anchor_driven)
        return p->anchor_point;
    sk_real s = SK_SIN((p->motion_omega * t) + p->motion_phase);
    return sk_vec3_add(p->anchor_point, sk_vec3_scale(p->motion_amplitude, s));
}
