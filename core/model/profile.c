/* Properties along a rope: the per-particle masses and per-link constants both engines start from. */
#include "model/profile.h"

#include "base/assert.h"
#include "model/vec3.h"

sk_real sk_profile_linear(sk_real from, sk_real to, int i, int count)
{
    SK_ASSERT(count >= 1 && i >= 0 && i < count);
    if (count <= 1)
        return from;
    return from + (to - from) * ((sk_real)i / (sk_real)(count - 1));
}

/* Particle i's own mass, without its payloads. */
static sk_real line_mass(const sk_group *g, const sk_rope_params *p, int i)
{
    if (g->mass_profile == SK_PROFILE_LIST)
        return g->mass_list[i];
    if (g->mass_profile == SK_PROFILE_LINEAR)
        return sk_profile_linear(p->mass, p->mass_to, i, g->particles);
    return p->mass;
}

sk_real sk_rope_link_damping(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i)
{
    const sk_real a = line_mass(g, p, i), b = line_mass(g, p, i + 1);
    return sk_rope_link_c(g, p, sk_rope_link_stiffness(g, p, i), sk_rope_link_length(g, p, c, i), a > b ? a : b);
}

sk_real sk_rope_particle_mass(const sk_group *g, const sk_rope_params *p, int i)
{
    sk_real m = line_mass(g, p, i);
    /* a line's ends carry half a segment; a deploying line's other end is the anchor point (section 7.1) */
    if (g->line_by_ea && (i == 0 || (!g->deploys && i == g->particles - 1)))
        m = m * (sk_real)0.5;
    for (int k = 0; k < g->n_payloads; k++)
        if (g->payload_index[k] == i)
            m = m + p->payload_mass[k];
    return m;
}

sk_real sk_rope_line_share(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i)
{
    const sk_real half = (sk_real)0.5;
    const sk_real before = i > 0 ? sk_rope_link_length(g, p, c, i - 1) * half : 0;
    /* a deploying line's newest particle's second segment is the anchored one, counted whole (section 7.1);
     * at the capacity that particle is the last row */
    const sk_real after = i + 1 < g->particles ? sk_rope_link_length(g, p, c, i) * half
                          : g->deploys && i > 0 ? c->link_length * half
                                                : 0;
    return before + after;
}

sk_real sk_rope_link_stiffness(const sk_group *g, const sk_rope_params *p, int i)
{
    if (g->stiffness_profile == SK_PROFILE_LIST)
        return g->stiffness_list[i];
    if (g->stiffness_profile == SK_PROFILE_LINEAR)
        return sk_profile_linear(p->link_stiffness, p->link_stiffness_to, i, g->particles - 1);
    return p->link_stiffness;
}

sk_real sk_rope_link_length(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i)
{
    if (g->length_profile == SK_PROFILE_LIST)
        return g->length_list[i];
    if (g->length_profile == SK_PROFILE_LINEAR)
        return sk_profile_linear(p->link_length, p->link_length_to, i, g->particles - 1);
    return c->link_length;
}

sk_particle_constants sk_rope_particle_constants(const sk_scenario *s, const sk_group *g, const sk_rope_params *p,
                                                 int i)
{
    sk_particle_constants pc;
    pc.w = (sk_real)1 / sk_rope_particle_mass(g, p, i);
    pc.mass_back = (sk_real)1 / pc.w;
    pc.gravity_force = sk_vec3_scale(s->gravity, pc.mass_back);
    return pc;
}

sk_real sk_rope_links_length(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int n)
{
    if (!g->has_profiles)
        return (sk_real)(n - 1) * c->link_length;
    sk_real sum = 0;
    for (int i = 0; i + 1 < n; i++)
        sum = sum + sk_rope_link_length(g, p, c, i);
    return sum;
}

void sk_rope_particle_implicit(const sk_rope_constants *c, sk_real mass_back, sk_real *diag, sk_real *jx,
                               sk_real *jv)
{
    *diag = mass_back + c->drag_t;
    *jx = c->fake_active ? mass_back * ((sk_real)1 - (c->fake_cos + c->fake_cr * c->fake_sin) * c->fake_exp) : 0;
    *jv = c->fake_active ? mass_back * ((sk_real)1 - ((c->fake_cv * c->fake_sin) * c->fake_exp) * c->inv_dt) : 0;
}

sk_real sk_rope_link_kdt2(const sk_rope_constants *c, sk_real stiffness) { return (stiffness * c->dt) * c->dt; }

sk_real sk_rope_hinge_kb(const sk_group *g, const sk_rope_params *p, const sk_rope_constants *c, int i)
{
    if (!g->has_bending || g->length_profile == SK_PROFILE_NONE || i < 1 || i + 1 >= g->particles)
        return c->bend_kb;
    const sk_real length = (sk_rope_link_length(g, p, c, i - 1) + sk_rope_link_length(g, p, c, i)) * (sk_real)0.5;
    return p->bending_stiffness / length;
}

sk_real sk_rope_link_max2(const sk_scenario *s, sk_real length)
{
    const sk_real longest = length * ((sk_real)1 + s->max_strain);
    return longest * longest;
}
