/* Reference engine: Coulomb friction on a ground contact, as an impulse in the same resolution as the
 * normal one (docs/model.md sections 4.2 and 4.4; the rule is model/friction.h's). The ground's normal is y,
 * so the tangential velocity is (x, z). */
#include "reference/reference.h"
#include "model/friction.h"

void sk_contact_friction(sk_particle *particle, const sk_friction *f, sk_real dvn)
{
    sk_friction_apply(&particle->v.x, &particle->v.z, f->mu_static, f->mu_kinetic, dvn);
}
