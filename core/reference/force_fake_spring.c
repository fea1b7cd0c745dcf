/* Reference engine: Cyclone's fake spring, a stiff damped anchored spring whose motion over one
 * step is taken from the exact solution of the damped oscillator (docs/model.md section 3). */
#include "reference/reference.h"
#include "model/vec3.h"

/* With r = p - x, r'' = -k r - c r' has r(dt) = (r cos(g dt) + C sin(g dt)) exp(-c dt / 2),
 * C = r c / (2 g) + v / g, g = sqrt(4k - c^2) / 2. The force is what moves the particle there in
 * one step of the integrator: acc = (target - r) / dt^2 - v / dt. */
static void fake_spring_update(const sk_force_generator *fg, sk_particle *particle)
{
    const sk_fake_spring_force *self = (const sk_fake_spring_force *)fg;
    if (!self->active || particle->w == 0)
        return;
    sk_vec3 r = sk_vec3_sub(particle->p, *self->anchor);
    sk_vec3 c = sk_vec3_add(sk_vec3_scale(r, self->cr), sk_vec3_scale(particle->v, self->cv));
    sk_vec3 target = sk_vec3_scale(sk_vec3_add(sk_vec3_scale(r, self->cos_gdt), sk_vec3_scale(c, self->sin_gdt)),
                                   self->exp_cdt);
    sk_vec3 acc = sk_vec3_sub(sk_vec3_scale(sk_vec3_sub(target, r), self->inv_dt2),
                              sk_vec3_scale(particle->v, self->inv_dt));
    particle->f = sk_vec3_add(particle->f, sk_vec3_scale(acc, self->mass));
}

sk_force_generator *sk_fake_spring_force_init(sk_fake_spring_force *self, const sk_vec3 *anchor,
                                              const sk_rope_constants *c)
{
    self->base.update = fake_spring_update;
    self->anchor = anchor;
    self->active = c->fake_active;
    self->cr = c->fake_cr;
    self->cv = c->fake_cv;
    self->cos_gdt = c->fake_cos;
    self->sin_gdt = c->fake_sin;
    self->exp_cdt = c->fake_exp;
    self->inv_dt = c->inv_dt;
    self->inv_dt2 = c->inv_dt2;
    self->mass = c->mass_back;
    return &self->base;
}
