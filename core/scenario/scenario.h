/* The scenario inside the library: its structs (scenario/scenario_types.h), loading into a caller's
 * sk_scenario, and the queries the engines, the writers and the skein program make of its groups. Internal:
 * programs use skein/scenario.h; the tests and the programs docs/architecture.md lists may include it. */
#ifndef SKEIN_SCENARIO_SCENARIO_H
#define SKEIN_SCENARIO_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario_types.h"
#include "skein/scenario.h"
#include "skein/types.h"

/* Parses and validates a scenario file into *out. On error fills err (SK_ERR_INVALID for bad input, naming
 * the file, the key path and for a syntax error the line and column; SK_ERR_IO for an unreadable file;
 * SK_ERR_NO_MEMORY) and leaves *out empty. opt may be NULL. */
sk_status sk_scenario_load_file(const char *path, const sk_load_options *opt, sk_scenario *out, sk_error *err);

/* The same from text in memory; name stands for the file in messages. */
sk_status sk_scenario_load_string(const char *text, const char *name, const sk_load_options *opt,
                                  sk_scenario *out, sk_error *err);

/* The built-in default batch (2048 hanging ropes of 32 particles, a stiffness sweep from 100 to 2000 N/m,
 * one simulated second): what `skein` runs with no arguments. Its name in messages is
 * SK_DEFAULT_SCENARIO_NAME (skein/scenario.h), its text sk_default_scenario_json. */
extern const char sk_default_scenario_json[];
sk_status sk_scenario_load_default(const sk_load_options *opt, sk_scenario *out, sk_error *err);

/* Frees what a scenario filled in by the functions here holds (not s itself), leaving it empty. */
void sk_scenario_free(sk_scenario *s);

/* The parameters of rope r (0-based within the group): the base values with every sweep applied. */
void sk_group_rope_params(const sk_group *g, size_t r, sk_rope_params *out);

/* The ropes first .. first + count - 1 of a validated scenario as a scenario of their own, for one process of a
 * run split across several: each rope keeps its parameters (a sweep gives it its value at its index in the
 * whole group), so it computes the same bits; the groups are those that hold some of the ropes, in order, with
 * first_rope counted from `first`; output.ropes are those among them, less `first`. source and normalized_json
 * are the whole scenario's. count >= 1 and first + count <= total_ropes. The slice's memory estimate must fit
 * this machine (as a loaded scenario's: SKEIN_MEMORY_LIMIT or 90% of its memory), else SK_ERR_INVALID naming
 * the ropes; SK_ERR_NO_MEMORY. err is filled and *out left empty on failure. */
sk_status sk_scenario_slice(const sk_scenario *s, size_t first, size_t count, sk_scenario *out, sk_error *err);

/* Particle count of one rope when it starts (deploying ropes start with deploy_initial). */
int sk_group_initial_particles(const sk_group *g);

/* The segments of a line given by EA (line.segments): particles - 1, or for a deploying line, whose last
 * segment is the anchored one, particles (the capacity; docs/model.md section 7.1). */
int sk_group_line_segments(const sk_group *g);

/* Whether the group's ropes have contacts (docs/model.md section 4): rods, cables, a rod or cable anchor, or
 * the scenario's ground. */
bool sk_group_has_contacts(const sk_scenario *s, const sk_group *g);

/* Whether the ropes' state is more than their particles now: BDF2 (implicit.scheme) steps from the step before
 * too, which checkpoints do not keep. */
bool sk_scenario_keeps_previous_step(const sk_scenario *s);

/* The largest time step (s) at which the scenario's integrator steps group `group`'s ropes stably, for the parts
 * it integrates explicitly (docs/model.md section 2.2): 2 / omega_max, omega_max bounded above by Gershgorin's
 * theorem on the mass-scaled stiffness of each rope (springs and bungees, the anchored spring or bungee,
 * bending), the smallest over the group's ropes. For the implicit integrator bending's alone. INFINITY where
 * nothing sets a limit (rods, cables, a fake spring, no links); 0 where a rope's figures overflow. */
double sk_group_stable_dt(const sk_scenario *s, int group);

/* Validates what the builder set into *out (as sk_scenario_load_string would) and frees b. On error *out is
 * left empty. */
sk_status sk_builder_finish(sk_scenario_builder *b, const char *name, sk_scenario *out, sk_error *err);

#endif
