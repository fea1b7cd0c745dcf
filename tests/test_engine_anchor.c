/* sk_engine_set_anchor: a rope's anchor moved between steps, the same bits in both engines; a move at step 0
 * is the scenario written with that point; the mistakes it refuses. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"

/* Groups 0 and 1 are the same towed, anchored ropes but for the anchor point (1 m apart in x; towing, not a
 * sine, whose libm and SLEEF values may differ in the last bit: docs/model.md 9.5); group 2
 * deploys from its anchor; group 3 has no anchor. 7 ropes per group: the last pack has padding lanes. */
static const char scenario_json[] =
    "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 300, \"gravity\": [0, -9.81, 0], \"groups\": ["
    "{\"count\": 7, \"particles\": 6, \"start\": [0, -0.2, 0], \"end\": [0, -1.2, 0], \"mass\": 0.05,"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.2},"
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 300, \"length\": 0.2,"
    "   \"motion\": {\"velocity\": [0.1, 0, 0.05]}},"
    " \"sweep\": {\"link.stiffness\": {\"from\": 200, \"to\": 400}}},"
    "{\"count\": 7, \"particles\": 6, \"start\": [0, -0.2, 0], \"end\": [0, -1.2, 0], \"mass\": 0.05,"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.2},"
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [1, 0, 0], \"stiffness\": 300, \"length\": 0.2,"
    "   \"motion\": {\"velocity\": [0.1, 0, 0.05]}},"
    " \"sweep\": {\"link.stiffness\": {\"from\": 200, \"to\": 400}}},"
    "{\"count\": 7, \"particles\": 12, \"start\": [0, -0.3, 0], \"end\": [0, -0.1, 0], \"mass\": 0.05,"
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 300, \"length\": 0.1},"
    " \"deploy\": {\"velocity\": 1, \"initial_particles\": 2}},"
    "{\"count\": 2, \"particles\": 4, \"start\": [0, 0, 0], \"end\": [0.3, 0, 0], \"mass\": 0.05,"
    " \"pinned\": [0], \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1}}]}";

static int load(sk_scenario *s)
{
    sk_error err;
    if (sk_scenario_load_string(scenario_json, "anchor.json", NULL, s, &err) != SK_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    return 0;
}

/* Every rope of the two engines: the same particle count, positions, velocities and diagnostics bits. */
static int same_ropes(const sk_engine *a, const sk_engine *b, size_t first, size_t n)
{
    sk_real pa[3 * 12], va[3 * 12], pb[3 * 12], vb[3 * 12], ta[12], tb[12];
    for (size_t r = first; r < first + n; r++) {
        int na = sk_engine_rope_particles(a, r);
        CHECK(na == sk_engine_rope_particles(b, r));
        sk_engine_read_rope(a, r, pa, va);
        sk_engine_read_rope(b, r, pb, vb);
        CHECK(memcmp(pa, pb, sizeof(sk_real) * 3 * (size_t)na) == 0);
        CHECK(memcmp(va, vb, sizeof(sk_real) * 3 * (size_t)na) == 0);
        sk_rope_diagnostics da, db;
        sk_engine_rope_diagnostics(a, r, &da, ta);
        sk_engine_rope_diagnostics(b, r, &db, tb);
        CHECK_SAME_BITS(da.anchor_force.x, db.anchor_force.x);
        CHECK_SAME_BITS(da.anchor_force.y, db.anchor_force.y);
        CHECK_SAME_BITS(da.elastic, db.elastic);
        CHECK(na < 2 || memcmp(ta, tb, sizeof(sk_real) * (size_t)(na - 1)) == 0);
    }
    return 0;
}

/* Moves of several ropes (one mid-pack, the last of a group, a deploying one) at several steps: the batch
 * engine and the reference agree to the bit, and a moved rope is not where an unmoved one is. */
static int batch_equals_reference(void)
{
    sk_scenario s;
    CHECK_OK(load(&s));
    sk_error err;
    sk_engine *ref = sk_engine_create(&s, &(sk_engine_options){.engine = "reference"}, &err);
    sk_engine *bat = sk_engine_create(&s, &(sk_engine_options){.engine = "batch", .threads = 2}, &err);
    CHECK(ref && bat);
    const size_t moved[] = {2, 6, 9, 16};
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < sizeof moved / sizeof *moved; i++) {
            sk_vec3 p = {(sk_real)(0.1 * (double)(round + 1)), (sk_real)(0.02 * (double)i), (sk_real)-0.05};
            CHECK(sk_engine_set_anchor(ref, moved[i], p, &err) == SK_OK);
            CHECK(sk_engine_set_anchor(bat, moved[i], p, &err) == SK_OK);
        }
        sk_engine_advance(ref, 70);
        sk_engine_advance(bat, 70);
        sk_engine_check_frame(ref);
        sk_engine_check_frame(bat);
        CHECK_OK(same_ropes(ref, bat, 0, s.total_ropes));
    }
    /* rope 2 moved 0.3 m along x in the end: its top particle followed, rope 1 (unmoved) did not */
    sk_real p1[3 * 6], p2[3 * 6];
    sk_engine_read_rope(bat, 1, p1, NULL);
    sk_engine_read_rope(bat, 2, p2, NULL);
    CHECK(p2[0] - p1[0] > 0.1);
    sk_engine_destroy(ref);
    sk_engine_destroy(bat);
    sk_scenario_free(&s);
    return 0;
}

/* Group 0's ropes moved at step 0 to group 1's point run as group 1's ropes, to the bit, in both engines. */
static int move_at_start_is_the_written_point(void)
{
    sk_scenario s;
    CHECK_OK(load(&s));
    const char *names[] = {"batch", "reference"};
    for (int k = 0; k < 2; k++) {
        sk_error err;
        sk_engine *e = sk_engine_create(&s, &(sk_engine_options){.engine = names[k]}, &err);
        CHECK(e);
        for (size_t r = 0; r < 7; r++)
            CHECK(sk_engine_set_anchor(e, r, (sk_vec3){1, 0, 0}, &err) == SK_OK);
        sk_engine_advance(e, 150);
        CHECK_OK(same_ropes(e, e, 0, 7)); /* readable */
        sk_real pa[3 * 6], pb[3 * 6];
        for (size_t r = 0; r < 7; r++) {
            sk_engine_read_rope(e, r, pa, NULL);
            sk_engine_read_rope(e, 7 + r, pb, NULL);
            CHECK(memcmp(pa, pb, sizeof pa) == 0);
        }
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

static int refused(void)
{
    sk_scenario s;
    CHECK_OK(load(&s));
    sk_error err;
    sk_engine *e = sk_engine_create(&s, NULL, &err);
    CHECK(e);
    CHECK(sk_engine_set_anchor(e, 23, (sk_vec3){0, 0, 0}, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "anchor.json: rope 23: out of range (23 ropes)") == 0);
    CHECK(sk_engine_set_anchor(e, 21, (sk_vec3){0, 0, 0}, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "anchor.json: rope 21: groups[3] has no anchor to move") == 0);
    CHECK(sk_engine_set_anchor(e, 0, (sk_vec3){0, (sk_real)NAN, 0}, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "anchor.json: rope 0: anchor point must be finite") == 0);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    static const check_case cases[] = {
        {"batch_equals_reference", batch_equals_reference},
        {"move_at_start_is_the_written_point", move_at_start_is_the_written_point},
        {"refused", refused},
    };
    return check_main(cases, sizeof cases / sizeof *cases, argc, argv);
}
