/* The explicit integrators' stability limit of a group (docs/model.md section 2.2): 2 / omega_max, omega_max
 * bounded by Gershgorin's theorem on the rope's mass-scaled stiffness, the stiffest rope of the group. */
#include <math.h>
#include <stddef.h>

#include "model/profile.h"
#include "scenario/scenario.h"

/* Sweeps of keys that change no stiffness, mass or length leave every rope of a group at rope 0's bound. */
static bool sweep_matters(size_t offset)
{
    static const size_t keys[][2] = {
        {offsetof(sk_rope_params, start), sizeof(sk_vec3)},
        {offsetof(sk_rope_params, end), sizeof(sk_vec3)},
        {offsetof(sk_rope_params, mass), sizeof(sk_real)},
        {offsetof(sk_rope_params, mass_to), sizeof(sk_real)},
        {offsetof(sk_rope_params, payload_mass), sizeof(sk_real) * SK_MAX_PAYLOADS},
        {offsetof(sk_rope_params, link_stiffness), sizeof(sk_real)},
        {offsetof(sk_rope_params, link_stiffness_to), sizeof(sk_real)},
        {offsetof(sk_rope_params, link_length), sizeof(sk_real)},
        {offsetof(sk_rope_params, link_length_to), sizeof(sk_real)},
        {offsetof(sk_rope_params, anchor_stiffness), sizeof(sk_real)},
        {offsetof(sk_rope_params, bending_stiffness), sizeof(sk_real)},
        {offsetof(sk_rope_params, link_damping), sizeof(sk_real)},
        {offsetof(sk_rope_params, link_damping_ratio), sizeof(sk_real)},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (offset >= keys[k][0] && offset < keys[k][0] + keys[k][1])
            return true;
    return false;
}

static bool pinned(const sk_group *g, int i)
{
    for (int k = 0; k < g->n_pinned; k++)
        if (g->pinned[k] == i)
            return true;
    return false;
}

/* omega_max^2 bound of one rope: the largest row sum of |M^-1/2 K M^-1/2| over its unpinned particles, K the
 * springs' axial stiffness (each link k_i between i and i + 1, the anchored spring's k on the particle it holds)
 * plus the hinges' linearised bending stiffness kb d d^T, d = (1/L_a, -(1/L_a + 1/L_b), 1/L_b). *gamma: the same
 * bound of |M^-1/2 C M^-1/2|, C the links' axial damping (each link_c between its two particles). */
static double rope_omega2(const sk_scenario *s, const sk_group *g, const sk_rope_params *p, bool springs, double *gamma)
{
    const int n = g->particles;
    sk_rope_constants c;
    sk_rope_constants_compute(s, g, p, &c);
    const bool links = springs && (g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE);
    const bool anchor = springs && (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE);
    double worst = 0;
    *gamma = 0;
    for (int i = 0; i < n; i++) {
        if (pinned(g, i))
            continue;
        const double mi = (double)sk_rope_particle_mass(g, p, i);
        double row = 0, damping = 0;
        /* a deploying rope's anchor holds whichever particle is the newest */
        if (anchor && (i == 0 || g->deploys))
            row += (double)p->anchor_stiffness / mi;
        for (int j = i - 1; links && j <= i; j++) {
            if (j < 0 || j + 1 >= n)
                continue;
            const double k = fabs((double)sk_rope_link_stiffness(g, p, j));
            const int other = j == i ? i + 1 : j;
            const double cl = g->has_link_damping ? fabs((double)sk_rope_link_damping(g, p, &c, j)) : 0;
            row += k / mi;
            damping += cl / mi;
            if (!pinned(g, other)) {
                row += k / sqrt(mi * (double)sk_rope_particle_mass(g, p, other));
                damping += cl / sqrt(mi * (double)sk_rope_particle_mass(g, p, other));
            }
        }
        for (int h = i - 1; g->has_bending && h <= i + 1; h++) {
            if (h < 1 || h + 1 >= n)
                continue;
            const double la = (double)sk_rope_link_length(g, p, &c, h - 1);
            const double lb = (double)sk_rope_link_length(g, p, &c, h);
            const double d[3] = {1 / la, 1 / la + 1 / lb, 1 / lb};
            const double kb = fabs((double)sk_rope_hinge_kb(g, p, &c, h));
            for (int j = 0; j < 3; j++) {
                const int q = h - 1 + j;
                if (!pinned(g, q))
                    row += kb * d[i - (h - 1)] * d[j] / sqrt(mi * (double)sk_rope_particle_mass(g, p, q));
            }
        }
        if (row > worst || row != row)
            worst = row;
        if (damping > *gamma || damping != damping)
            *gamma = damping;
    }
    return worst;
}

double sk_group_stable_dt(const sk_scenario *s, int group)
{
    if (!s || group < 0 || group >= s->n_groups)
        return INFINITY;
    const sk_group *g = &s->groups[group];
    /* the implicit integrator takes every spring implicitly, bending explicitly (section 2.1) */
    const bool springs = s->integrator != SK_INTEGRATOR_IMPLICIT;
    bool each = false;
    for (int k = 0; k < g->n_sweeps; k++)
        each = each || sweep_matters(g->sweeps[k].offset);
    const size_t ropes = each ? g->count : (g->count ? 1 : 0);
    double shortest = INFINITY;
    sk_rope_params p;
    for (size_t r = 0; r < ropes; r++) {
        sk_group_rope_params(g, r, &p);
        double gamma;
        const double w2 = rope_omega2(s, g, &p, springs, &gamma);
        if (w2 != w2 || gamma != gamma)
            return 0;
        if (!(w2 > 0))
            continue;
        /* with the links' damping (ratio zeta = gamma / (2 omega)) an explicit step is stable below
         * 2 / omega (sqrt(1 + zeta^2) - zeta) */
        const double omega = sqrt(w2), zeta = springs ? gamma / (2 * omega) : 0;
        const double dt = 2 / omega * (sqrt(1 + zeta * zeta) - zeta);
        shortest = dt < shortest ? dt : shortest;
    }
    return shortest;
}
