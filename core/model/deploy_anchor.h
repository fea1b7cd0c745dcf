/* The anchored segment of a deploying line given by EA (docs/model.md section 7.1): a segment of line of rest
 * length s, so of stiffness EA / s, bounded below at s_min = L / 4 (L the line's segment). Both engines call
 * these, the kernels on lanes with the same operations (kernels/forces.h). */
#ifndef SKEIN_MODEL_DEPLOY_ANCHOR_H
#define SKEIN_MODEL_DEPLOY_ANCHOR_H

#include "skein/types.h"

/* s_min: below it the segment would outgrow the links' stiffness without bound (EA / s as s -> 0) and with it
 * the explicit step's stability limit; at L / 4 the particle it holds feels at most 4 EA / L + EA / L. */
static inline sk_real sk_deploy_anchor_min_rest(sk_real segment) { return segment * (sk_real)0.25; }

/* EA / max(s, s_min). */
static inline sk_real sk_deploy_anchor_stiffness(sk_real ea, sk_real s_min, sk_real s)
{
    return ea / (s < s_min ? s_min : s);
}

#endif
