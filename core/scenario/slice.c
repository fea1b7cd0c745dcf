/* A scenario of a contiguous range of another's ropes (sk_scenario_slice): one process's share of a run split
 * across several, each rope with the parameters, and so the bits, it has in the whole. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/assert.h"
#include "scenario/scenario_impl.h"

sk_status sk_scenario_slice(const sk_scenario *s, size_t first, size_t count, sk_scenario *out, sk_error *err)
{
    SK_ASSERT(s && s->normalized_json && count >= 1 && first + count <= s->total_ropes);
    /* The normalised text gives the same scenario (every default written out, numbers to the bit): the
     * slice owns its own copy of everything, then keeps only its ropes. */
    /* The whole was checked when s was loaded: here only the slice's own share counts (below). */
    const sk_load_options whole = {.processes = INT_MAX};
    sk_status rc = sk_scenario_load_string(s->normalized_json, s->source, &whole, out, err);
    if (rc)
        return rc;
    const size_t end = first + count;
    int kept = 0;
    for (int i = 0; i < out->n_groups; i++) {
        sk_group g = out->groups[i];
        const size_t lo = g.first_rope > first ? g.first_rope : first;
        const size_t hi = g.first_rope + g.count < end ? g.first_rope + g.count : end;
        if (lo >= hi) {
            sk_scn_group_free(&g);
            continue;
        }
        g.sweep_first = lo - g.first_rope;
        g.sweep_count = g.count;
        g.count = hi - lo;
        g.first_rope = lo - first;
        out->groups[kept++] = g;
    }
    out->n_groups = kept;
    out->total_ropes = count;
    size_t n = 0; /* output_ropes: sorted, and every rope's index when the file names none */
    for (size_t i = 0; i < out->n_output_ropes; i++)
        if (out->output_ropes[i] >= first && out->output_ropes[i] < end)
            out->output_ropes[n++] = out->output_ropes[i] - first;
    out->n_output_ropes = n;
    const sk_scn_ctx c = {s->source, err, NULL};
    if ((rc = sk_scn_check_share(&c, out, first)))
        sk_scenario_free(out);
    return rc;
}
