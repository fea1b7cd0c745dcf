/* The scenario loader: defaults, every key, sweeps, overrides, normalised JSON, memory limit, bad inputs. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "check.h"
#include "model/pack_size.h"
#include "skein/scenario.h"

/* Loads text; returns the status, leaving the message in err. */
static int load(const char *text, sk_scenario *s, sk_error *err)
{
    memset(err, 0, sizeof *err);
    return sk_scenario_load_string(text, "t.json", NULL, s, err);
}

static int load_sets(const char *text, const char *const *sets, int n, sk_scenario *s, sk_error *err)
{
    sk_load_options opt = {.sets = sets, .n_sets = n};
    memset(err, 0, sizeof *err);
    return sk_scenario_load_string(text, "t.json", &opt, s, err);
}

/* The status and message a text must fail with. */
static int fails_with(const char *text, const char *message)
{
    sk_scenario s;
    sk_error err;
    int rc = load(text, &s, &err);
    if (rc != SK_ERR_INVALID || strcmp(err.message, message) != 0) {
        fprintf(stderr, "status %d, message\n  [%s]\nexpected\n  [%s]\n", rc, err.message, message);
        return 1;
    }
    CHECK(s.groups == NULL && s.normalized_json == NULL && s.source == NULL);
    return 0;
}

#define R(x) ((sk_real)(x))

static const char *minimal =
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 50,"
    " \"groups\": [{\"count\": 2, \"particles\": 1, \"start\": [1, 2, 3], \"end\": [1, 2, 3]},"
    "              {\"count\": 3, \"particles\": 5, \"start\": [0, 0, 0], \"end\": [4, 0, 0],"
    "               \"link\": {\"type\": \"rod\"}}]}";

static int defaults(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(minimal, &s, &err));
    CHECK(strcmp(s.source, "t.json") == 0);
    CHECK_SAME_BITS(s.dt, R(0.001));
    CHECK(s.steps == 50);
    CHECK(s.integrator == SK_INTEGRATOR_SYMPLECTIC);
    CHECK_SAME_BITS(s.gravity.x, R(0));
    CHECK_SAME_BITS(s.gravity.y, R(-9.81));
    CHECK_SAME_BITS(s.gravity.z, R(0));
    CHECK(s.gravity_as == SK_GRAVITY_ACCELERATION);
    CHECK(!s.has_ground);
    CHECK(s.iterations == 0);
    CHECK(s.n_groups == 2 && s.total_ropes == 5);
    CHECK(s.output_every == 50);
    CHECK(s.n_output_ropes == 5);
    for (size_t i = 0; i < 5; i++)
        CHECK(s.output_ropes[i] == i);

    const sk_group *a = &s.groups[0], *b = &s.groups[1];
    CHECK(a->count == 2 && a->first_rope == 0 && a->particles == 1);
    CHECK(a->link == SK_LINK_NONE && a->anchor == SK_ANCHOR_NONE);
    CHECK(!a->anchor_driven && !a->has_drag && !a->has_buoyancy && !a->deploys);
    CHECK(a->n_pinned == 0 && a->n_sweeps == 0);
    CHECK_SAME_BITS(a->base.mass, R(1));
    CHECK_SAME_BITS(a->base.damping, R(1));
    CHECK_SAME_BITS(a->base.verlet_damping, R(0));
    CHECK_SAME_BITS(a->base.velocity.x, R(0));
    CHECK_SAME_BITS(a->base.velocity.y, R(0));
    CHECK_SAME_BITS(a->base.velocity.z, R(0));
    CHECK_SAME_BITS(a->base.start.z, R(3));
    CHECK(sk_group_initial_particles(a) == 1);

    CHECK(b->count == 3 && b->first_rope == 2 && b->particles == 5);
    CHECK(b->link == SK_LINK_ROD && b->link_length_auto);
    /* "auto": |end - start| / (5 - 1) = 4 / 4. */
    CHECK_SAME_BITS(b->base.link_length, R(1));
    CHECK_SAME_BITS(b->base.link_restitution, R(0));
    CHECK(sk_group_initial_particles(b) == 5);
    sk_scenario_free(&s);

    /* steps 0: frames 0 only, every 1; duration rounds to whole steps: 0.01049 / 0.001 = 10.49 -> 10. */
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 0, \"groups\": [{\"count\": 1, \"particles\": 1,"
                  " \"start\": [0, 0, 0], \"end\": [0, 0, 0]}]}",
                  &s, &err));
    CHECK(s.steps == 0 && s.output_every == 1);
    sk_scenario_free(&s);
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"duration\": 0.01049, \"groups\": [{\"count\": 1,"
                  " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}]}",
                  &s, &err));
    CHECK(s.steps == 10 && s.output_every == 10);
    sk_scenario_free(&s);
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"duration\": 0.0105001, \"groups\": [{\"count\": 1,"
                  " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}]}",
                  &s, &err));
    CHECK(s.steps == 11);
    sk_scenario_free(&s);
    return 0;
}

/* Every key of the schema, each with a value unlike its default. */
static const char *full =
    "{\n"
    "  \"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"verlet\",\n"
    "  \"gravity\": [0.5, -9.5, 0.25], \"gravity_as\": \"force\",\n"
    "  \"ground\": {\"height\": -1.5, \"restitution\": 0.25}, \"iterations\": 7,\n"
    "  \"groups\": [\n"
    "    {\"count\": 4, \"particles\": 6, \"start\": [0, 20, 0], \"end\": [5, 20, 0],\n"
    "     \"mass\": 0.1, \"damping\": 0.99, \"verlet_damping\": 5e-5, \"velocity\": [1, 2, 3],\n"
    "     \"pinned\": [5, 0, 5],\n"
    "     \"link\": {\"type\": \"spring\", \"stiffness\": 500, \"length\": \"auto\"},\n"
    "     \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 21, 0], \"stiffness\": 20, \"length\": 0.1,\n"
    "                \"motion\": {\"amplitude\": [0.5, 0, 0], \"omega\": 6.25, \"phase\": 0.75}},\n"
    "     \"drag\": {\"k1\": 0.125, \"k2\": 0.0625},\n"
    "     \"buoyancy\": {\"water_height\": 2, \"max_depth\": 0.5, \"density\": 1025, \"volume\": 0.002},\n"
    "     \"deploy\": {\"velocity\": 1.5, \"initial_particles\": 2, \"insert_velocity\": \"along\",\n"
    "                \"max_length\": 10},\n"
    "     \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 1000}}},\n"
    "    {\"count\": 1, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [0, -2, 0],\n"
    "     \"link\": {\"type\": \"cable\", \"length\": 1.25, \"restitution\": 0.5},\n"
    "     \"anchor\": {\"type\": \"cable\", \"point\": [0, 1, 0], \"length\": 0.75, \"restitution\": 0.375}},\n"
    "    {\"count\": 2, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],\n"
    "     \"link\": {\"type\": \"bungee\", \"stiffness\": 30, \"length\": 0.5},\n"
    "     \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 1, 0], \"stiffness\": 40, \"damping\": 2.5}},\n"
    "    {\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],\n"
    "     \"link\": {\"type\": \"rod\", \"length\": 1},\n"
    "     \"anchor\": {\"type\": \"rod\", \"point\": [0, 1, 0], \"length\": 1}},\n"
    "    {\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],\n"
    "     \"link\": {\"type\": \"spring\", \"stiffness\": 1},\n"
    "     \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0, 1, 0], \"stiffness\": 3}}\n"
    "  ],\n"
    "  \"output\": {\"every\": 100, \"ropes\": [8, 0, 4, 0]}\n"
    "}\n";

static int full_scenario(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(full, &s, &err));
    CHECK_SAME_BITS(s.dt, R(2e-4));
    CHECK(s.steps == 1000 && s.integrator == SK_INTEGRATOR_VERLET);
    CHECK_SAME_BITS(s.gravity.x, R(0.5));
    CHECK_SAME_BITS(s.gravity.y, R(-9.5));
    CHECK_SAME_BITS(s.gravity.z, R(0.25));
    CHECK(s.gravity_as == SK_GRAVITY_FORCE);
    CHECK(s.has_ground);
    CHECK_SAME_BITS(s.ground_height, R(-1.5));
    CHECK_SAME_BITS(s.ground_restitution, R(0.25));
    CHECK(s.iterations == 7);
    CHECK(s.n_groups == 5 && s.total_ropes == 9);
    CHECK(s.output_every == 100);
    CHECK(s.n_output_ropes == 3);
    CHECK(s.output_ropes[0] == 0 && s.output_ropes[1] == 4 && s.output_ropes[2] == 8);

    const sk_group *g = &s.groups[0];
    const sk_rope_params *b = &g->base;
    CHECK(g->count == 4 && g->particles == 6);
    CHECK_SAME_BITS(b->start.y, R(20));
    CHECK_SAME_BITS(b->end.x, R(5));
    CHECK_SAME_BITS(b->mass, R(0.1));
    CHECK_SAME_BITS(b->damping, R(0.99));
    CHECK_SAME_BITS(b->verlet_damping, R(5e-5));
    CHECK_SAME_BITS(b->velocity.x, R(1));
    CHECK_SAME_BITS(b->velocity.y, R(2));
    CHECK_SAME_BITS(b->velocity.z, R(3));
    CHECK(g->n_pinned == 2 && g->pinned[0] == 0 && g->pinned[1] == 5);
    CHECK(g->link == SK_LINK_SPRING && g->link_length_auto);
    CHECK_SAME_BITS(b->link_stiffness, R(500));
    /* deploying: n0 = initial_particles = 2, so the spacing is |end - start| / 1. */
    CHECK_SAME_BITS(b->link_length, R(5));
    CHECK(g->anchor == SK_ANCHOR_SPRING && g->anchor_driven);
    CHECK_SAME_BITS(b->anchor_point.y, R(21));
    CHECK_SAME_BITS(b->anchor_stiffness, R(20));
    CHECK_SAME_BITS(b->anchor_length, R(0.1));
    CHECK_SAME_BITS(b->motion_amplitude.x, R(0.5));
    CHECK_SAME_BITS(b->motion_omega, R(6.25));
    CHECK_SAME_BITS(b->motion_phase, R(0.75));
    CHECK(g->has_drag);
    CHECK_SAME_BITS(b->drag_k1, R(0.125));
    CHECK_SAME_BITS(b->drag_k2, R(0.0625));
    CHECK(g->has_buoyancy);
    CHECK_SAME_BITS(b->buoyancy_water_height, R(2));
    CHECK_SAME_BITS(b->buoyancy_max_depth, R(0.5));
    CHECK_SAME_BITS(b->buoyancy_density, R(1025));
    CHECK_SAME_BITS(b->buoyancy_volume, R(0.002));
    CHECK(g->deploys && g->deploy_initial == 2 && g->insert_velocity == SK_INSERT_ALONG);
    CHECK(g->deploy_has_max_length);
    CHECK_SAME_BITS(b->deploy_velocity, R(1.5));
    CHECK_SAME_BITS(b->deploy_max_length, R(10));
    CHECK(sk_group_initial_particles(g) == 2);
    CHECK(g->n_sweeps == 1 && strcmp(g->sweeps[0].key, "link.stiffness") == 0);
    CHECK(g->sweeps[0].offset == offsetof(sk_rope_params, link_stiffness));
    CHECK(g->sweeps[0].kind == SK_SWEEP_LINEAR && g->sweeps[0].from == 100 && g->sweeps[0].to == 1000);

    g = &s.groups[1];
    CHECK(g->first_rope == 4 && g->link == SK_LINK_CABLE && !g->link_length_auto);
    CHECK_SAME_BITS(g->base.link_length, R(1.25));
    CHECK_SAME_BITS(g->base.link_restitution, R(0.5));
    CHECK(g->anchor == SK_ANCHOR_CABLE && !g->anchor_driven);
    CHECK_SAME_BITS(g->base.anchor_length, R(0.75));
    CHECK_SAME_BITS(g->base.anchor_restitution, R(0.375));
    CHECK(!g->has_drag && !g->has_buoyancy && !g->deploys);
    CHECK_SAME_BITS(g->base.mass, R(1));

    g = &s.groups[2];
    CHECK(g->link == SK_LINK_BUNGEE && g->anchor == SK_ANCHOR_FAKE_SPRING);
    CHECK_SAME_BITS(g->base.link_stiffness, R(30));
    CHECK_SAME_BITS(g->base.anchor_stiffness, R(40));
    CHECK_SAME_BITS(g->base.anchor_damping, R(2.5));
    g = &s.groups[3];
    CHECK(g->link == SK_LINK_ROD && g->anchor == SK_ANCHOR_ROD);
    CHECK_SAME_BITS(g->base.anchor_length, R(1));
    g = &s.groups[4];
    CHECK(g->anchor == SK_ANCHOR_BUNGEE);
    CHECK_SAME_BITS(g->base.anchor_length, R(0)); /* default rest length */
    CHECK_SAME_BITS(g->base.link_length, R(1));   /* auto by default: 1 / (2 - 1) */

    size_t local;
    CHECK(sk_scenario_find_rope(&s, 0, &local) == 0 && local == 0);
    CHECK(sk_scenario_find_rope(&s, 3, &local) == 0 && local == 3);
    CHECK(sk_scenario_find_rope(&s, 4, &local) == 1 && local == 0);
    CHECK(sk_scenario_find_rope(&s, 6, &local) == 2 && local == 1);
    CHECK(sk_scenario_find_rope(&s, 8, &local) == 4 && local == 0);
    CHECK(sk_scenario_find_rope(&s, 9, &local) == -1);
    sk_scenario_free(&s);
    return 0;
}

static const char *sweep_head = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [";

/* Builds a scenario of one group: sweep_head + group + "]}". */
static int load_group(const char *group, sk_scenario *s, sk_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s]}", sweep_head, group);
    return load(text, s, err);
}

static int sweep_linear(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load_group("{\"count\": 5, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                        " \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
                        " \"sweep\": {\"mass\": {\"from\": 1, \"to\": 2},"
                        "            \"link.stiffness\": {\"from\": 1000, \"to\": 100}}}",
                        &s, &err));
    /* from + (to - from) r / 4: masses 1, 1.25, 1.5, 1.75, 2; stiffness 1000, 775, 550, 325, 100. */
    const double mass[5] = {1, 1.25, 1.5, 1.75, 2}, k[5] = {1000, 775, 550, 325, 100};
    for (size_t r = 0; r < 5; r++) {
        sk_rope_params p;
        sk_group_rope_params(&s.groups[0], r, &p);
        CHECK_SAME_BITS(p.mass, R(mass[r]));
        CHECK_SAME_BITS(p.link_stiffness, R(k[r]));
        CHECK_SAME_BITS(p.damping, R(1)); /* untouched */
    }
    sk_scenario_free(&s);

    /* A third: from 0 to 1 over 4 ropes gives 1/3 and 2/3 as ((1 - 0) * r) / 3 rounds them. */
    CHECK_OK(load_group("{\"count\": 4, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                        " \"sweep\": {\"velocity[1]\": {\"from\": 0, \"to\": 1}}}",
                        &s, &err));
    sk_rope_params p;
    sk_group_rope_params(&s.groups[0], 1, &p);
    CHECK_SAME_BITS(p.velocity.y, R(1.0 / 3.0));
    sk_group_rope_params(&s.groups[0], 2, &p);
    CHECK_SAME_BITS(p.velocity.y, R(2.0 / 3.0));
    CHECK_SAME_BITS(p.velocity.x, R(0));
    sk_scenario_free(&s);

    /* One rope: from. */
    CHECK_OK(load_group("{\"count\": 1, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                        " \"sweep\": {\"mass\": {\"from\": 3, \"to\": 5}}}",
                        &s, &err));
    sk_group_rope_params(&s.groups[0], 0, &p);
    CHECK_SAME_BITS(p.mass, R(3));
    sk_scenario_free(&s);
    return 0;
}

static int sweep_values(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load_group("{\"count\": 3, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                        " \"anchor\": {\"type\": \"cable\", \"point\": [0, 1, 0], \"length\": 1},"
                        " \"sweep\": {\"anchor.point[1]\": {\"values\": [5, -2.5, 7]},"
                        "            \"anchor.restitution\": {\"values\": [0, 1, 0.5]}}}",
                        &s, &err));
    const double y[3] = {5, -2.5, 7}, e[3] = {0, 1, 0.5};
    for (size_t r = 0; r < 3; r++) {
        sk_rope_params p;
        sk_group_rope_params(&s.groups[0], r, &p);
        CHECK_SAME_BITS(p.anchor_point.x, R(0));
        CHECK_SAME_BITS(p.anchor_point.y, R(y[r]));
        CHECK_SAME_BITS(p.anchor_restitution, R(e[r]));
        CHECK_SAME_BITS(p.anchor_length, R(1));
    }
    sk_scenario_free(&s);
    return 0;
}

/* SplitMix64 as published (Steele, Lea, Flood; Vigna's splitmix64.c), stepped one output at a time. */
static uint64_t splitmix_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int sweep_random(void)
{
    /* The generator matches the published outputs for seed 0. */
    uint64_t st = 0;
    CHECK(splitmix_next(&st) == UINT64_C(0xE220A8397B1DCDAF));
    CHECK(splitmix_next(&st) == UINT64_C(0x6E789E6AA1B965F4));
    CHECK(splitmix_next(&st) == UINT64_C(0x06C45D188009454F));

    sk_scenario s;
    sk_error err;
    CHECK_OK(load_group("{\"count\": 1001, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                        " \"sweep\": {\"mass\": {\"random\": {\"min\": 2, \"max\": 5, \"seed\": 42}},"
                        "            \"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 0}}}}",
                        &s, &err));
    const sk_group *g = &s.groups[0];
    CHECK(g->sweeps[0].kind == SK_SWEEP_RANDOM && g->sweeps[0].seed == 42);
    /* Rope r takes output r + 1 of the key's own stream. */
    uint64_t s42 = 42, s0 = 0;
    for (size_t r = 0; r < 1001; r++) {
        uint64_t x = splitmix_next(&s42), y = splitmix_next(&s0);
        if (r > 2 && r < 1000)
            continue;
        double mass = 2 + (5.0 - 2.0) * (double)(x >> 11) * 0x1p-53;
        double damping = 0.5 + (1 - 0.5) * (double)(y >> 11) * 0x1p-53;
        sk_rope_params p;
        sk_group_rope_params(g, r, &p);
        CHECK_SAME_BITS(p.mass, R(mass));
        CHECK_SAME_BITS(p.damping, R(damping));
        CHECK(p.mass >= 2 && p.mass <= 5);
    }
    /* Seed 0's first output scaled by hand: 0xE220A8397B1DCDAF >> 11 = 0x1C441507'2F63B9 (of 2^53). */
    sk_rope_params p;
    sk_group_rope_params(g, 0, &p);
    CHECK_SAME_BITS(p.damping, R(0.5 + 0.5 * ((double)UINT64_C(0x1C4415072F63B9) / 9007199254740992.0)));
    sk_scenario_free(&s);
    return 0;
}

/* Several sweeps on several groups: each lands on its own group's ropes. */
static int sweeps_together(void)
{
    sk_scenario s;
    sk_error err;
    CHECK_OK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": ["
                  "{\"count\": 2, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                  " \"sweep\": {\"mass\": {\"values\": [3, 4]}}},"
                  "{\"count\": 3, \"particles\": 2, \"start\": [0, 0, 0], \"end\": [2, 0, 0],"
                  " \"link\": {\"type\": \"spring\", \"stiffness\": 10, \"length\": 1},"
                  " \"drag\": {\"k1\": 0.5},"
                  " \"sweep\": {\"mass\": {\"from\": 1, \"to\": 3}, \"drag.k2\": {\"values\": [0, 0.5, 1]},"
                  "            \"link.length\": {\"from\": 2, \"to\": 1}, \"start[2]\": {\"from\": -1, \"to\": 1}}}]}",
                  &s, &err));
    sk_rope_params p;
    sk_group_rope_params(&s.groups[0], 1, &p);
    CHECK_SAME_BITS(p.mass, R(4));
    const double mass[3] = {1, 2, 3}, k2[3] = {0, 0.5, 1}, len[3] = {2, 1.5, 1}, z[3] = {-1, 0, 1};
    for (size_t r = 0; r < 3; r++) {
        size_t local;
        CHECK(sk_scenario_find_rope(&s, 2 + r, &local) == 1 && local == r);
        sk_group_rope_params(&s.groups[1], r, &p);
        CHECK_SAME_BITS(p.mass, R(mass[r]));
        CHECK_SAME_BITS(p.drag_k1, R(0.5));
        CHECK_SAME_BITS(p.drag_k2, R(k2[r]));
        CHECK_SAME_BITS(p.link_length, R(len[r]));
        CHECK_SAME_BITS(p.start.z, R(z[r]));
        CHECK_SAME_BITS(p.link_stiffness, R(10));
    }
    sk_scenario_free(&s);
    return 0;
}

static int auto_length(void)
{
    sk_scenario s;
    sk_error err;
    /* end.x from 3 to 6 over 3 ropes, 4 particles: spacings 3/3, 4.5/3, 6/3. */
    CHECK_OK(load_group("{\"count\": 3, \"particles\": 4, \"start\": [0, 0, 0], \"end\": [3, 0, 0],"
                        " \"link\": {\"type\": \"rod\", \"length\": \"auto\"},"
                        " \"sweep\": {\"end[0]\": {\"from\": 3, \"to\": 6}}}",
                        &s, &err));
    const double len[3] = {1, 1.5, 2};
    for (size_t r = 0; r < 3; r++) {
        sk_rope_params p;
        sk_group_rope_params(&s.groups[0], r, &p);
        CHECK_SAME_BITS(p.link_length, R(len[r]));
    }
    sk_scenario_free(&s);

    /* |(3, 4, 0)| = 5 over 4 segments; a swept start.y of 4 makes rope 1 horizontal: 3 / 4. */
    CHECK_OK(load_group("{\"count\": 2, \"particles\": 5, \"start\": [0, 0, 0], \"end\": [3, 4, 0],"
                        " \"link\": {\"type\": \"cable\"},"
                        " \"sweep\": {\"start[1]\": {\"values\": [0, 4]}}}",
                        &s, &err));
    sk_rope_params p;
    sk_group_rope_params(&s.groups[0], 0, &p);
    CHECK_SAME_BITS(p.link_length, R(1.25));
    sk_group_rope_params(&s.groups[0], 1, &p);
    CHECK_SAME_BITS(p.link_length, R(0.75));
    sk_scenario_free(&s);

    /* A swept end that meets start for one rope: that rope is named. */
    return fails_with("{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 3, \"particles\": 4,"
                      " \"start\": [0, 0, 0], \"end\": [3, 0, 0], \"link\": {\"type\": \"rod\"},"
                      " \"sweep\": {\"end[0]\": {\"values\": [1, 0, 2]}}}]}",
                      "t.json: groups[0].link.length: \"auto\" gives a zero spacing for rope 1 (start == end);"
                      " give a number");
}

static int overrides(void)
{
    sk_scenario s;
    sk_error err;
    const char *base = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 100, \"groups\": [{\"count\": 2, \"particles\": 3,"
                       " \"start\": [0, 0, 0], \"end\": [2, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 5},"
                       " \"sweep\": {\"link.stiffness\": {\"from\": 5, \"to\": 6}}}]}";
    const char *sets[] = {"dt=0.002",
                          "groups[0].link.stiffness=7.5",
                          "groups[0].start[1]=-3",
                          "output.every=20",
                          "integrator=verlet",
                          "groups[0].drag.k1=0.25",
                          "ground.restitution=0.5",
                          "groups[0].sweep.link.stiffness.to=9",
                          "groups[0].sweep.mass={\"values\": [2, 3]}",
                          "steps=200"};
    CHECK_OK(load_sets(base, sets, 10, &s, &err));
    CHECK_SAME_BITS(s.dt, R(0.002));
    CHECK(s.steps == 200 && s.output_every == 20 && s.integrator == SK_INTEGRATOR_VERLET);
    CHECK(s.has_ground);
    CHECK_SAME_BITS(s.ground_restitution, R(0.5));
    CHECK_SAME_BITS(s.ground_height, R(0));
    const sk_group *g = &s.groups[0];
    CHECK_SAME_BITS(g->base.link_stiffness, R(7.5));
    CHECK_SAME_BITS(g->base.start.y, R(-3));
    CHECK(g->has_drag);
    CHECK_SAME_BITS(g->base.drag_k1, R(0.25));
    CHECK_SAME_BITS(g->base.drag_k2, R(0));
    sk_rope_params p;
    sk_group_rope_params(g, 1, &p);
    CHECK_SAME_BITS(p.link_stiffness, R(9));
    CHECK_SAME_BITS(p.mass, R(3));
    sk_scenario_free(&s);

    /* Errors name the whole --set argument. */
    struct {
        const char *set, *message;
    } bad[] = {
        {"groups[1].mass=2", "override groups[1].mass=2: index 1 out of range (groups has 1 element)"},
        {"groups[0].start[3]=1", "override groups[0].start[3]=1: index 3 out of range (groups[0].start has 3 elements)"},
        {"dt", "override dt: expected PATH=VALUE"},
        {"=5", "override =5: expected PATH=VALUE"},
        {"groups[x].mass=1", "override groups[x].mass=1: malformed path"},
        {"groups[0]..mass=1", "override groups[0]..mass=1: malformed path"},
        {"output.=1", "override output.=1: malformed path"},
        {"dt.x=1", "override dt.x=1: dt is not an object"},
        {"groups.x=1", "override groups.x=1: groups is not an object"},
        {"dt[0]=1", "override dt[0]=1: dt is not an array"},
        {"gravity[0]=1", "override gravity[0]=1: gravity does not exist"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = load_sets(base, &bad[i].set, 1, &s, &err);
        if (rc != SK_ERR_INVALID || strcmp(err.message, bad[i].message) != 0) {
            fprintf(stderr, "%s: status %d [%s]\n", bad[i].set, rc, err.message);
            return 1;
        }
        CHECK(s.groups == NULL);
    }
    /* A caller names its overrides as its users give them: the command line says "--set". */
    const char *bad_path = "groups[x].mass=1";
    const sk_load_options labelled = {.sets = &bad_path, .n_sets = 1, .label = "--set"};
    CHECK(sk_scenario_load_string(base, "t.json", &labelled, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "--set groups[x].mass=1: malformed path") == 0);
    /* A value that is valid JSON but wrong for the key fails validation as in a file; the message names the
     * override that set it (the last one, which took effect), not the file. */
    const char *mass = "groups[0].mass=-1";
    CHECK(load_sets(base, &mass, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "override groups[0].mass=-1: groups[0].mass: must be > 0") == 0);
    /* A long VALUE (a sweep's list set from a program) is cut after 60 characters in messages: one short line. */
    const char *long_value = "groups[0].mass=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]";
    CHECK(load_sets(base, &long_value, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strncmp(err.message, "override groups[0].mass=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, "
                               "...: groups[0].mass: ", 105) == 0);
    const char *long_path_error = "groups[1].mass=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]";
    CHECK(load_sets(base, &long_path_error, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "override groups[1].mass=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, "
                              "...: index 1 out of range (groups has 1 element)") == 0);
    const char *word = "dt=fast";
    CHECK(load_sets(base, &word, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "override dt=fast: dt: must be a number") == 0);
    const char *twice[] = {"groups[0].mass=-1", "groups[0].mass=-2"};
    CHECK(load_sets(base, twice, 2, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "override groups[0].mass=-2: groups[0].mass: must be > 0") == 0);
    /* an object set whole: what is wrong inside it is the override's */
    const char *link = "groups[0].link={\"type\": \"spring\"}";
    CHECK(load_sets(base, &link, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "override groups[0].link={\"type\": \"spring\"}: groups[0].link.stiffness: required") == 0);
    /* a key the override did not touch is the file's */
    const char *other = "dt=0.002";
    const char *bad_file = "{\"skein\": 1, \"dt\": 0.001, \"steps\": -1, \"groups\": []}";
    CHECK(load_sets(bad_file, &other, 1, &s, &err) == SK_ERR_INVALID);
    CHECK(strncmp(err.message, "t.json: ", 8) == 0);
    return 0;
}

static int same_scenario(const sk_scenario *a, const sk_scenario *b)
{
    CHECK_SAME_BITS(a->dt, b->dt);
    CHECK(a->steps == b->steps && a->integrator == b->integrator && a->gravity_as == b->gravity_as);
    CHECK(memcmp(&a->gravity, &b->gravity, sizeof a->gravity) == 0);
    CHECK(a->has_ground == b->has_ground);
    CHECK_SAME_BITS(a->ground_height, b->ground_height);
    CHECK_SAME_BITS(a->ground_restitution, b->ground_restitution);
    CHECK(a->iterations == b->iterations && a->n_groups == b->n_groups && a->total_ropes == b->total_ropes);
    CHECK(a->output_every == b->output_every && a->n_output_ropes == b->n_output_ropes);
    CHECK(memcmp(a->output_ropes, b->output_ropes, a->n_output_ropes * sizeof *a->output_ropes) == 0);
    for (int i = 0; i < a->n_groups; i++) {
        const sk_group *x = &a->groups[i], *y = &b->groups[i];
        CHECK(x->count == y->count && x->first_rope == y->first_rope && x->particles == y->particles);
        CHECK(x->link == y->link && x->link_length_auto == y->link_length_auto && x->anchor == y->anchor);
        CHECK(x->anchor_driven == y->anchor_driven && x->has_drag == y->has_drag);
        CHECK(x->has_buoyancy == y->has_buoyancy && x->deploys == y->deploys);
        CHECK(x->deploy_initial == y->deploy_initial && x->insert_velocity == y->insert_velocity);
        CHECK(x->deploy_has_max_length == y->deploy_has_max_length);
        CHECK(x->speed_count == y->speed_count);
        CHECK(x->speed_count == 0 ||
              (memcmp(x->speed_times, y->speed_times, (size_t)x->speed_count * sizeof(sk_real)) == 0 &&
               memcmp(x->speed_values, y->speed_values, (size_t)x->speed_count * sizeof(sk_real)) == 0));
        CHECK(x->n_pinned == y->n_pinned);
        CHECK(x->n_pinned == 0 || memcmp(x->pinned, y->pinned, (size_t)x->n_pinned * sizeof(int)) == 0);
        /* sk_rope_params is all sk_real: no padding, so memcmp compares every bit that matters. */
        CHECK(memcmp(&x->base, &y->base, sizeof x->base) == 0);
        CHECK(x->n_sweeps == y->n_sweeps);
        for (int k = 0; k < x->n_sweeps; k++) {
            const sk_sweep *u = &x->sweeps[k], *v = &y->sweeps[k];
            CHECK(strcmp(u->key, v->key) == 0 && u->offset == v->offset && u->kind == v->kind);
            CHECK_SAME_BITS(u->from, v->from);
            CHECK_SAME_BITS(u->to, v->to);
            CHECK_SAME_BITS(u->min, v->min);
            CHECK_SAME_BITS(u->max, v->max);
            CHECK(u->seed == v->seed);
            CHECK((u->values == NULL) == (v->values == NULL));
            CHECK(!u->values || memcmp(u->values, v->values, x->count * sizeof(double)) == 0);
        }
    }
    return 0;
}

static int round_trip_one(const char *text)
{
    sk_scenario a, b;
    sk_error err;
    CHECK_OK(load(text, &a, &err));
    CHECK(a.normalized_json != NULL);
    if (load(a.normalized_json, &b, &err) != 0) {
        fprintf(stderr, "normalised JSON does not load: %s\n%s\n", err.message, a.normalized_json);
        return 1;
    }
    CHECK_OK(same_scenario(&a, &b));
    CHECK(strcmp(a.normalized_json, b.normalized_json) == 0);
    sk_scenario_free(&a);
    sk_scenario_free(&b);
    return 0;
}

/* A deploying group whose deploy.velocity is TABLE. */
#define DEPLOY_TABLE(TABLE)                                                                                       \
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"groups\": [{\"count\": 2, \"particles\": 6,"                    \
    " \"start\": [0, 0, 0], \"end\": [0.1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 100, \"length\": 0.1}," \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 0, 0], \"stiffness\": 100, \"length\": 0.05},"  \
    " \"deploy\": {\"velocity\": " TABLE ", \"initial_particles\": 2}}]}"

static int normalized(void)
{
    CHECK_OK(round_trip_one(full));
    CHECK_OK(round_trip_one(minimal));
    /* a deployment speed table: written back as {times, values}, the same bits */
    CHECK_OK(round_trip_one(DEPLOY_TABLE("{\"times\": [0.1, 0.30000000000000004, 2], \"values\": [1.5, -0.7, 0]}")));
    CHECK_OK(round_trip_one("{\"skein\": 1, \"dt\": 0.1, \"duration\": 1, \"groups\": [{\"count\": 3,"
                            " \"particles\": 1, \"start\": [0.1, 0.2, 0.3], \"end\": [0, 0, 0], \"mass\": 0.7,"
                            " \"sweep\": {\"mass\": {\"random\": {\"min\": 0.1, \"max\": 0.3, \"seed\": 9}},"
                            " \"velocity[2]\": {\"values\": [0.1, 0.2, 0.30000000000000004]}}}],"
                            " \"output\": {\"ropes\": []}}"));

    /* Defaults are written out, in docs/scenario-format.md's key order; "auto" stays "auto". */
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(minimal, &s, &err));
    const char *t = s.normalized_json;
    const char *order[] = {"\"skein\": 1", "\"dt\": 0.001", "\"steps\": 50", "\"integrator\": \"symplectic\"",
                           "\"gravity\"", "\"gravity_as\": \"acceleration\"", "\"iterations\": 0",
                           "\"groups\"", "\"count\": 2", "\"particles\": 1", "\"start\"", "\"end\"",
                           "\"mass\": 1.0", "\"damping\": 1.0", "\"verlet_damping\": 0.0", "\"velocity\"",
                           "\"pinned\": []", "\"count\": 3", "\"link\"", "\"type\": \"rod\"",
                           "\"length\": \"auto\"", "\"output\"", "\"every\": 50"};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *at = strstr(t, order[i]);
        if (!at) {
            fprintf(stderr, "missing %s in\n%s\n", order[i], s.normalized_json);
            return 1;
        }
        t = at + strlen(order[i]);
    }
    CHECK(strstr(s.normalized_json, "\"ground\"") == NULL);
    CHECK(strstr(s.normalized_json, "\n  \"groups\": [\n    {\n      \"count\": 2,") != NULL);
    sk_scenario_free(&s);
    return 0;
}

/* The estimate: the batch's packs as they are laid out (model/pack_size.h: 6 reals per particle, a rod group's
 * contact rows, the parameter block, ropes padded to 16 lanes), 32 bytes of marks per rope, a kilobyte for the
 * batch and for each group with its pinned flags, three packs of scratch of the largest group, and the written
 * ropes' frames, worked out by hand for a small batch. */
static const uint64_t marks = 2 * sizeof(long) + sizeof(void *) + sizeof(uint64_t);

static int memory_estimate(void)
{
    const char *text = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": ["
                       "{\"count\": 20, \"particles\": 10, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                       " \"link\": {\"type\": \"rod\"}},"
                       "{\"count\": 1, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                       " \"link\": {\"type\": \"rod\"}}], \"output\": {\"ropes\": [0, 20]}}";
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(text, &s, &err));
    /* Ropes padded to 32 and 16 lanes of 10 * 6 + 12 and 3 * 6 + 5 state reals and the parameters; the two
     * written ropes' frames, 13 particles of 6 reals, and their indices. */
    const uint64_t r = sizeof(sk_real), p = SK_PACK_PARAM_REALS;
    const uint64_t packs = (32 * (72 + p) + 16 * (23 + p)) * r + 21 * marks + 1024 + (1024 + 10) + (1024 + 3) +
                           3 * 16 * (72 + p) * r;
    CHECK(sk_scenario_memory_estimate(&s) == packs + 13 * 6 * r + 2 * sizeof(size_t));
    sk_scenario_free(&s);

    /* Without "ropes" every rope is written: 20 * 10 + 3 particles. */
    const char *all = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": ["
                      "{\"count\": 20, \"particles\": 10, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                      " \"link\": {\"type\": \"rod\"}},"
                      "{\"count\": 1, \"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                      " \"link\": {\"type\": \"rod\"}}]}";
    CHECK_OK(load(all, &s, &err));
    CHECK(sk_scenario_memory_estimate(&s) == packs + 203 * 6 * r + 21 * sizeof(size_t));
    sk_scenario_free(&s);

    /* 2^53 ropes of INT_MAX particles saturates instead of wrapping. */
    sk_group g = {.count = (size_t)1 << 53, .particles = 2147483647};
    sk_scenario big = {.groups = &g, .n_groups = 1, .total_ropes = g.count};
    CHECK(sk_scenario_memory_estimate(&big) == UINT64_MAX);
    g.count = 1;
    g.particles = 1;
    big.total_ropes = 1;
    CHECK(sk_scenario_memory_estimate(&big) ==
          16 * (6 + p) * r + marks + 1024 + (1024 + 1) + 3 * 16 * (6 + p) * r + 6 * r + sizeof(size_t));
    return 0;
}

/* The estimate for n rod ropes of 100 particles, every one written: lanes of 702 reals and the parameters
 * (padded to 16), the marks, the frames up to the writers' 64 MiB and an index per rope, the batch's own
 * kilobyte, the group's and its pinned flags, three packs of scratch. */
static uint64_t rods_need(uint64_t n)
{
    const uint64_t r = sizeof(sk_real), lane = 702 + SK_PACK_PARAM_REALS, frames = n * 100 * 6 * r;
    return (n + 15) / 16 * 16 * lane * r + n * (marks + sizeof(size_t)) +
           (frames < ((uint64_t)64 << 20) ? frames : (uint64_t)64 << 20) + 1024 + (1024 + 100) + 3 * 16 * lane * r;
}

/* The most of those ropes that fit in `limit` bytes. */
static uint64_t rods_that_fit(uint64_t limit)
{
    uint64_t n = 0;
    while (rods_need(n + 1) <= limit)
        n++;
    return n;
}

static int memory_limit(void)
{
    const char *text = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": ["
                       "{\"count\": 1000000, \"particles\": 100, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
                       " \"link\": {\"type\": \"rod\"}}]}";
    const uint64_t need = rods_need(1000000);
    char expected[256];
    /* the limit 1 GB: the group, and how many of its ropes fit */
    snprintf(expected, sizeof expected,
             "t.json: groups[0].count: the batch needs %.1f GB, more than the 1.0 GB this machine allows; at most "
             "%llu of this group's 1000000 ropes fit", (double)need / 1e9, (unsigned long long)rods_that_fit(1000000000));
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "1000000000", 1) == 0);
    CHECK_OK(fails_with(text, expected));

    /* Exactly at the limit loads (without filling in anything per rope beyond the output list). */
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)need);
    CHECK(setenv("SKEIN_MEMORY_LIMIT", limit, 1) == 0);
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(text, &s, &err));
    CHECK(sk_scenario_memory_estimate(&s) == need);
    sk_scenario_free(&s);
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)(need - 1));
    CHECK(setenv("SKEIN_MEMORY_LIMIT", limit, 1) == 0);
    CHECK(load(text, &s, &err) == SK_ERR_INVALID);

    /* A billion ropes with a per-rope sweep is turned down before any per-rope work. */
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "1000000000", 1) == 0);
    CHECK(load("{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 1000000000,"
               " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
               " \"sweep\": {\"mass\": {\"from\": 1, \"to\": 2}}}]}",
               &s, &err) == SK_ERR_INVALID);
    CHECK(strstr(err.message, "t.json: groups[0].count: the batch needs ") == err.message);
    /* Small limits read in MB or bytes, not "0.0 GB". */
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "80000000", 1) == 0);
    snprintf(expected, sizeof expected,
             "t.json: groups[0].count: the batch needs %.1f GB, more than the 80.0 MB this machine allows; at most "
             "%llu of this group's 1000000 ropes fit", (double)need / 1e9,
             (unsigned long long)rods_that_fit(80000000));
    CHECK_OK(fails_with(text, expected));
    CHECK(unsetenv("SKEIN_MEMORY_LIMIT") == 0);
    CHECK_OK(load(minimal, &s, &err));
    const uint64_t small = sk_scenario_memory_estimate(&s);
    sk_scenario_free(&s);
    CHECK(small > 100 && small < 1000000);
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "100", 1) == 0);
    snprintf(expected, sizeof expected,
             "t.json: groups[1].count: the batch needs %llu bytes, more than the 100 bytes this machine allows; not one "
             "rope of this group fits",
             (unsigned long long)small);
    CHECK_OK(fails_with(minimal, expected));
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "lots", 1) == 0);
    CHECK_OK(fails_with(minimal, "t.json: groups: SKEIN_MEMORY_LIMIT=lots is not a number of bytes"));
    CHECK(unsetenv("SKEIN_MEMORY_LIMIT") == 0);
    return 0;
}

static int sweep_errors(void)
{
    const char *head = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 3, \"particles\": 2,"
                       " \"start\": [0, 0, 0], \"end\": [1, 0, 0],";
    struct {
        const char *rest, *message;
    } cases[] = {
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"link.stiffness\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.link.stiffness: a rod link has no stiffness"},
        {"\"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0, 0, 0],"
         " \"stiffness\": 1}, \"sweep\": {\"anchor.damping\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.anchor.damping: an anchored_bungee anchor has no damping"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"link.length\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.link.length: the group's link.length is \"auto\"; give it a number to sweep it"},
        {"\"link\": {\"type\": \"rod\", \"length\": 1}, \"sweep\": {\"start\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.start: name one component, e.g. start[0]"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"count\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.count: cannot be swept (not a real number)"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"mass\": {\"from\": 1}}}]}",
         "t.json: groups[0].sweep.mass.to: required"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"mass\": {\"from\": 1, \"to\": 2, \"values\": [1, 2, 3]}}}]}",
         "t.json: groups[0].sweep.mass: give one of: from and to, values, random"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"mass\": {}}}]}",
         "t.json: groups[0].sweep.mass: give one of: from and to, values, random"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"mass\": {\"values\": [1, \"2\", 3]}}}]}",
         "t.json: groups[0].sweep.mass.values[1]: must be a number"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"mass\": {\"random\": {\"min\": 1, \"max\": 2, \"seed\": -1}}}}]}",
         "t.json: groups[0].sweep.mass.random.seed: must be an integer >= 0"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"damping\": {\"values\": [1, 0.5, 1.5]}}}]}",
         "t.json: groups[0].sweep.damping: value 1.5 for rope 2 must be in (0, 1]"},
        {"\"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": 1},"
         " \"sweep\": {\"anchor.length\": {\"from\": 1, \"to\": 0}}}]}",
         "t.json: groups[0].sweep.anchor.length: value 0 for rope 2 must be > 0"},
        {"\"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0],"
         " \"stiffness\": 1}, \"sweep\": {\"anchor.length\": {\"from\": 1, \"to\": -0.5}}}]}",
         "t.json: groups[0].sweep.anchor.length: value -0.5 for rope 2 must be >= 0"},
        {"\"link\": {\"type\": \"rod\"}, \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": 1},"
         " \"sweep\": {\"anchor.motion.omega\": {\"from\": 1, \"to\": 0}}}]}",
         "t.json: groups[0].sweep.anchor.motion.omega: the group's anchor has no sine motion (anchor.motion.amplitude and omega)"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"deploy.velocity\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.deploy.velocity: the group does not deploy"},
        {"\"link\": {\"type\": \"rod\"}, \"sweep\": {\"drag.k1\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.drag.k1: the group has no drag"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", head, cases[i].rest);
        CHECK_OK(fails_with(text, cases[i].message));
    }
    return 0;
}

/* More rules than the corpus covers, each with its message. */
static int rules(void)
{
    const char *head = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 1, ";
    struct {
        const char *rest, *message;
    } cases[] = {
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"link\": {\"type\": \"rod\"}}]}",
         "t.json: groups[0].link: not allowed: a rope of one particle that does not deploy has no links"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"rod\","
         " \"length\": \"long\"}}]}",
         "t.json: groups[0].link.length: must be > 0, \"auto\", a list of numbers (one per link) or a linear profile {from, to}"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"rod\"},"
         " \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 0, 0], \"stiffness\": 1, \"length\": 1}}]}",
         "t.json: groups[0].anchor.length: not allowed for a fake_spring anchor"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"rod\"},"
         " \"anchor\": {\"type\": \"cable\", \"point\": [0, 0, 0]}}]}",
         "t.json: groups[0].anchor.length: required"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"rod\"},"
         " \"anchor\": {\"type\": \"rod\", \"point\": [0, 0, 0], \"length\": 1, \"motion\": {\"omega\": 1}}}]}",
         "t.json: groups[0].anchor.motion.amplitude: required"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
         " \"link\": {\"type\": \"spring\", \"stiffness\": 1},"
         " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 0, 0], \"stiffness\": 1},"
         " \"deploy\": {\"velocity\": 1}}]}",
         "t.json: groups[0].link.length: must be a number: \"auto\" (the default) needs deploy.initial_particles >= 2"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
         " \"link\": {\"type\": \"rod\"}, \"deploy\": {\"velocity\": 1, \"initial_particles\": 2}}]}",
         "t.json: groups[0].link.type: must be spring for a deploying group"},
        {"\"particles\": 3, \"start\": [0, 0, 0], \"end\": [1, 0, 0],"
         " \"link\": {\"type\": \"spring\", \"stiffness\": 1}, \"deploy\": {\"velocity\": 1, \"initial_particles\": 4}}]}",
         "t.json: groups[0].deploy.initial_particles: must be an integer in [1, 3]"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"buoyancy\": {\"volume\": 1}}]}",
         "t.json: groups[0].buoyancy.max_depth: required"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"drag\": {\"k1\": -1}}]}",
         "t.json: groups[0].drag.k1: must be >= 0"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"verlet_damping\": 1}]}",
         "t.json: groups[0].verlet_damping: must be in [0, 1)"},
        {"\"particles\": 0, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}]}",
         "t.json: groups[0].particles: must be an integer in [1, 2147483647]"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}], \"output\": {\"every\": 0}}",
         "t.json: output.every: must be an integer >= 1"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}], \"ground\": {\"restitution\": 2}}",
         "t.json: ground.restitution: must be in [0, 1]"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}], \"iterations\": -1}",
         "t.json: iterations: must be an integer in [0, 2147483647]"},
        {"\"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0]}], \"gravity_as\": 1}",
         "t.json: gravity_as: must be one of acceleration, force"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", head, cases[i].rest);
        CHECK_OK(fails_with(text, cases[i].message));
    }
    CHECK_OK(fails_with("{\"dt\": 1, \"steps\": 1, \"groups\": []}", "t.json: skein: required (the format version, 1)"));
    CHECK_OK(fails_with("{\"skein\": 1, \"dt\": 1, \"groups\": []}", "t.json: steps: required (or duration)"));
    CHECK_OK(fails_with("{\"skein\": 1, \"dt\": 1, \"steps\": 1}", "t.json: groups: required"));
    CHECK_OK(fails_with("{\"skein\": 1, \"dt\": 1, \"steps\": 1, \"groups\": [3]}", "t.json: groups[0]: must be an object"));
    return 0;
}

/* Numbers must fit the build's real type. */
static int real_range(void)
{
    const char *fmt = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 1,"
                      " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"mass\": %s}]}";
    char big[512], tiny[512];
    snprintf(big, sizeof big, fmt, "1e300");
    snprintf(tiny, sizeof tiny, fmt, "1e-300");
#ifdef SKEIN_REAL_FLOAT
    CHECK_OK(fails_with(big, "t.json: groups[0].mass: out of range for float"));
    CHECK_OK(fails_with(tiny, "t.json: groups[0].mass: out of range for float"));
#else
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(big, &s, &err));
    CHECK(s.groups[0].base.mass == 1e300);
    sk_scenario_free(&s);
    CHECK_OK(load(tiny, &s, &err));
    CHECK(s.groups[0].base.mass == 1e-300);
    sk_scenario_free(&s);
#endif
    /* Beyond double the parser itself refuses, with line and column (of the token's last character). */
    snprintf(big, sizeof big, fmt, "1e999");
    sk_scenario s2;
    sk_error err2;
    CHECK(load(big, &s2, &err2) == SK_ERR_INVALID);
    CHECK(strcmp(err2.message, "t.json:1:130: real number overflow near '1e999'") == 0);
    return 0;
}

/* A mass whose inverse overflows, and a time step whose 1/dt^2 overflows or vanishes, are refused
 * (the engines keep 1/m, Verlet divides by dt^2), given or swept; values just inside those limits load.
 * The limits are the real type's: about 1e-308 and 1e-154 in double, 3e-39 and 1e-19 in float. */
static int inverse_ranges(void)
{
    const char *fmt = "{\"skein\": 1, \"dt\": %s, \"steps\": 10, \"groups\": [{\"count\": 2,"
                      " \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0], \"mass\": %s%s}]}";
#ifdef SKEIN_REAL_FLOAT
    const char *mass_bad = "1e-39", *mass_ok = "1e-38", *dt_small = "1e-20", *dt_ok = "1e-18", *dt_big = "1e20";
#else
    const char *mass_bad = "1e-309", *mass_ok = "1e-308", *dt_small = "1e-160", *dt_ok = "1e-150", *dt_big = "1e160";
#endif
    char text[512], sweep[128];
    snprintf(text, sizeof text, fmt, "0.001", mass_bad, "");
    CHECK_OK(fails_with(text, "t.json: groups[0].mass: is too small: 1/mass overflows"));
    snprintf(text, sizeof text, fmt, "0.001", "0", "");
    CHECK_OK(fails_with(text, "t.json: groups[0].mass: must be > 0"));
    snprintf(text, sizeof text, fmt, dt_small, "1", "");
    CHECK_OK(fails_with(text, "t.json: dt: is too small or too large: 1/dt^2 must be finite and > 0"));
    snprintf(text, sizeof text, fmt, dt_big, "1", "");
    CHECK_OK(fails_with(text, "t.json: dt: is too small or too large: 1/dt^2 must be finite and > 0"));
    snprintf(text, sizeof text, fmt, "-1", "1", "");
    CHECK_OK(fails_with(text, "t.json: dt: must be > 0"));

    sk_scenario s;
    sk_error err;
    snprintf(text, sizeof text, fmt, dt_ok, mass_ok, "");
    CHECK_OK(load(text, &s, &err));
    sk_scenario_free(&s);

    /* a swept mass is checked rope by rope with the same rule */
    snprintf(sweep, sizeof sweep, ", \"sweep\": {\"mass\": {\"values\": [1, %s]}}", mass_bad);
    snprintf(text, sizeof text, fmt, "0.001", "1", sweep);
    CHECK(load(text, &s, &err) == SK_ERR_INVALID);
    CHECK(strstr(err.message, "t.json: groups[0].sweep.mass: value ") == err.message);
    CHECK(strstr(err.message, " for rope 1 is too small: 1/mass overflows") != NULL);
    return 0;
}

static int files(void)
{
    sk_scenario s;
    sk_error err = {0};
    CHECK(sk_scenario_load_file(SKEIN_SOURCE_DIR "/tests/bad/no-such-file.json", NULL, &s, &err) ==
          SK_ERR_IO);
    char expected[600];
    snprintf(expected, sizeof expected, "%s/tests/bad/no-such-file.json: %s", SKEIN_SOURCE_DIR, strerror(ENOENT));
    CHECK(strcmp(err.message, expected) == 0);
    CHECK(sk_scenario_load_file(SKEIN_SOURCE_DIR "/tests", NULL, &s, &err) == SK_ERR_IO);
    CHECK(strstr(err.message, strerror(EISDIR)) != NULL);
    CHECK(s.groups == NULL);

    /* Syntax errors give line and column in the name passed. */
    CHECK(sk_scenario_load_string("{\n  \"skein\": 1,\n  \"dt\" 1\n}", "mem.json", NULL, &s, &err) ==
          SK_ERR_INVALID);
    CHECK(strcmp(err.message, "mem.json:3:8: ':' expected near '1'") == 0);

    /* free: twice, and on a zeroed struct. */
    CHECK_OK(load(minimal, &s, &err));
    sk_scenario_free(&s);
    CHECK(s.groups == NULL && s.source == NULL && s.n_groups == 0 && s.output_ropes == NULL);
    sk_scenario_free(&s);
    sk_scenario zero;
    memset(&zero, 0, sizeof zero);
    sk_scenario_free(&zero);
    return 0;
}

/* Every tests/bad file fails with the message tests/bad/expected.tsv lists for it. */
static int bad_corpus(void)
{
    CHECK(chdir(SKEIN_SOURCE_DIR) == 0);
    CHECK(setenv("SKEIN_MEMORY_LIMIT", "1000000000", 1) == 0);
    FILE *f = fopen("tests/bad/expected.tsv", "r");
    CHECK(f != NULL);
    char line[1024], listed[256][64];
    int n = 0, failed = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *tab = strchr(line, '\t');
        CHECK(tab != NULL && n < 256);
        *tab = '\0';
        CHECK(snprintf(listed[n++], sizeof listed[0], "%s", line) < (int)sizeof listed[0]);
        char path[128];
        CHECK(snprintf(path, sizeof path, "tests/bad/%s", line) < (int)sizeof path);
        sk_scenario s;
        sk_error err = {0};
        int rc = sk_scenario_load_file(path, NULL, &s, &err);
        if (rc != SK_ERR_INVALID || strcmp(err.message, tab + 1) != 0) {
            fprintf(stderr, "%s: status %d\n  got      [%s]\n  expected [%s]\n", path, rc, err.message, tab + 1);
            failed++;
        }
    }
    fclose(f);
    CHECK(failed == 0);
    CHECK(n >= 20);
    /* ... and no file of the corpus goes unlisted. */
    DIR *d = opendir("tests/bad");
    CHECK(d != NULL);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        files++;
        bool found = false;
        for (int i = 0; i < n && !found; i++)
            found = strcmp(listed[i], e->d_name) == 0;
        if (!found)
            fprintf(stderr, "tests/bad/%s is not in expected.tsv\n", e->d_name);
        failed += !found;
    }
    closedir(d);
    CHECK(failed == 0 && files == n);
    return 0;
}

/* An unknown key close to a known one (a slip of one or two characters) is named with it; one far from
 * every key is only unknown. */
static int nearest_key(void)
{
    const char *head = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 2, \"particles\": 2,"
                       " \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 10}";
    struct {
        const char *rest, *message;
    } cases[] = {
        {", \"dampning\": 0.5}]}", "t.json: groups[0].dampning: unknown key; did you mean \"damping\"?"},
        {", \"mas\": 1}]}", "t.json: groups[0].mas: unknown key; did you mean \"mass\"?"},
        {", \"pnined\": [0]}]}", "t.json: groups[0].pnined: unknown key; did you mean \"pinned\"?"},
        {", \"colour\": 1}]}", "t.json: groups[0].colour: unknown key"},
        {", \"sweep\": {\"link.stifness\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.link.stifness: unknown key; did you mean \"link.stiffness\"?"},
        {", \"sweep\": {\"start[1]x\": {\"from\": 1, \"to\": 2}}}]}",
         "t.json: groups[0].sweep.start[1]x: unknown key; did you mean \"start[1]\"?"},
        {"}], \"intergrator\": \"verlet\"}", "t.json: intergrator: unknown key; did you mean \"integrator\"?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", head, cases[i].rest);
        CHECK_OK(fails_with(text, cases[i].message));
    }
    return 0;
}

/* A path whose neighbouring points or times lie too far apart for their difference (near the real type's
 * largest) is refused: its interpolation would make the anchor NaN. */
static int path_overflow(void)
{
#ifdef SKEIN_REAL_FLOAT
#define BIG "3e38"
#else
#define BIG "1e308"
#endif
#define PATH_SCENARIO(TIMES, POINTS)                                                                              \
    "{\"skein\": 1, \"dt\": 0.001, \"steps\": 1, \"groups\": [{\"count\": 1, \"particles\": 2, \"start\": [0, 0, 0],"    \
    " \"end\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 100}, \"anchor\": {\"type\": \"anchored_spring\","  \
    " \"point\": [0, 0, 0], \"stiffness\": 100, \"length\": 0.1, \"motion\": {\"path\": {\"times\": " TIMES ","            \
    " \"points\": " POINTS "}}}}]}"
    CHECK_OK(fails_with(PATH_SCENARIO("[0, 1]", "[[-" BIG ", 0, 0], [" BIG ", 0, 0]]"),
                        "t.json: groups[0].anchor.motion.path.points[1]: too far from the point before it (their "
                        "difference overflows)"));
    CHECK_OK(fails_with(PATH_SCENARIO("[-" BIG ", " BIG "]", "[[0, 0, 0], [1, 0, 0]]"),
                        "t.json: groups[0].anchor.motion.path.times[1]: too far from the time before it (their "
                        "difference overflows)"));
#undef PATH_SCENARIO
#undef BIG
    return 0;
}

/* Neighbouring speeds of a deployment table whose difference overflows (the interpolation scales it), and
 * times as a path's; in double and float. */
static int speed_overflow(void)
{
#ifdef SKEIN_REAL_FLOAT
#define BIG "3e38"
#else
#define BIG "1e308"
#endif
    CHECK_OK(fails_with(DEPLOY_TABLE("{\"times\": [0, 1], \"values\": [-" BIG ", " BIG "]}"),
                        "t.json: groups[0].deploy.velocity.values[1]: too far from the speed before it (their difference "
                        "overflows)"));
    CHECK_OK(fails_with(DEPLOY_TABLE("{\"times\": [-" BIG ", " BIG "], \"values\": [1, 2]}"),
                        "t.json: groups[0].deploy.velocity.times[1]: too far from the time before it (their difference "
                        "overflows)"));
#undef BIG
    /* a table of one row is a constant speed, of either sign */
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(DEPLOY_TABLE("{\"times\": [0], \"values\": [-2]}"), &s, &err));
    CHECK(s.groups[0].speed_count == 1 && s.groups[0].speed_values[0] == -2);
    sk_scenario_free(&s);
    return 0;
}

/* A UTF-8 byte order mark before the JSON (some editors write one) is skipped, in a file and in text. */
static int byte_order_mark(void)
{
    char text[512];
    snprintf(text, sizeof text, "\xEF\xBB\xBF%s", minimal);
    sk_scenario s;
    sk_error err;
    CHECK_OK(load(text, &s, &err));
    CHECK(s.total_ropes == 5);
    sk_scenario_free(&s);
    char path[] = "/tmp/skein-bom-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
    const int rc = sk_scenario_load_file(path, NULL, &s, &err);
    unlink(path);
    CHECK(rc == SK_OK && s.total_ropes == 5);
    sk_scenario_free(&s);
    /* a mark alone is no scenario, and a mark's first byte alone is a syntax error as before */
    CHECK(load("\xEF\xBB\xBF", &s, &err) == SK_ERR_INVALID && strstr(err.message, "t.json:") == err.message);
    CHECK(load("\xEF{}", &s, &err) == SK_ERR_INVALID);
    return 0;
}

/* Rest lengths whose square is not a normal number (or bending constants that overflow) are refused: the
 * strain and the divergence bound would overflow and every rope diverge at step 0. */
static int link_length_overflow(void)
{
    const char *head = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 10, \"groups\": [{\"count\": 2, \"particles\": 3,"
                       " \"start\": [0, 0, 0], \"end\": [2, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 5,"
                       " \"length\": %s}%s}]}";
    char text[512], want[256];
    snprintf(text, sizeof text, head, "1e-30", "");
    sk_scenario s;
    sk_error err;
    snprintf(want, sizeof want, "t.json: groups[0].link.length: " SK_REAL_FMT " m is too short for %s: the strain "
             "and the divergence bound would overflow", (sk_real)1e-30, SK_REAL_NAME);
    if (sizeof(sk_real) == sizeof(float)) { /* (1e-30)^2 is below float's normal numbers, not double's */
        CHECK(load(text, &s, &err) == SK_ERR_INVALID && strcmp(err.message, want) == 0);
    } else {
        CHECK_OK(load(text, &s, &err));
        sk_scenario_free(&s);
    }
    /* each within the real type's range, but its square or EI / L not */
    const bool dbl = sizeof(sk_real) == sizeof(double);
    snprintf(text, sizeof text, head, dbl ? "1e-320" : "1e-42", "");
    CHECK(load(text, &s, &err) == SK_ERR_INVALID && strstr(err.message, "groups[0].link.length") &&
          strstr(err.message, "too short") != NULL);
    snprintf(text, sizeof text, head, dbl ? "1e200" : "1e20", "");
    CHECK(load(text, &s, &err) == SK_ERR_INVALID && strstr(err.message, "too long") != NULL);
    snprintf(text, sizeof text, head, dbl ? "{\"from\": 1, \"to\": 1e-320}" : "{\"from\": 1, \"to\": 1e-42}", "");
    CHECK(load(text, &s, &err) == SK_ERR_INVALID && strstr(err.message, "(link 1 of rope 0)") != NULL);
    snprintf(text, sizeof text, head, "1e-15",
             dbl ? ", \"bending\": {\"stiffness\": 1e300}" : ", \"bending\": {\"stiffness\": 1e30}");
    CHECK(load(text, &s, &err) == SK_ERR_INVALID && strstr(err.message, "EI / L") != NULL);
    snprintf(text, sizeof text, head, "1e-15", "");
    CHECK(load(text, &s, &err) == SK_OK || sizeof(sk_real) == sizeof(float));
    sk_scenario_free(&s);
    return 0;
}

/* --set VALUE that opens an object, an array or a string but is no JSON says so; an integer beyond 64 bits
 * too (in a file, with its line and column); a number written as a real where an integer belongs says which. */
static int value_messages(void)
{
    sk_scenario s;
    sk_error err;
    const char *base = "{\"skein\": 1, \"dt\": 0.001, \"steps\": 100, \"groups\": [{\"count\": 2, \"particles\": 3,"
                       " \"start\": [0, 0, 0], \"end\": [2, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 5}}]}";
    const struct {
        const char *set, *message;
    } bad[] = {
        {"groups[0].sweep.link.stiffness={\"from\": 1",
         "override groups[0].sweep.link.stiffness={\"from\": 1: VALUE is not JSON (column 10: '}' expected near end of "
         "file)"},
        {"groups[0].sweep.link.stiffness={\"random\": {\"min\": 1, \"max\": 2, \"seed\": 9223372036854775808}}",
         "override groups[0].sweep.link.stiffness={\"random\": {\"min\": 1, \"max\": 2, \"seed\": 9223372036854775808}..."
         ": VALUE holds an integer beyond 2^63 - 1"},
        {"steps=9223372036854775808", "override steps=9223372036854775808: VALUE holds an integer beyond 2^63 - 1"},
        {"groups[0].count=1e30", "groups[0].count: must be an integer >= 1 (1e+30 is too large)"},
        {"groups[0].count=5.0", "groups[0].count: must be an integer >= 1 (5 is written as a real number)"},
        {"groups[0].count=2.5", "groups[0].count: must be an integer >= 1 (2.5 is not a whole number)"},
        {"groups[0].sweep.link.stiffness={\"random\": {\"min\": 1, \"max\": 2, \"seed\": 1e19}}",
         "groups[0].sweep.link.stiffness.random.seed: must be an integer >= 0 (1e+19 is too large)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *sets[1] = {bad[i].set};
        CHECK(load_sets(base, sets, 1, &s, &err) == SK_ERR_INVALID);
        if (strstr(err.message, bad[i].message) == NULL) {
            fprintf(stderr, "[%s]\nexpected to hold\n[%s]\n", err.message, bad[i].message);
            return 1;
        }
    }
    const char *word[1] = {"integrator=verlet"}; /* a bare word is still a string */
    CHECK_OK(load_sets(base, word, 1, &s, &err));
    sk_scenario_free(&s);
    CHECK(load("{\"skein\": 1,\n \"seed\": 9223372036854775808}", &s, &err) == SK_ERR_INVALID);
    CHECK(strcmp(err.message, "t.json:2:28: an integer beyond 2^63 - 1 (too big integer near '9223372036854775808')") ==
          0);
    return 0;
}

CHECK_MAIN({"byte_order_mark", byte_order_mark}, {"link_length_overflow", link_length_overflow},
           {"value_messages", value_messages}, {"path_overflow", path_overflow}, {"speed_overflow", speed_overflow}, {"defaults", defaults}, {"full_scenario", full_scenario}, {"sweep_linear", sweep_linear},
           {"sweep_values", sweep_values}, {"sweep_random", sweep_random}, {"sweeps_together", sweeps_together},
           {"auto_length", auto_length}, {"overrides", overrides}, {"normalized", normalized},
           {"memory_estimate", memory_estimate}, {"memory_limit", memory_limit}, {"sweep_errors", sweep_errors},
           {"rules", rules}, {"real_range", real_range},
           {"inverse_ranges", inverse_ranges}, {"files", files}, {"bad_corpus", bad_corpus},
           {"nearest_key", nearest_key})
