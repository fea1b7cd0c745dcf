/* The memory a batch takes and the figure a scenario is refused on: the estimate made before anything is
 * allocated (sk_scenario_memory_estimate) covers what the batch then allocates (sk_batch_bytes), for every
 * ISA, and is no more than that plus the padding to the widest pack, a fixed kilobyte per group, three packs of
 * scratch and the written ropes' frames. */
#include <stdlib.h>

#include "batch/batch.h"
#include "model/pack_size.h"
#include "test_batch_common.h"

static int estimate_covers(const char *json, uint64_t frames)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    const uint64_t estimate = sk_scenario_memory_estimate(&s);
    const char *isas[4];
    const int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++) {
        sk_error err = {0};
        sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = isas[i], .threads = 2}, &err);
        CHECK(b);
        const uint64_t bytes = sk_batch_bytes(b);
        /* per group, up to 15 ropes' lanes of padding beyond the batch's own, and two packs of scratch */
        uint64_t slack = frames + SK_PACK_BATCH_BYTES;
        /* the implicit integrator's solve of one thread (BDF2's rows too), which the estimate counts and the
         * batch allocates per call */
        for (int g = 0; g < s.n_groups && s.integrator == SK_INTEGRATOR_IMPLICIT; g++)
            slack += (uint64_t)s.groups[g].particles *
                     (SK_PACK_IMPLICIT_ROW_REALS + (sk_scenario_keeps_previous_step(&s) ? SK_PACK_BDF2_ROW_REALS : 0)) *
                     SK_PACK_MAX_WIDTH * sizeof(sk_real);
        for (int g = 0; g < s.n_groups; g++)
            slack += SK_PACK_GROUP_BYTES + (uint64_t)(SK_PACK_MAX_WIDTH - 1 + SK_PACK_SCRATCH_PACKS * SK_PACK_MAX_WIDTH) *
                                               sizeof(sk_real) *
                                               (sk_pack_lane_state_reals((uint64_t)s.groups[g].particles, true,
                                                                         sk_scenario_keeps_previous_step(&s)) +
                                                sk_pack_lane_param_reals((uint64_t)s.groups[g].particles,
                                                                         s.groups[g].has_profiles));
        if (!(bytes <= estimate && estimate <= bytes + slack)) {
            fprintf(stderr, "%s: the batch takes %llu bytes, the estimate is %llu (slack %llu)\n", isas[i],
                    (unsigned long long)bytes, (unsigned long long)estimate, (unsigned long long)slack);
            return 1;
        }
        sk_batch_destroy(b);
    }
    sk_scenario_free(&s);
    return 0;
}

/* Springs, no contacts: 1000 ropes of 64, two written. */
static int springs(void)
{
    return estimate_covers("{\"skein\": 1, \"dt\": 1e-4, \"steps\": 10, \"groups\": [{\"count\": 1000, \"particles\": 64,"
                           " \"start\": [0, 20, 0], \"end\": [6.3, 20, 0], \"pinned\": [0],"
                           " \"link\": {\"type\": \"spring\", \"stiffness\": 500}}], \"output\": {\"ropes\": [0, 999]}}",
                           2 * 64 * 6 * sizeof(sk_real) + 2 * sizeof(size_t));
}

/* BDF2: each lane keeps the state a step before and its Newton counts (100 ropes of 64, one written). */
static int bdf2(void)
{
    return estimate_covers("{\"skein\": 1, \"dt\": 1e-2, \"steps\": 10, \"integrator\": \"implicit\","
                           " \"implicit\": {\"scheme\": \"bdf2\"}, \"groups\": [{\"count\": 100, \"particles\": 64,"
                           " \"start\": [0, 20, 0], \"end\": [6.3, 20, 0], \"pinned\": [0],"
                           " \"link\": {\"type\": \"spring\", \"stiffness\": 500}}], \"output\": {\"ropes\": [0]}}",
                           64 * 6 * sizeof(sk_real) + sizeof(size_t));
}

/* Rods on the ground beside deploying springs, every rope written (17 ropes: one past a pack of 16). */
static int contacts_and_deployment(void)
{
    return estimate_covers(
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 10, \"ground\": {\"height\": 0}, \"groups\": ["
        " {\"count\": 17, \"particles\": 32, \"start\": [0, 1, 0], \"end\": [3, 1, 0], \"link\": {\"type\": \"rod\"}},"
        " {\"count\": 40, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 30, \"length\": 0.05},"
        "  \"deploy\": {\"velocity\": 1, \"initial_particles\": 2}}]}",
        (17 * 32 + 40 * 10) * 6 * sizeof(sk_real) + 57 * sizeof(size_t));
}

/* Properties along the rope: each particle's row of constants in the parameter block (15 reals a lane), beside
 * a uniform group; 300 ropes of 64 and 20 of 5, one written. */
static int profiles(void)
{
    return estimate_covers(
        "{\"skein\": 1, \"dt\": 1e-4, \"steps\": 10, \"groups\": [{\"count\": 300, \"particles\": 64,"
        " \"start\": [0, 20, 0], \"end\": [6.3, 20, 0], \"pinned\": [0], \"mass\": {\"from\": 1, \"to\": 2},"
        " \"payloads\": [{\"index\": -1, \"mass\": 3}], \"link\": {\"type\": \"spring\", \"stiffness\": 500}},"
        " {\"count\": 20, \"particles\": 5, \"start\": [0, 20, 0], \"end\": [1, 20, 0],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 500}}], \"output\": {\"ropes\": [0]}}",
        64 * 6 * sizeof(sk_real) + sizeof(size_t));
}

CHECK_MAIN({"springs", springs}, {"contacts_and_deployment", contacts_and_deployment}, {"profiles", profiles},
           {"bdf2", bdf2})
