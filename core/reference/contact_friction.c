/* Reference engine: Coulomb friction on a ground contact, as an impulse in the same resolution as the
 * normal one (docs/model.md section 4.2). The ground's normal is y, so the tangential velocity is (x, z). */
#include "reference/reference.h"
#include "model/real_math.h"

void sk_contact_friction(sk_particle *particle, const sk_friction *f, sk_real dvn)
{
    sk_real vx = particle->v.x, vz = particle->v.z;
    sk_real speed = SK_SQRT(vx * vx + vz * vz);
    sk_real hold = f->mu_static * dvn;
    if (hold > 0 && speed <= hold) { /* stick: the impulse the contact can hold stops the sliding */
        particle->v.x = 0;
        particle->v.z = 0;
        return;
    }
    /* Slip: mu_k dvn off the speed, along -v_t. Here speed > mu_s dvn >= mu_k dvn, so the factor is in
     * (0, 1]: the sliding never reverses, nor speeds up. A zero mu_k leaves v bit for bit. */
    sk_real slow = f->mu_kinetic * dvn;
    if (slow > 0) {
        sk_real keep = (speed - slow) / speed;
        particle->v.x = vx * keep;
        particle->v.z = vz * keep;
    }
}
