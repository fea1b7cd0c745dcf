/* The scenario builder: a scenario built in code by key paths is the scenario a file with the same keys
 * gives (the same normalised text, the same per-rope parameters), and its errors name the key paths. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/skein.h"

static int load_file(const char *name, sk_scenario *s)
{
    sk_error err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/scenarios/%s", SKEIN_SOURCE_DIR, name);
    if (sk_scenario_load_file(path, NULL, s, &err) != SK_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    return 0;
}

/* scenarios/w1_springs.json, key by key. */
static int same_as_file(void)
{
    sk_scenario_builder *b = sk_builder_create();
    CHECK(b);
    CHECK_OK(sk_builder_set_number(b, "dt", 1e-4));
    CHECK_OK(sk_builder_set_integer(b, "steps", 10000));
    CHECK_OK(sk_builder_set_string(b, "integrator", "symplectic"));
    CHECK_OK(sk_builder_set_vec3(b, "gravity", (sk_vec3){0, -9.81, 0}));
    CHECK_OK(sk_builder_set_integer(b, "groups[0].count", 4096));
    CHECK_OK(sk_builder_set_integer(b, "groups[0].particles", 64));
    CHECK_OK(sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 20, 0}));
    CHECK_OK(sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){6.3, 20, 0}));
    CHECK_OK(sk_builder_set_number(b, "groups[0].mass", 0.1));
    const long long pinned[] = {0};
    CHECK_OK(sk_builder_set_integers(b, "groups[0].pinned", pinned, 1));
    CHECK_OK(sk_builder_set_json(b, "groups[0].link", "{\"type\": \"spring\", \"stiffness\": 500}"));
    CHECK_OK(sk_builder_set_number(b, "groups[0].link.length", 0.1));
    CHECK_OK(sk_builder_set_integer(b, "output.every", 1000));
    const long long ropes[] = {0, 4095};
    CHECK_OK(sk_builder_set_integers(b, "output.ropes", ropes, 2));
    sk_scenario built, file;
    sk_error err = {0};
    CHECK(sk_builder_finish(b, "<built>", &built, &err) == SK_OK);
    CHECK_OK(load_file("w1_springs.json", &file));
    CHECK(strcmp(built.normalized_json, file.normalized_json) == 0);
    CHECK(strcmp(built.source, "<built>") == 0);
    CHECK(built.total_ropes == 4096 && built.groups[0].particles == 64 && built.n_output_ropes == 2);
    sk_scenario_free(&built);
    sk_scenario_free(&file);
    return 0;
}

/* A group with each kind of sweep: every rope's parameters are those the same sweeps written as JSON give. */
static int sweeps(void)
{
    sk_scenario_builder *b = sk_builder_create();
    CHECK(b);
    sk_builder_set_number(b, "dt", 1e-3);
    sk_builder_set_integer(b, "steps", 10);
    sk_builder_set_integer(b, "groups[0].count", 5);
    sk_builder_set_integer(b, "groups[0].particles", 3);
    sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 0, 0});
    sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){1, 0, 0});
    sk_builder_set_string(b, "groups[0].link.type", "spring");
    sk_builder_set_number(b, "groups[0].link.stiffness", 10);
    CHECK_OK(sk_builder_sweep_linear(b, 0, "link.stiffness", 100, 500));
    const double masses[] = {0.1, 0.2, 0.3, 0.4, 0.5};
    CHECK_OK(sk_builder_sweep_values(b, 0, "mass", masses, 5));
    CHECK_OK(sk_builder_sweep_random(b, 0, "start[1]", -1, 1, 42));
    char *json = sk_builder_json(b);
    CHECK(json && strstr(json, "\"sweep\""));
    free(json);
    sk_scenario built, written;
    sk_error err = {0};
    CHECK(sk_builder_finish(b, "<built>", &built, &err) == SK_OK);
    const char *text =
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 10, \"groups\": [{\"count\": 5, \"particles\": 3,"
        " \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 10},"
        " \"sweep\": {\"link.stiffness\": {\"from\": 100, \"to\": 500}, \"mass\": {\"values\": [0.1, 0.2, 0.3, 0.4, 0.5]},"
        " \"start[1]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 42}}}}]}";
    CHECK(sk_scenario_load_string(text, "<written>", NULL, &written, &err) == SK_OK);
    for (size_t r = 0; r < 5; r++) {
        sk_rope_params a, w;
        sk_group_rope_params(&built.groups[0], r, &a);
        sk_group_rope_params(&written.groups[0], r, &w);
        CHECK(memcmp(&a, &w, sizeof a) == 0);
        CHECK_NEAR(a.link_stiffness, 100 + 100 * (double)r, 1e-9);
        CHECK_SAME_BITS(a.mass, (sk_real)masses[r]);
        CHECK(a.start.y >= -1 && a.start.y <= 1);
    }
    sk_scenario_free(&built);
    sk_scenario_free(&written);
    return 0;
}

/* A setter's failure is kept and returned by every later call and by finish, which frees the builder. */
static int path_errors(void)
{
    struct {
        const char *path, *message;
    } cases[] = {
        {"groups[x].count", "builder groups[x].count: malformed path"},
        {"dt.x", "builder dt.x: dt is not an object"},
        {"groups[2].count", "builder groups[2].count: index 2 out of range (groups has 1 element)"},
        {"", "builder: an empty key path"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sk_scenario_builder *b = sk_builder_create();
        CHECK(b);
        CHECK_OK(sk_builder_set_number(b, "dt", 1e-3));
        CHECK_OK(sk_builder_set_integer(b, "groups[0].count", 1));
        CHECK(sk_builder_set_integer(b, cases[i].path, 3) == SK_ERR_INVALID);
        CHECK(sk_builder_set_integer(b, "steps", 3) == SK_ERR_INVALID); /* the first failure sticks */
        sk_scenario s;
        sk_error err = {0};
        CHECK(sk_builder_finish(b, "<built>", &s, &err) == SK_ERR_INVALID);
        if (strcmp(err.message, cases[i].message) != 0) {
            fprintf(stderr, "%s: [%s]\n", cases[i].path, err.message);
            return 1;
        }
        CHECK(s.groups == NULL);
    }
    sk_scenario_builder *b = sk_builder_create();
    CHECK(sk_builder_set_number(b, "dt", 0.0 / 0.0) == SK_ERR_INVALID);
    sk_builder_destroy(b);
    b = sk_builder_create();
    CHECK(sk_builder_set_json(b, "groups", "[1, ") == SK_ERR_INVALID);
    sk_builder_destroy(b);
    sk_builder_destroy(NULL);
    return 0;
}

/* What the builder sets is validated as a file is: the message names the key path. */
static int validation_errors(void)
{
    sk_scenario_builder *b = sk_builder_create();
    sk_builder_set_number(b, "dt", 1e-3);
    sk_builder_set_integer(b, "steps", 10);
    sk_builder_set_integer(b, "groups[0].count", 2);
    sk_builder_set_integer(b, "groups[0].particles", 1);
    sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 0, 0});
    sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){0, 0, 0});
    sk_builder_set_number(b, "groups[0].mass", -1);
    sk_scenario s;
    sk_error err = {0};
    CHECK(sk_builder_finish(b, "my study", &s, &err) == SK_ERR_INVALID);
    if (strcmp(err.message, "my study: groups[0].mass: must be > 0") != 0) {
        fprintf(stderr, "[%s]\n", err.message);
        return 1;
    }

    b = sk_builder_create();
    sk_builder_set_number(b, "dt", 1e-3);
    sk_builder_set_integer(b, "steps", 10);
    sk_builder_set_integer(b, "groups[0].count", 2);
    sk_builder_set_integer(b, "groups[0].particles", 1);
    sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 0, 0});
    sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){0, 0, 0});
    const double one[] = {0.5};
    CHECK_OK(sk_builder_sweep_values(b, 0, "mass", one, 1));
    CHECK(sk_builder_finish(b, "my study", &s, &err) == SK_ERR_INVALID);
    CHECK(strstr(err.message, "my study: groups[0].sweep.mass") == err.message);
    return 0;
}

CHECK_MAIN({"same_as_file", same_as_file}, {"sweeps", sweeps}, {"path_errors", path_errors},
           {"validation_errors", validation_errors})
