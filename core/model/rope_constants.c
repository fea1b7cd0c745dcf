/* Per-rope constants, computed once per rope with libm: the single source of these numbers for
 * every engine (the operation order is part of the contract, see rope_constants.h). */
#include "base/assert.h"
#include "model/rope_constants.h"

#include "model/deploy_anchor.h"
#include "model/real_math.h"
#include "model/vec3.h"

/* The line's constants per unit length (docs/model.md section 3.6), in this order of operations. */
static void sk_rope_constants_line(const sk_scenario *s, const sk_group *g, const sk_rope_params *p,
                                   sk_rope_constants *c)
{
    c->water_surface = s->water.surface;
    c->line_dn = c->line_dt = c->line_an = c->line_at = c->line_fn = c->line_ft = 0;
    c->line_buoyancy = sk_vec3_zero();
    c->seabed_k = c->seabed_c = 0;
    c->slip_speed = s->ground_slip_speed;
    if (!g->has_line)
        return;
    const sk_real pi = (sk_real)3.14159265358979323846, d = p->line_diameter;
    if (s->water.present) {
        const sk_real rho = s->water.density, rho_a = rho * ((pi * (d * d)) / (sk_real)4);
        c->line_dn = ((sk_real)0.5 * rho * p->line_drag_normal) * d;
        c->line_dt = (((sk_real)0.5 * rho * p->line_drag_tangential) * pi) * d;
        c->line_an = rho_a * p->line_added_normal;
        c->line_at = rho_a * p->line_added_tangential;
        c->line_fn = rho_a * ((sk_real)1 + p->line_added_normal);
        c->line_ft = rho_a * ((sk_real)1 + p->line_added_tangential);
        c->line_buoyancy = sk_vec3_scale(s->gravity, -rho_a);
    }
    if (s->ground_compliant) {
        c->seabed_k = s->ground_stiffness * d;
        c->seabed_c = s->ground_damping * d;
    }
}

void sk_rope_constants_compute(const sk_scenario *s, const sk_group *g, const sk_rope_params *p,
                               sk_rope_constants *out)
{
    sk_rope_constants c;
    c.dt = s->dt;
    c.inv_dt = (sk_real)1 / s->dt;
    c.inv_dt2 = (sk_real)1 / (s->dt * s->dt);

    c.w = (sk_real)1 / p->mass;
    c.mass_back = (sk_real)1 / c.w;
    c.damp = SK_POW(p->damping, s->dt);
    c.verlet_keep = (sk_real)1 - p->verlet_damping;

    c.accel = s->gravity_as == SK_GRAVITY_ACCELERATION ? s->gravity : sk_vec3_zero();
    c.gravity_force = sk_vec3_scale(s->gravity, c.mass_back);

    /* "auto": the initial spacing |end - start| / (n0 - 1) of the particles laid at the start. */
    int n0 = g->deploys ? g->deploy_initial : g->particles;
    c.link_length = p->link_length;
    if (g->link_length_auto && n0 > 1)
        c.link_length = sk_vec3_length(sk_vec3_sub(p->end, p->start)) / (sk_real)(n0 - 1);

    /* EI / L: the hinge energy k_b (1 - cos theta) is EI kappa^2 / 2 per length for small angles (docs/model.md 3.4) */
    c.bend_kb = g->has_bending ? p->bending_stiffness / c.link_length : 0;

    sk_rope_constants_line(s, g, p, &c);

    c.max_speed2 = s->max_speed * s->max_speed;
    const sk_real longest = c.link_length * ((sk_real)1 + s->max_strain);
    c.max_link2 = longest * longest;

    sk_real k = p->anchor_stiffness, damping = p->anchor_damping;
    c.fake_gamma = (sk_real)0.5 * SK_SQRT((sk_real)4 * k - damping * damping);
    /* gamma is NaN when 4k < c^2 (overdamped: no oscillation to integrate) and 0 at critical damping. */
    c.fake_active = isfinite(c.fake_gamma) && c.fake_gamma != 0;
    if (c.fake_active) {
        c.fake_cr = damping / ((sk_real)2 * c.fake_gamma);
        c.fake_cv = (sk_real)1 / c.fake_gamma;
        c.fake_cos = SK_COS(c.fake_gamma * s->dt);
        c.fake_sin = SK_SIN(c.fake_gamma * s->dt);
        c.fake_exp = SK_EXP(((sk_real)-0.5 * s->dt) * damping);
    } else {
        c.fake_cr = c.fake_cv = c.fake_cos = c.fake_sin = c.fake_exp = 0;
    }

    c.drag_t = g->has_drag ? p->drag_k1 * s->dt : 0;
    c.implicit_diag = c.mass_back + c.drag_t;
    c.link_kdt2 = (p->link_stiffness * s->dt) * s->dt;
    c.anchor_kdt2 = (p->anchor_stiffness * s->dt) * s->dt;
    /* The fake spring is linear in r = p - x and v: with f = m~ acc, acc of docs/model.md section 3.3,
     * -dt^2 df/dr and -dt df/dv are these numbers times the identity (dt^2 inv_dt2 and dt inv_dt taken as 1). */
    if (c.fake_active) {
        c.fake_jx = c.mass_back * ((sk_real)1 - (c.fake_cos + c.fake_cr * c.fake_sin) * c.fake_exp);
        c.fake_jv = c.mass_back * ((sk_real)1 - ((c.fake_cv * c.fake_sin) * c.fake_exp) * c.inv_dt);
    } else {
        c.fake_jx = c.fake_jv = 0;
    }
    c.link_c = sk_rope_link_c(g, p, p->link_stiffness, c.link_length, p->mass);
    c.link_cdt = c.link_c * s->dt;
    const bool by_ea = g->line_by_ea && g->deploys;
    c.anchor_ea = by_ea ? p->line_ea : 0;
    c.anchor_s_min = by_ea ? sk_deploy_anchor_min_rest(c.link_length) : 1;
    *out = c;
}

sk_real sk_rope_anchor_stiffness(const sk_rope_params *p, const sk_rope_constants *c, sk_real rest)
{
    return c->anchor_ea > 0 ? sk_deploy_anchor_stiffness(c->anchor_ea, c->anchor_s_min, rest) : p->anchor_stiffness;
}

sk_real sk_rope_link_c(const sk_group *g, const sk_rope_params *p, sk_real k, sk_real length, sk_real m)
{
    if (!g->has_link_damping)
        return 0;
    if (g->link_damping_by_ratio)
        return p->link_damping_ratio * SK_SQRT(k * m);
    return p->link_damping / length;
}

void sk_rope_constants_bdf2(const sk_scenario *s, const sk_group *g, const sk_rope_params *p, sk_rope_constants *out)
{
    sk_scenario h = *s; /* read only: the same scenario with BDF2's step */
    h.dt = sk_bdf2_step(s->dt);
    sk_rope_constants_compute(&h, g, p, out);
}

sk_vec3 sk_rope_layout_position(const sk_rope_params *p, int i, int n)
{
    SK_ASSERT(n >= 1 && i >= 0 && i < n);
    if (n <= 1)
        return p->start;
    sk_real fraction = (sk_real)i / (sk_real)(n - 1);
    return sk_vec3_add(p->start, sk_vec3_scale(sk_vec3_sub(p->end, p->start), fraction));
}
