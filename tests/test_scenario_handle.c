/* The scenario as a program holds it: a handle the public loaders allocate, read through its accessors (the
 * run's plan, the groups' shape, sweep keys, any rope's parameter by key), a few ropes as a scenario of their
 * own, and how a reference engine holds a rope. Through the public header alone, as a program would. */
#include <string.h>

#include "check.h"
#include "skein/skein.h"

/* Two groups: 3 hanging springs, then 5 anchored ones with a stiffness sweep and particle 3 pinned. */
static const char *const two_groups =
    "{\"skein\": 1, \"dt\": 0.002, \"steps\": 50, \"gravity\": [0, -9.81, 0],"
    " \"groups\": ["
    "  {\"count\": 3, \"particles\": 4, \"start\": [0, 0, 0], \"end\": [0.3, 0, 0], \"mass\": 0.1, \"pinned\": [0],"
    "   \"link\": {\"type\": \"spring\", \"stiffness\": 200, \"length\": 0.1}},"
    "  {\"count\": 5, \"particles\": 6, \"start\": [0, 1, 0], \"end\": [1, 1, 0], \"mass\": 0.2, \"pinned\": [3],"
    "   \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.25},"
    "   \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 2, 0], \"stiffness\": 1000, \"length\": 0.1},"
    "   \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 500}}}],"
    " \"output\": {\"every\": 10, \"ropes\": [1, 6]}}";

static int accessors(void)
{
    sk_error err = {0};
    sk_scenario *s = sk_scenario_parse(two_groups, "two.json", NULL, &err);
    CHECK(s);
    CHECK(strcmp(sk_scenario_source(s), "two.json") == 0);
    CHECK(strstr(sk_scenario_json(s), "\"every\": 10") != NULL);
    CHECK(sk_scenario_dt(s) == (double)(sk_real)0.002);
    CHECK(sk_scenario_steps(s) == 50 && sk_scenario_every(s) == 10);
    CHECK(sk_scenario_ropes(s) == 8 && sk_scenario_groups(s) == 2);
    CHECK(sk_scenario_initial_file(s) == NULL);
    size_t n = 0;
    const size_t *out = sk_scenario_output_ropes(s, &n);
    CHECK(n == 2 && out[0] == 1 && out[1] == 6);
    sk_group_info g;
    CHECK(sk_scenario_group(s, 1, &g));
    CHECK(g.count == 5 && g.first_rope == 3 && g.particles == 6 && g.sweeps == 1);
    CHECK(!sk_scenario_group(s, 2, &g) && !sk_scenario_group(s, -1, &g));
    CHECK(strcmp(sk_scenario_sweep_key(s, 1, 0), "link.stiffness") == 0);
    CHECK(sk_scenario_sweep_key(s, 1, 1) == NULL && sk_scenario_sweep_key(s, 0, 0) == NULL);
    size_t local = 0;
    CHECK(sk_scenario_find_rope(s, 5, &local) == 1 && local == 2);
    double x = 0;
    /* rope 5 is the group's rope 2 of 5: the middle of the sweep */
    CHECK_OK(sk_scenario_param(s, 5, "link.stiffness", &x, &err));
    CHECK(x == 300);
    CHECK_OK(sk_scenario_param(s, 0, "link.stiffness", &x, &err));
    CHECK(x == 200);
    CHECK_OK(sk_scenario_param(s, 7, "anchor.point[1]", &x, &err));
    CHECK(x == 2);
    CHECK(sk_scenario_param(s, 7, "link.colour", &x, &err) == SK_ERR_INVALID);
    CHECK(strstr(err.message, "two.json: link.colour") == err.message);
    CHECK(sk_scenario_param(s, 8, "mass", &x, &err) == SK_ERR_INVALID);
    CHECK(strstr(err.message, "rope 8 is out of range") != NULL);
    sk_scenario_destroy(s);
    sk_scenario_destroy(NULL);
    return 0;
}

static int failures(void)
{
    sk_error err = {0};
    CHECK(sk_scenario_open(SKEIN_SOURCE_DIR "/scenarios/no_such_file.json", NULL, &err) == NULL);
    CHECK(err.status == SK_ERR_IO || err.status == SK_ERR_INVALID);
    CHECK(strstr(err.message, "no_such_file.json") != NULL);
    CHECK(sk_scenario_parse("{\"skein\": 1, \"dt\": -1}", "bad.json", NULL, &err) == NULL);
    CHECK(err.status == SK_ERR_INVALID && strstr(err.message, "bad.json") == err.message);
    sk_scenario *s = sk_scenario_open(SKEIN_SOURCE_DIR "/scenarios/w1_springs.json", NULL, &err);
    CHECK(s && sk_scenario_ropes(s) == 4096);
    sk_scenario_destroy(s);
    return 0;
}

/* sk_builder_build: a bool key set in code, and a failing build that frees its builder. */
static int build(void)
{
    sk_scenario_builder *b = sk_builder_create();
    CHECK(b);
    CHECK_OK(sk_builder_set_number(b, "dt", 1e-3));
    CHECK_OK(sk_builder_set_integer(b, "steps", 10));
    CHECK_OK(sk_builder_set_integer(b, "groups[0].count", 2));
    CHECK_OK(sk_builder_set_integer(b, "groups[0].particles", 3));
    CHECK_OK(sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 0, 0}));
    CHECK_OK(sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){0.2, 0, 0}));
    CHECK_OK(sk_builder_set_json(b, "groups[0].link", "{\"type\": \"spring\", \"stiffness\": 100}"));
    CHECK_OK(sk_builder_set_bool(b, "initial.equilibrium", true));
    sk_error err = {0};
    sk_scenario *s = sk_builder_build(b, "built", &err);
    CHECK(s);
    CHECK(strstr(sk_scenario_json(s), "\"equilibrium\": true") != NULL);
    sk_scenario_destroy(s);
    b = sk_builder_create();
    CHECK(b);
    CHECK_OK(sk_builder_set_bool(b, "dt", true));
    CHECK(sk_builder_build(b, "built", &err) == NULL);
    CHECK(err.status == SK_ERR_INVALID && strstr(err.message, "built: dt") == err.message);
    return 0;
}

/* Rope 5 alone: the parameters it has in the whole, and how a reference engine over it holds it. */
static int slice_and_hold(void)
{
    sk_error err = {0};
    sk_scenario *s = sk_scenario_parse(two_groups, "two.json", NULL, &err);
    CHECK(s);
    sk_scenario *one = sk_scenario_slice_new(s, 5, 1, &err);
    CHECK(one);
    CHECK(sk_scenario_ropes(one) == 1 && sk_scenario_groups(one) == 1);
    double x = 0;
    CHECK_OK(sk_scenario_param(one, 0, "link.stiffness", &x, &err));
    CHECK(x == 300);
    sk_engine *ref = sk_engine_create(one, &(sk_engine_options){.engine = "reference"}, &err);
    sk_engine *batch = sk_engine_create(one, &(sk_engine_options){.engine = "batch", .isa = "scalar", .threads = 1},
                                        &err);
    CHECK(ref && batch);
    sk_rope_hold h = {0};
    bool pinned[6] = {0};
    CHECK(sk_engine_rope_hold(ref, 0, &h, pinned));
    CHECK(h.link_length == (sk_real)0.25 && h.held == 0);
    CHECK(h.anchor.x == 0 && h.anchor.y == 2 && h.anchor.z == 0);
    for (int i = 0; i < 6; i++)
        CHECK(pinned[i] == (i == 3));
    CHECK(!sk_engine_rope_hold(batch, 0, &h, NULL));
    sk_engine_destroy(ref);
    sk_engine_destroy(batch);
    sk_scenario_destroy(one);
    sk_scenario_destroy(s);
    return 0;
}

CHECK_MAIN({"accessors", accessors}, {"failures", failures}, {"build", build}, {"slice_and_hold", slice_and_hold})
