/* One hinge of the bending energy (docs/model.md section 3.4), in the operation order both engines follow:
 * particles a, b, c consecutive, e1 = b - a, e2 = c - b, u1 = e1^, u2 = e2^, cos theta = u1 . u2, energy
 * k_b (1 - cos theta). The forces are the energy's exact negative gradient. The energy is evaluated as
 * k_b |u1 - u2|^2 / 2, equal for unit vectors: 1 - cos theta itself loses all its digits to cancellation
 * at the small angles of a stiff rope (in float, 5% of it at 1e-3 rad). The kernels' lane version is
 * kernels/bending.h. */
#ifndef SKEIN_MODEL_BENDING_H
#define SKEIN_MODEL_BENDING_H

#include "model/vec3.h"

typedef struct sk_hinge {
    sk_vec3 fa, fc; /* the forces on the outer particles a and c; b's is (fa + fc) * -1 */
} sk_hinge;

/* 1/l where l > 0, else 0 (a zero-length link has no direction and bends nothing). */
static inline sk_real sk_hinge_inverse(sk_real l) { return l > 0 ? (sk_real)1 / l : 0; }

/* The unit vectors along the hinge's two links (zero vectors for a zero-length link) and their inverse lengths. */
static inline void sk_hinge_units(sk_vec3 a, sk_vec3 b, sk_vec3 c, sk_vec3 *u1, sk_vec3 *u2, sk_real *i1, sk_real *i2)
{
    sk_vec3 e1 = sk_vec3_sub(b, a), e2 = sk_vec3_sub(c, b);
    *i1 = sk_hinge_inverse(sk_vec3_length(e1));
    *i2 = sk_hinge_inverse(sk_vec3_length(e2));
    *u1 = sk_vec3_scale(e1, *i1);
    *u2 = sk_vec3_scale(e2, *i2);
}

static inline sk_hinge sk_hinge_eval(sk_real kb, sk_vec3 a, sk_vec3 b, sk_vec3 c)
{
    sk_vec3 u1, u2;
    sk_real i1, i2;
    sk_hinge_units(a, b, c, &u1, &u2, &i1, &i2);
    sk_real cos = sk_vec3_dot(u1, u2);
    /* -dE/da = k_b (u1 cos - u2) / |e1|;  -dE/dc = k_b (u1 - u2 cos) / |e2| (0 by a zero-length link: i = 0, and
     * cos = 0 keeps the other end's force 0 too) */
    sk_hinge h;
    h.fa = sk_vec3_scale(sk_vec3_sub(sk_vec3_scale(u1, cos), u2), kb * i1);
    h.fc = sk_vec3_scale(sk_vec3_sub(u1, sk_vec3_scale(u2, cos)), kb * i2);
    return h;
}

/* The force on the middle particle: the hinge's forces sum to zero. */
static inline sk_vec3 sk_hinge_middle(const sk_hinge *h) { return sk_vec3_scale(sk_vec3_add(h->fa, h->fc), -1); }

/* k_b (|u1 - u2|^2 * 0.5) */
static inline sk_real sk_hinge_energy(sk_real kb, sk_vec3 a, sk_vec3 b, sk_vec3 c)
{
    sk_vec3 u1, u2;
    sk_real i1, i2;
    sk_hinge_units(a, b, c, &u1, &u2, &i1, &i2);
    sk_vec3 d = sk_vec3_sub(u1, u2);
    return kb * (sk_vec3_dot(d, d) * (sk_real)0.5);
}

#endif
