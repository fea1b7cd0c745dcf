/* A run split across processes without MPI: slices of a scenario (sk_scenario_slice) give every rope the
 * parameters and the bits it has in the whole, and their frames (sk_frame_buffer) put end to end are the
 * whole's frame. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"
#include "engine/summary.h"
#include "io/records/frame_buffer.h"

/* Two groups: springs with a linear, a listed and a random sweep; rods on the ground. */
static const char scenario_text[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 40, \"integrator\": \"symplectic\", \"ground\": {\"height\": -1},"
    " \"groups\": ["
    "  {\"count\": 9, \"particles\": 6, \"start\": [0, 0, 0], \"end\": [0.5, 0, 0], \"mass\": 0.1, \"pinned\": [0],"
    "   \"link\": {\"type\": \"spring\", \"stiffness\": 500, \"length\": 0.1},"
    "   \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 900}, \"mass\": {\"values\": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6,"
    "    0.7, 0.8, 0.9]}, \"damping\": {\"random\": {\"min\": 0.9, \"max\": 1, \"seed\": 3}}}},"
    "  {\"count\": 5, \"particles\": 4, \"start\": [0, 0.5, 0], \"end\": [0.3, 0.5, 0], \"mass\": 0.1,"
    "   \"link\": {\"type\": \"rod\", \"length\": 0.1}}"
    " ], \"output\": {\"ropes\": [0, 4, 8, 9, 13]}}";

/* The blocks the ropes are split into: [0, 4), [4, 11) (across the groups), [11, 14). */
static const size_t first[] = {0, 4, 11, 14};

static int slice_params(void)
{
    sk_scenario s, part;
    sk_error err = {0};
    CHECK(sk_scenario_load_string(scenario_text, "slice", NULL, &s, &err) == SK_OK);
    for (int k = 0; k < 3; k++) {
        CHECK(sk_scenario_slice(&s, first[k], first[k + 1] - first[k], &part, &err) == SK_OK);
        CHECK(part.total_ropes == first[k + 1] - first[k]);
        CHECK(part.n_groups == (k == 1 ? 2 : 1));
        for (size_t r = 0; r < part.total_ropes; r++) {
            size_t local, whole_local;
            const int g = sk_scenario_find_rope(&part, r, &local);
            const int wg = sk_scenario_find_rope(&s, first[k] + r, &whole_local);
            CHECK(g >= 0 && wg >= 0);
            sk_rope_params a, b;
            sk_group_rope_params(&part.groups[g], local, &a);
            sk_group_rope_params(&s.groups[wg], whole_local, &b);
            CHECK(memcmp(&a, &b, sizeof a) == 0);
        }
        /* the output's ropes among the slice's, from its first */
        const size_t want[3][3] = {{0}, {0, 4, 5}, {2}}, n_want[3] = {1, 3, 1};
        CHECK(part.n_output_ropes == n_want[k]);
        for (size_t i = 0; i < n_want[k]; i++)
            CHECK(part.output_ropes[i] == want[k][i]);
        sk_scenario_free(&part);
    }
    /* a slice the machine cannot hold is refused, naming its ropes */
    setenv("SKEIN_MEMORY_LIMIT", "1", 1);
    CHECK(sk_scenario_slice(&s, 4, 7, &part, &err) == SK_ERR_INVALID);
    unsetenv("SKEIN_MEMORY_LIMIT");
    CHECK(strstr(err.message, "ropes 4 to 10 (this process's share)") != NULL);
    CHECK(part.groups == NULL);
    sk_scenario_free(&s);
    return 0;
}

/* Engines over the three slices, stepped, against one engine over the whole: each rope's bits, and the
 * slices' frames put end to end, read through the stand-in engine, equal the whole's. */
static int slices_equal_whole(void)
{
    sk_scenario s, part[3];
    sk_error err = {0};
    CHECK(sk_scenario_load_string(scenario_text, "slice", NULL, &s, &err) == SK_OK);
    sk_engine *whole = sk_engine_create(&s, NULL, &err), *e[3];
    CHECK(whole);
    size_t all[14];
    for (size_t r = 0; r < 14; r++)
        all[r] = r;
    sk_frame_buffer *from_whole = sk_frame_buffer_create(&s, all, 14, &err), *joined = sk_frame_buffer_create(&s, all, 14, &err);
    CHECK(from_whole && joined);
    sk_engine_advance(whole, 40);
    sk_engine_check_frame(whole);
    CHECK(sk_frame_buffer_fill(from_whole, whole, 0, &err) == SK_OK);
    /* each slice's share, as a rank sends it: counts and marks first, then the reals once sized */
    static sk_real held[3][4096];
    size_t m[3];
    for (int k = 0; k < 3; k++) {
        CHECK(sk_scenario_slice(&s, first[k], first[k + 1] - first[k], &part[k], &err) == SK_OK);
        CHECK((e[k] = sk_engine_create(&part[k], NULL, &err)));
        sk_engine_advance(e[k], 25); /* split differently from the whole's: the same bits */
        sk_engine_advance(e[k], 15);
        sk_engine_check_frame(e[k]);
        const size_t n = first[k + 1] - first[k];
        sk_frame_buffer *mine = sk_frame_buffer_create(&s, all + first[k], n, &err);
        CHECK(mine && sk_frame_buffer_fill(mine, e[k], first[k], &err) == SK_OK);
        m[k] = sk_frame_buffer_n_reals(mine);
        CHECK(m[k] <= 4096);
        memcpy(sk_frame_buffer_counts(joined) + first[k], sk_frame_buffer_counts(mine), n * sizeof(int32_t));
        memcpy(sk_frame_buffer_marks(joined) + first[k], sk_frame_buffer_marks(mine), n * sizeof(int64_t));
        memcpy(held[k], sk_frame_buffer_reals(mine), m[k] * sizeof(sk_real));
        sk_frame_buffer_free(mine);
    }
    CHECK(sk_frame_buffer_set_counts(joined, &err) == SK_OK);
    CHECK(sk_frame_buffer_n_reals(joined) == m[0] + m[1] + m[2]);
    for (int k = 0, at = 0; k < 3; at += (int)m[k], k++)
        memcpy(sk_frame_buffer_reals(joined) + at, held[k], m[k] * sizeof(sk_real));
    CHECK(sk_frame_buffer_n_reals(joined) == sk_frame_buffer_n_reals(from_whole));
    CHECK(memcmp(sk_frame_buffer_counts(joined), sk_frame_buffer_counts(from_whole), 14 * sizeof(int32_t)) == 0);
    CHECK(memcmp(sk_frame_buffer_marks(joined), sk_frame_buffer_marks(from_whole), 14 * sizeof(int64_t)) == 0);
    CHECK(memcmp(sk_frame_buffer_reals(joined), sk_frame_buffer_reals(from_whole),
                 sk_frame_buffer_n_reals(joined) * sizeof(sk_real)) == 0);
    /* the stand-in reads what the engine gives, and sums the same totals */
    const sk_engine *frame = sk_frame_buffer_engine(joined, 40);
    for (size_t r = 0; r < 14; r++) {
        sk_real p[18], q[18], v[18], w[18];
        const int n = sk_engine_rope_particles(whole, r);
        CHECK(sk_engine_rope_particles(frame, r) == n);
        sk_engine_read_rope(whole, r, p, v);
        sk_engine_read_rope(frame, r, q, w);
        CHECK(memcmp(p, q, 3 * (size_t)n * sizeof *p) == 0 && memcmp(v, w, 3 * (size_t)n * sizeof *v) == 0);
        int c0, i0, c1, i1;
        sk_engine_rope_contacts(whole, r, &c0, &i0);
        sk_engine_rope_contacts(frame, r, &c1, &i1);
        CHECK(c0 == c1 && i0 == i1);
    }
    sk_group_totals a[2], b[2];
    CHECK(sk_group_totals_compute(whole, a, &err) == SK_OK && sk_group_totals_compute(frame, b, &err) == SK_OK);
    for (int g = 0; g < 2; g++) {
        CHECK_SAME_BITS(a[g].kinetic, b[g].kinetic);
        CHECK_SAME_BITS(a[g].elastic, b[g].elastic);
        CHECK_SAME_BITS(a[g].max_tension, b[g].max_tension);
        CHECK(a[g].contacts == b[g].contacts && a[g].particles == b[g].particles);
    }
    CHECK(b[1].has_contacts && b[1].contacts > 0);
    for (int k = 0; k < 3; k++) {
        sk_engine_destroy(e[k]);
        sk_scenario_free(&part[k]);
    }
    sk_frame_buffer_free(from_whole);
    sk_frame_buffer_free(joined);
    sk_engine_destroy(whole);
    sk_scenario_free(&s);
    return 0;
}

CHECK_MAIN({"params", slice_params}, {"equal_whole", slices_equal_whole});
