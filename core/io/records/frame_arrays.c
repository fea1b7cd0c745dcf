/* Output frames copied into arrays in memory that a program owns (the Python package's numpy arrays): the
 * same values the HDF5 writer stores, with NaN in the slots past a rope's particles and links. */
#include <math.h>
#include <string.h>

#include "scenario/scenario.h"
#include "skein/output.h"

sk_status sk_frame_arrays_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    sk_frame_arrays *a = ctx;
    if (a->frames >= a->max_frames)
        return sk_fail(err, SK_ERR_INVALID, "%s: frame arrays: room for %ld frames, step %ld is one more",
                       sk_engine_scenario(e)->source, a->max_frames, step);
    const size_t slots = (size_t)a->particles, links = slots > 0 ? slots - 1 : 0;
    const size_t f = (size_t)a->frames;
    const sk_real nan = (sk_real)NAN;
    for (size_t j = 0; j < a->n_ropes; j++) {
        const size_t rope = a->ropes[j], at = f * a->n_ropes + j;
        const int n = sk_engine_rope_particles(e, rope);
        if (n > a->particles)
            return sk_fail(err, SK_ERR_INVALID, "%s: frame arrays: rope %zu has %d particles, room for %d",
                           sk_engine_scenario(e)->source, rope, n, a->particles);
        sk_real *p = a->position ? a->position + at * slots * 3 : NULL;
        sk_real *v = a->velocity ? a->velocity + at * slots * 3 : NULL;
        sk_engine_read_rope(e, rope, p, v);
        for (size_t i = (size_t)n * 3; i < slots * 3; i++) {
            if (p)
                p[i] = nan;
            if (v)
                v[i] = nan;
        }
        if (a->count)
            a->count[at] = n;
        if (a->diverged)
            a->diverged[j] = sk_engine_rope_diverged(e, rope);
        if (a->energy || a->tension || a->support) {
            sk_real *t = a->tension ? a->tension + at * links : NULL;
            sk_rope_diagnostics d;
            sk_engine_rope_diagnostics(e, rope, &d, t);
            if (a->energy) {
                a->energy[3 * at + 0] = d.kinetic;
                a->energy[3 * at + 1] = d.gravity;
                a->energy[3 * at + 2] = d.elastic;
            }
            for (int end = 0; a->support && end < 2; end++) {
                a->support[6 * at + 3 * (size_t)end + 0] = d.support[end].x;
                a->support[6 * at + 3 * (size_t)end + 1] = d.support[end].y;
                a->support[6 * at + 3 * (size_t)end + 2] = d.support[end].z;
            }
            for (size_t i = n > 1 ? (size_t)n - 1 : 0; t && i < links; i++)
                t[i] = nan;
        }
    }
    if (a->step)
        a->step[f] = step;
    a->frames++;
    return SK_OK;
}
