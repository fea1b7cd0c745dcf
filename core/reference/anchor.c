/* Reference engine: the anchor point, static or driven, and its velocity (docs/model.md section 6). */
#include "reference/reference.h"
#include "model/anchor_motion.h"

sk_vec3 sk_anchor_position(const sk_group *g, const sk_rope_params *p, sk_real t)
{
    return sk_anchor_motion_point(g, p, t);
}

sk_vec3 sk_anchor_velocity(const sk_group *g, const sk_rope_params *p, sk_real t)
{
    return sk_anchor_motion_velocity(g, p, t);
}
