/* libFuzzer target of the scenario loader: any bytes load or fail with a message; no crash, leak or hang. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "skein/scenario.h"

/* Input: the scenario text, then up to SK_FUZZ_MAX_SETS "PATH=VALUE" overrides, each after a NUL byte (JSON
 * text never holds one, so a seed file is a scenario with no overrides). */
#define SK_FUZZ_MAX_SETS 8

/* The memory check's limit, fixed so that a verdict is the same on every machine. It bounds the rope count,
 * and so the per-rope validation time: 100 MB keeps the slowest input (every key swept, ~80k ropes) well
 * under a second with the sanitizers. */
#define SK_FUZZ_MEMORY_LIMIT "100000000"

/* A broken invariant: abort, which libFuzzer reports as a crash and saves the input. */
#define SK_FUZZ_ASSERT(cond)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            fprintf(stderr, "fuzz_scenario: %s:%d: %s\n", __FILE__, __LINE__, #cond);           \
            abort();                                                                            \
        }                                                                                       \
    } while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("SKEIN_MEMORY_LIMIT", SK_FUZZ_MEMORY_LIMIT, 1);
    return 0;
}

static bool in_unit(sk_real x) { return x >= 0 && x <= 1; }

/* What the loader promises of the parameters of any rope it accepted. */
static void check_rope(const sk_group *g, const sk_rope_params *p)
{
    SK_FUZZ_ASSERT(isfinite(p->mass) && p->mass > 0);
    SK_FUZZ_ASSERT(p->damping > 0 && p->damping <= 1);
    SK_FUZZ_ASSERT(p->verlet_damping >= 0 && p->verlet_damping < 1);
    SK_FUZZ_ASSERT(isfinite(p->start.x) && isfinite(p->start.y) && isfinite(p->start.z));
    SK_FUZZ_ASSERT(isfinite(p->end.x) && isfinite(p->end.y) && isfinite(p->end.z));
    if (g->link != SK_LINK_NONE)
        SK_FUZZ_ASSERT(isfinite(p->link_length) && p->link_length > 0);
    if (g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE)
        SK_FUZZ_ASSERT(isfinite(p->link_stiffness) && p->link_stiffness > 0);
    if (g->link == SK_LINK_CABLE)
        SK_FUZZ_ASSERT(in_unit(p->link_restitution));
    if (g->has_link_damping) {
        SK_FUZZ_ASSERT(g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE);
        SK_FUZZ_ASSERT(isfinite(p->link_damping) && p->link_damping >= 0);
        SK_FUZZ_ASSERT(isfinite(p->link_damping_ratio) && p->link_damping_ratio >= 0);
    }
    if (g->anchor == SK_ANCHOR_ROD || g->anchor == SK_ANCHOR_CABLE)
        SK_FUZZ_ASSERT(isfinite(p->anchor_length) && p->anchor_length > 0);
    else if (g->anchor != SK_ANCHOR_NONE)
        SK_FUZZ_ASSERT(isfinite(p->anchor_length) && p->anchor_length >= 0);
    if (g->anchor == SK_ANCHOR_SPRING || g->anchor == SK_ANCHOR_BUNGEE || g->anchor == SK_ANCHOR_FAKE_SPRING)
        SK_FUZZ_ASSERT(isfinite(p->anchor_stiffness) && p->anchor_stiffness > 0);
    if (g->anchor == SK_ANCHOR_CABLE)
        SK_FUZZ_ASSERT(in_unit(p->anchor_restitution));
    if (g->has_drag)
        SK_FUZZ_ASSERT(p->drag_k1 >= 0 && p->drag_k2 >= 0 && isfinite(p->drag_k1) && isfinite(p->drag_k2));
    if (g->has_buoyancy)
        SK_FUZZ_ASSERT(p->buoyancy_max_depth > 0 && p->buoyancy_density >= 0 && p->buoyancy_volume >= 0);
    if (g->deploys && g->speed_count == 0)
        SK_FUZZ_ASSERT(isfinite(p->deploy_velocity) && p->deploy_velocity > 0);
    if (g->deploy_has_max_length)
        SK_FUZZ_ASSERT(isfinite(p->deploy_max_length) && p->deploy_max_length > 0);
}

static void check_group(const sk_scenario *s, int gi, size_t first)
{
    const sk_group *g = &s->groups[gi];
    SK_FUZZ_ASSERT(g->count >= 1 && g->first_rope == first);
    SK_FUZZ_ASSERT(g->particles >= 1);
    SK_FUZZ_ASSERT(!g->deploys || (g->deploy_initial >= 1 && g->deploy_initial <= g->particles));
    SK_FUZZ_ASSERT((g->link == SK_LINK_NONE) == (g->particles == 1 && !g->deploys));
    SK_FUZZ_ASSERT(g->n_pinned >= 0 && g->n_pinned <= g->particles);
    for (int i = 0; i < g->n_pinned; i++)
        SK_FUZZ_ASSERT(g->pinned[i] >= 0 && g->pinned[i] < g->particles &&
                       (i == 0 || g->pinned[i - 1] < g->pinned[i]));
    /* a speed table: deploying groups only, times strictly increasing, neighbours' differences finite */
    SK_FUZZ_ASSERT(g->speed_count >= 0 && (g->speed_count == 0 || g->deploys));
    for (int i = 0; i < g->speed_count; i++)
        SK_FUZZ_ASSERT(isfinite(g->speed_times[i]) && isfinite(g->speed_values[i]) &&
                       (i == 0 || (g->speed_times[i - 1] < g->speed_times[i] &&
                                   isfinite(g->speed_times[i] - g->speed_times[i - 1]) &&
                                   isfinite(g->speed_values[i] - g->speed_values[i - 1]))));
    /* A few ropes of the group: the ends, the second and the middle. */
    size_t ropes[4] = {0, 1, g->count / 2, g->count - 1};
    for (int k = 0; k < 4; k++) {
        if (ropes[k] >= g->count)
            continue;
        sk_rope_params p;
        sk_group_rope_params(g, ropes[k], &p);
        check_rope(g, &p);
        size_t local = SIZE_MAX;
        SK_FUZZ_ASSERT(sk_scenario_find_rope(s, first + ropes[k], &local) == gi && local == ropes[k]);
    }
}

/* What the loader promises of any scenario it accepted. */
static void check_scenario(const sk_scenario *s)
{
    SK_FUZZ_ASSERT(s->source && s->normalized_json);
    SK_FUZZ_ASSERT(isfinite(s->dt) && s->dt > 0 && s->steps >= 0 && s->output_every >= 1);
    SK_FUZZ_ASSERT(s->n_groups >= 1 && s->groups);
    SK_FUZZ_ASSERT(s->iterations >= 0);
    size_t total = 0;
    for (int i = 0; i < s->n_groups; i++) {
        check_group(s, i, total);
        total += s->groups[i].count;
    }
    SK_FUZZ_ASSERT(total == s->total_ropes);
    SK_FUZZ_ASSERT(sk_scenario_find_rope(s, total, NULL) == -1);
    SK_FUZZ_ASSERT(s->n_output_ropes <= total && (s->output_ropes || s->n_output_ropes == 0));
    for (size_t i = 0; i < s->n_output_ropes; i++)
        SK_FUZZ_ASSERT(s->output_ropes[i] < total && (i == 0 || s->output_ropes[i - 1] < s->output_ropes[i]));
    SK_FUZZ_ASSERT(sk_scenario_memory_estimate(s) <= strtoull(SK_FUZZ_MEMORY_LIMIT, NULL, 10));
}

/* The normalised text is itself a valid scenario that normalises to the same text (skein validate's
 * output can be run as it is). */
static void check_normalized(const sk_scenario *s)
{
    sk_scenario again;
    sk_error err = {0};
    int rc = sk_scenario_load_string(s->normalized_json, "normalized", NULL, &again, &err);
    if (rc)
        fprintf(stderr, "fuzz_scenario: the normalised scenario fails: %s\n%s\n", err.message,
                s->normalized_json);
    SK_FUZZ_ASSERT(rc == 0);
    SK_FUZZ_ASSERT(strcmp(again.normalized_json, s->normalized_json) == 0);
    sk_scenario_free(&again);
}

static void load(const char *text, const sk_load_options *opt)
{
    sk_scenario s;
    sk_error err = {0};
    int rc = sk_scenario_load_string(text, "fuzz.json", opt, &s, &err);
    if (rc == 0) {
        SK_FUZZ_ASSERT(err.status == 0);
        check_scenario(&s);
        check_normalized(&s);
    } else {
        /* Bad input is SK_ERR_INVALID; out of memory, which the fuzzer's inputs never reach, another status. */
        SK_FUZZ_ASSERT(rc == SK_ERR_INVALID && err.status == SK_ERR_INVALID && err.message[0] != '\0');
        /* One line a terminal prints as it is (errors are one line). */
        for (const char *p = err.message; *p; p++)
            SK_FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f);
        SK_FUZZ_ASSERT(!s.groups && !s.output_ropes && !s.normalized_json && !s.source);
    }
    sk_scenario_free(&s);
    /* Freeing twice is harmless: free leaves the scenario empty. */
    sk_scenario_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy with a terminating NUL, so that reading past the input's end is a fault ASan sees. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *sets[SK_FUZZ_MAX_SETS];
    int n_sets = 0;
    for (size_t i = strlen(text); i < size && n_sets < SK_FUZZ_MAX_SETS; i += strlen(text + i)) {
        i++; /* past the NUL */
        sets[n_sets++] = text + i;
    }
    load(text, NULL);
    if (n_sets > 0) {
        sk_load_options opt = {.sets = sets, .n_sets = n_sets};
        load(text, &opt);
    }
    free(text);
    return 0;
}
