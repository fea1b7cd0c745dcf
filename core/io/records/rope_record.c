/* A rope's frame as flat reals (rope_record.h). */
#include "io/records/rope_record.h"
#include "engine/engine_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool sk_rope_state_alloc(sk_rope_state *st, size_t cap)
{
    *st = (sk_rope_state){.p = calloc(3 * cap, sizeof(sk_real)),
                          .v = calloc(3 * cap, sizeof(sk_real)),
                          .q = calloc(3 * cap, sizeof(sk_real)),
                          .impulse = calloc(cap, sizeof(sk_real))};
    if (st->p && st->v && st->q && st->impulse)
        return true;
    sk_rope_state_free(st);
    return false;
}

void sk_rope_state_free(sk_rope_state *st)
{
    free(st->p);
    free(st->v);
    free(st->q);
    free(st->impulse);
    *st = (sk_rope_state){0};
}

size_t sk_rope_record_reals(bool verlet, bool deploys, int n)
{
    return SK_RECORD_DIAG_REALS + (verlet ? 9 : 6) * (size_t)n + (n > 1 ? (size_t)n - 1 : 0) + (deploys ? 1 : 0);
}

void sk_rope_record_pack(const sk_engine *e, size_t rope, int n, bool verlet, bool deploys, sk_rope_state *scratch,
                         sk_real *d)
{
    sk_rope_diagnostics diag;
    sk_engine_rope_diagnostics(e, rope, &diag, n > 1 ? d + SK_RECORD_DIAG_REALS + 6 * (size_t)n : NULL);
    int contacts = 0, iterations = 0;
    sk_engine_rope_contacts(e, rope, &contacts, &iterations);
    const sk_real values[SK_RECORD_DIAG_REALS] = {diag.kinetic,        diag.gravity,        diag.elastic,
                                                  diag.anchor_force.x, diag.anchor_force.y, diag.anchor_force.z,
                                                  diag.length,         diag.finite ? 1 : 0, (sk_real)contacts,
                                                  (sk_real)iterations, diag.support[0].x, diag.support[0].y,
                                                  diag.support[0].z,   diag.support[1].x,   diag.support[1].y,
                                                  diag.support[1].z};
    memcpy(d, values, sizeof values);
    sk_engine_read_rope(e, rope, d + SK_RECORD_DIAG_REALS, d + SK_RECORD_DIAG_REALS + 3 * (size_t)n);
    sk_real *extra = d + SK_RECORD_DIAG_REALS + 6 * (size_t)n + (n > 1 ? (size_t)n - 1 : 0);
    if (verlet || deploys) {
        const bool kept = sk_engine_export_rope(e, rope, scratch);
        for (size_t i = 0; verlet && i < 3 * (size_t)n; i++)
            *extra++ = kept ? scratch->q[i] : (sk_real)NAN;
        if (deploys)
            *extra = kept ? scratch->s : (sk_real)NAN;
    }
}

void sk_rope_record_read(const sk_real *d, int n, sk_real *p, sk_real *v)
{
    if (d && p)
        memcpy(p, d + SK_RECORD_DIAG_REALS, 3 * (size_t)n * sizeof *p);
    if (d && v)
        memcpy(v, d + SK_RECORD_DIAG_REALS + 3 * (size_t)n, 3 * (size_t)n * sizeof *v);
}

void sk_rope_record_diagnostics(const sk_real *d, int n, sk_rope_diagnostics *out, sk_real *tension)
{
    if (!d) {
        *out = (sk_rope_diagnostics){.finite = false};
        return;
    }
    *out = (sk_rope_diagnostics){.kinetic = d[0],
                                 .gravity = d[1],
                                 .elastic = d[2],
                                 .anchor_force = {d[3], d[4], d[5]},
                                 .length = d[6],
                                 .finite = d[7] != 0,
                                 .support = {{d[10], d[11], d[12]}, {d[13], d[14], d[15]}}};
    if (tension && n > 1)
        memcpy(tension, d + SK_RECORD_DIAG_REALS + 6 * (size_t)n, ((size_t)n - 1) * sizeof *tension);
}

void sk_rope_record_contacts(const sk_real *d, int *contacts, int *iterations)
{
    *contacts = d ? (int)d[8] : 0;
    *iterations = d ? (int)d[9] : 0;
}

void sk_rope_record_export(const sk_real *d, int n, size_t cap, bool verlet, bool deploys, sk_rope_state *st)
{
    const size_t m = 3 * (size_t)n;
    const sk_real *extra = d ? d + SK_RECORD_DIAG_REALS + 6 * (size_t)n + (n > 1 ? (size_t)n - 1 : 0) : NULL;
    for (size_t k = 0; k < 3 * cap; k++) {
        st->p[k] = d && k < m ? d[SK_RECORD_DIAG_REALS + k] : 0;
        if (st->v)
            st->v[k] = d && k < m ? d[SK_RECORD_DIAG_REALS + m + k] : 0;
        if (st->q)
            st->q[k] = d && k < m && verlet ? extra[k] : 0;
    }
    for (size_t k = 0; st->impulse && k < cap; k++)
        st->impulse[k] = 0;
    st->n = n;
    st->s = d && deploys ? extra[verlet ? m : 0] : 0;
    sk_rope_record_contacts(d, &st->contacts, &st->iterations);
}
