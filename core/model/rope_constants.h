/* Per-rope constants computed once with libm, shared by the reference and the batch engine so that
 * both start every step from the same bits (the operation order is fixed in docs/model.md and here). */
#ifndef SKEIN_ROPE_CONSTANTS_H
#define SKEIN_ROPE_CONSTANTS_H

#include <stdbool.h>

#include "skein/types.h"
#include "scenario/scenario_types.h"

typedef struct sk_rope_constants {
    sk_real dt;      /* s */
    sk_real inv_dt;  /* 1 / dt */
    sk_real inv_dt2; /* 1 / (dt * dt) */

    sk_real w;         /* inverse mass of an unpinned particle: 1 / mass */
    sk_real mass_back; /* mass read back: 1 / w */
    sk_real damp;      /* pow(damping, dt): velocity kept per step */
    sk_real verlet_keep; /* 1 - verlet_damping */

    sk_vec3 accel;         /* every particle's acceleration field: gravity, or 0 when gravity is a force */
    sk_vec3 gravity_force; /* g * mass_back (used when gravity_as is "force") */

    sk_real link_length; /* rest length of a link: link_length, or the initial spacing when "auto" */
    sk_real bend_kb;     /* a hinge's bending constant: bending.stiffness / link_length (0 without bending) */

    /* divergence bounds, compared with squared lengths (no square root at the check): a particle is too fast
     * when v . v > max_speed2, a link too long when d . d > max_link2 */
    sk_real max_speed2; /* max_speed * max_speed */
    sk_real max_link2;  /* l1 * l1, l1 = link_length * (1 + max_strain) */

    /* fake spring: gamma = 0.5 sqrt(4k - c^2); active when gamma is finite and non-zero */
    bool fake_active;
    sk_real fake_gamma;
    sk_real fake_cr;  /* c / (2 gamma) */
    sk_real fake_cv;  /* 1 / gamma */
    sk_real fake_cos; /* cos(gamma dt) */
    sk_real fake_sin; /* sin(gamma dt) */
    sk_real fake_exp; /* exp((-0.5 dt) c) */

    /* The implicit integrator's blocks (docs/model.md section 2.1): the stiffness parts are times dt^2, the
     * damping parts times dt, as they enter M + T + S. */
    sk_real implicit_diag; /* mass_back + drag_t: the diagonal of M + T (no drag: mass_back) */
    sk_real drag_t;        /* drag.k1 * dt (0 without drag) */
    sk_real link_kdt2;     /* (link.stiffness * dt) * dt */
    sk_real anchor_kdt2;   /* (anchor.stiffness * dt) * dt */
    sk_real fake_jx;       /* the fake spring's stiffness: mass_back * (1 - (fake_cos + fake_cr * fake_sin) * fake_exp) */
    sk_real fake_jv;       /* its damping: mass_back * (1 - ((fake_cv * fake_sin) * fake_exp) * inv_dt) */

    /* A line in water (docs/model.md section 3.6), per unit length of line: 0 where the group has no line. */
    sk_real water_surface;   /* y of the free surface */
    sk_real line_dn;         /* (0.5 rho Cdn) d */
    sk_real line_dt;         /* ((0.5 rho Cdt) pi) d */
    sk_real line_an, line_at; /* rho A Can, rho A Cat; A = (pi d^2) / 4 */
    sk_real line_fn, line_ft; /* rho A (1 + Can), rho A (1 + Cat) */
    sk_vec3 line_buoyancy;   /* -(rho A) g */
    sk_real seabed_k, seabed_c; /* the compliant seabed's stiffness * d and damping * d */
    sk_real slip_speed;      /* its friction's slip speed */
    /* A link's axial damping (docs/model.md section 3): its force along the link is -link_c * dl/dt
     * (sk_rope_link_c); link_cdt = link_c * dt, its block in the implicit integrator. 0 without damping. */
    sk_real link_c;   /* N s/m */
    sk_real link_cdt; /* link_c * dt */
    /* A deploying line given by EA (docs/model.md section 7.1): the anchored segment's stiffness is
     * anchor_ea / max(s, anchor_s_min). anchor_ea is 0 for every other rope, which keeps anchor.stiffness, and
     * anchor_s_min then 1 (unused: a divisor that is never 0). */
    sk_real anchor_ea;    /* N */
    sk_real anchor_s_min; /* m */
} sk_rope_constants;

/* The anchored spring's stiffness at rest length `rest`: anchor.stiffness, or a deploying line's EA / max(s,
 * s_min). */
sk_real sk_rope_anchor_stiffness(const sk_rope_params *p, const sk_rope_constants *c, sk_real rest);

/* The axial damping coefficient of a link of stiffness k (N/m), rest length L (m) and line mass m (kg, the
 * larger of its two particles' masses without payloads): link.damping / L, or for link.damping_ratio zeta
 * MoorDyn's automatic damping BA = zeta L sqrt(EA w) with EA = k L and w = m / L, which is zeta sqrt(k m);
 * 0 where the group has no damping. */
sk_real sk_rope_link_c(const sk_group *g, const sk_rope_params *p, sk_real k, sk_real length, sk_real m);

/* Fills out for rope parameters p of group g in scenario s. */
void sk_rope_constants_compute(const sk_scenario *s, const sk_group *g, const sk_rope_params *p,
                               sk_rope_constants *out);

/* BDF2 (docs/model.md section 2.1) solves each step after its first as a backward Euler step of h = (2 dt) / 3
 * from its extrapolated start: its constants are these with dt = h. */
static inline sk_real sk_bdf2_step(sk_real dt) { return ((sk_real)2 * dt) / (sk_real)3; }
void sk_rope_constants_bdf2(const sk_scenario *s, const sk_group *g, const sk_rope_params *p, sk_rope_constants *out);

/* Initial position of particle i of n: start + (end - start) * ((sk_real)i / (sk_real)(n - 1)),
 * start when n == 1. */
sk_vec3 sk_rope_layout_position(const sk_rope_params *p, int i, int n);

#endif
