/* A reference rope's largest link tension and strain and its held ends' largest support forces, folded in after
 * a step (sk_engine_track_extremes): each link's tension as sk_ref_rope_diagnose reports it, its strain
 * (|d| - l) / l with the link's own rest length, each end's |S| from the support forces the diagnosis
 * evaluates (docs/model.md section 10.4; zero at a free end), in the operations the batch engine's kernel
 * (kernels/track_extremes.c) repeats lane by lane. A value replaces the maximum only when greater, so a NaN
 * never enters it. */
#include "model/profile.h"
#include "model/vec3.h"
#include "reference/reference.h"

void sk_ref_rope_track_extremes(const sk_ref_rope *r, sk_real *tension, sk_real extremes[4])
{
    const sk_group *g = sk_ref_rope_group(r);
    if (g->link == SK_LINK_NONE && (g->n_pinned == 0 || g->deploys))
        return;
    const int n = sk_ref_rope_count(r);
    sk_rope_diagnostics d;
    sk_ref_rope_diagnose(r, &d, tension);
    for (int i = 0; g->link != SK_LINK_NONE && i + 1 < n; i++) {
        const sk_real l = sk_vec3_length(sk_vec3_sub(sk_ref_rope_position(r, i), sk_ref_rope_position(r, i + 1)));
        const sk_real rest = sk_rope_link_length(g, sk_ref_rope_params(r), sk_ref_rope_constants(r), i);
        const sk_real strain = (l - rest) / rest;
        if (tension[i] > extremes[0])
            extremes[0] = tension[i];
        if (strain > extremes[1])
            extremes[1] = strain;
    }
    for (int e = 0; e < 2; e++) {
        const sk_real m = sk_vec3_length(d.support[e]);
        if (m > extremes[2 + e])
            extremes[2 + e] = m;
    }
}
