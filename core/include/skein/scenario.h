/* Scenarios: what a batch of ropes is (docs/scenario-format.md gives every key, docs/model.md the physics),
 * loaded from a JSON file or text, or built in code with key paths, validated, every default filled in.
 * A loaded sk_scenario is read-only: engines and writers keep pointers into it. */
#ifndef SKEIN_SCENARIO_H
#define SKEIN_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overrides applied to the JSON before validation: "PATH=VALUE" with PATH a key path ("dt",
 * "groups[0].link.stiffness", "groups[1].start[2]", "groups[0].sweep.mass") and VALUE parsed as JSON (a bare
 * word that is not JSON is taken as a string). Messages about one name it after `label` ("override" when
 * NULL): a command line passes its flag, "--set". */
typedef struct sk_load_options {
    const char *const *sets;
    int n_sets;
    const char *label;
    /* A run split across this many processes (0 or 1: one): the memory check asks that an even share of the
     * batch fits this machine; each process checks its own share once split (sk_scenario_slice_new). */
    int processes;
    /* The caller chooses the ropes written itself (skein run --ropes, or a checkpoint's list): output.ropes,
     * which it replaces, is not checked against the batch's ropes, so a list that no longer fits (a smaller
     * count set) is no error; output_ropes may then hold indices past the last rope. */
    bool output_ropes_replaced;
} sk_load_options;

/* A validated scenario, every default filled in: opaque, read through the functions below. Read-only once
 * loaded: engines and writers keep pointers into it, so it must outlive them. */
typedef struct sk_scenario sk_scenario;

/* Parses and validates a scenario file. NULL with err filled (SK_ERR_INVALID for bad input, naming the file,
 * the key path and for a syntax error the line and column; SK_ERR_IO for an unreadable file;
 * SK_ERR_NO_MEMORY). opt may be NULL. */
SK_API sk_scenario *sk_scenario_open(const char *path, const sk_load_options *opt, sk_error *err);

/* The same from text in memory; name stands for the file in messages. */
SK_API sk_scenario *sk_scenario_parse(const char *text, const char *name, const sk_load_options *opt, sk_error *err);

/* The name in messages of the built-in default batch, what `skein` runs with no arguments. */
#define SK_DEFAULT_SCENARIO_NAME "<default>"

/* Frees a scenario from either of the above (or sk_scenario_slice_new, sk_builder_build). NULL is allowed. */
SK_API void sk_scenario_destroy(sk_scenario *s);

/* ---- what a scenario holds ------------------------------------------------------------------------------ */

/* The file it was loaded from as named in messages (SK_DEFAULT_SCENARIO_NAME for the built-in batch), and the
 * scenario as JSON text with every default filled in (what `skein validate` prints). Both live as long as s. */
SK_API const char *sk_scenario_source(const sk_scenario *s);
SK_API const char *sk_scenario_json(const sk_scenario *s);

/* The HDF5 output a warm start reads ("initial": {"from": ...}, the path relative to the scenario file's
 * folder), or NULL where the ropes start from their groups' shapes. Lives as long as s. */
SK_API const char *sk_scenario_initial_file(const sk_scenario *s);

/* The time step (s), the steps of a run and the steps between output frames (output.every; the steps when
 * absent). */
SK_API double sk_scenario_dt(const sk_scenario *s);
SK_API long sk_scenario_steps(const sk_scenario *s);
SK_API long sk_scenario_every(const sk_scenario *s);

/* Ropes in the batch, over every group (a rope's global index runs from 0 to this less 1). */
SK_API size_t sk_scenario_ropes(const sk_scenario *s);

/* The ropes output.ropes selects (global indices, sorted, unique; every rope when absent): *n gets how many.
 * Lives as long as s. */
SK_API const size_t *sk_scenario_output_ropes(const sk_scenario *s, size_t *n);

/* Groups, and one group's shape: its ropes, the global index of its rope 0, its particles (the capacity:
 * the count when it does not deploy) and the keys it sweeps. */
typedef struct sk_group_info {
    size_t count;
    size_t first_rope;
    int particles;
    int sweeps;
} sk_group_info;
SK_API int sk_scenario_groups(const sk_scenario *s);
/* False, leaving out alone, for a group out of range. */
SK_API bool sk_scenario_group(const sk_scenario *s, int group, sk_group_info *out);

/* The key of a group's sweep k (0 .. sweeps - 1) as written ("link.stiffness", "anchor.point[1]"); NULL out
 * of range. Lives as long as s. */
SK_API const char *sk_scenario_sweep_key(const sk_scenario *s, int group, int k);

/* The value of a rope's numeric parameter, by its sweep key ("link.stiffness", "anchor.point[1]",
 * docs/scenario-format.md): the group's value with its sweeps applied for that rope (global index). SK_OK,
 * or SK_ERR_INVALID with err filled for a rope out of range or a key that is not a sweepable parameter. */
SK_API sk_status sk_scenario_param(const sk_scenario *s, size_t rope, const char *key, double *value,
                                   sk_error *err);

/* The group of a global rope index; *local (may be NULL) gets the index within it. -1 when rope is not below
 * sk_scenario_ropes. */
SK_API int sk_scenario_find_rope(const sk_scenario *s, size_t rope, size_t *local);

/* SI units of a sweep key as written ("link.stiffness": "N/m", "anchor.point[1]": "m", "1" for a pure
 * number); NULL for a key that is not a sweepable parameter. */
SK_API const char *sk_param_units(const char *key);

/* Bytes the batch engine needs for this scenario (estimated before anything is allocated; loading refuses a
 * scenario whose estimate exceeds 90% of the machine's memory, or SKEIN_MEMORY_LIMIT bytes when that
 * environment variable is set); saturates at UINT64_MAX. */
SK_API uint64_t sk_scenario_memory_estimate(const sk_scenario *s);

/* The ropes first .. first + count - 1 as a scenario of their own (a few ropes of a large batch shown or run
 * alone; one process's share of a run split across several): each rope keeps its parameters (a sweep gives
 * it its value at its index in the whole group), so an engine steps it to the same bits; output.ropes are
 * those among them, less `first`; the source and the JSON text are the whole scenario's. count >= 1 and
 * first + count <= sk_scenario_ropes. NULL with err filled: SK_ERR_INVALID naming the ropes where the slice's
 * memory estimate does not fit this machine (as a loaded scenario's), SK_ERR_NO_MEMORY. */
SK_API sk_scenario *sk_scenario_slice_new(const sk_scenario *s, size_t first, size_t count, sk_error *err);

/* ---- building a scenario in code ---------------------------------------------------------------------- */

/* A scenario built in code by key paths, as a scenario file would write them:
 *
 *     sk_scenario_builder *b = sk_builder_create();
 *     sk_builder_set_number(b, "dt", 1e-4);
 *     sk_builder_set_integer(b, "steps", 20000);
 *     sk_builder_set_integer(b, "groups[0].count", 1024);
 *     sk_builder_set_integer(b, "groups[0].particles", 64);
 *     sk_builder_set_vec3(b, "groups[0].start", (sk_vec3){0, 20, 0});
 *     sk_builder_set_vec3(b, "groups[0].end", (sk_vec3){6.3, 20, 0});
 *     sk_builder_set_string(b, "groups[0].link.type", "spring");
 *     sk_builder_set_number(b, "groups[0].link.stiffness", 500);
 *     sk_builder_sweep_linear(b, 0, "link.stiffness", 100, 1000);
 *     sk_scenario *s = sk_builder_build(b, "my sweep", &err);  // validates; frees b
 *
 * Paths create the objects they pass through; an index one past the end of an array appends to it. A
 * setter's own failure (a malformed path, a path through a number) is kept and returned by
 * sk_builder_build, which validates the whole scenario exactly as a file is validated: the messages
 * name the key paths. Every setter returns SK_OK or the builder's first error. */
typedef struct sk_scenario_builder sk_scenario_builder;

/* NULL when out of memory. */
SK_API sk_scenario_builder *sk_builder_create(void);
SK_API sk_status sk_builder_set_number(sk_scenario_builder *b, const char *path, double value);
SK_API sk_status sk_builder_set_integer(sk_scenario_builder *b, const char *path, long long value);
SK_API sk_status sk_builder_set_string(sk_scenario_builder *b, const char *path, const char *value);
SK_API sk_status sk_builder_set_bool(sk_scenario_builder *b, const char *path, bool value);
SK_API sk_status sk_builder_set_vec3(sk_scenario_builder *b, const char *path, sk_vec3 value);
/* An array of integers (e.g. "groups[0].pinned", "output.ropes"). */
SK_API sk_status sk_builder_set_integers(sk_scenario_builder *b, const char *path, const long long *values, size_t n);
/* Any value as JSON text ("{\"type\": \"rod\"}", "[0, 1]"). */
SK_API sk_status sk_builder_set_json(sk_scenario_builder *b, const char *path, const char *json);
/* Sweeps of group `group`'s parameter `key` ("link.stiffness", "anchor.point[1]"): linear from `from` to
 * `to` across the group's ropes, one value per rope (n must be the group's count), or uniform at random in
 * [min, max] from SplitMix64 seeded with seed. */
SK_API sk_status sk_builder_sweep_linear(sk_scenario_builder *b, int group, const char *key, double from, double to);
SK_API sk_status sk_builder_sweep_values(sk_scenario_builder *b, int group, const char *key, const double *values,
                                         size_t n);
SK_API sk_status sk_builder_sweep_random(sk_scenario_builder *b, int group, const char *key, double min, double max,
                                         uint64_t seed);
/* The scenario as JSON text so far (malloc'd; NULL when out of memory): what sk_builder_build validates. */
SK_API char *sk_builder_json(const sk_scenario_builder *b);
/* Validates what was set (as sk_scenario_parse would, `name` standing for the file in messages) into a
 * scenario, and frees b. NULL with err filled on error (the builder's first error, or validation's). */
SK_API sk_scenario *sk_builder_build(sk_scenario_builder *b, const char *name, sk_error *err);
/* Frees a builder that is not finished. NULL is allowed. */
SK_API void sk_builder_destroy(sk_scenario_builder *b);

#ifdef __cplusplus
}
#endif

#endif
