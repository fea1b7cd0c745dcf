/* skein: large batches of ropes (particle chains joined by springs, bungees, rods or cables; pinned,
 * anchored, driven, deploying; on the ground) simulated on the CPU, a rope per SIMD lane.
 *
 * The one header a program includes. A run in five calls:
 *
 *     sk_error err;
 *     sk_scenario *s = sk_scenario_open("ropes.json", NULL, &err);
 *     if (!s) { puts(err.message); ... }
 *     sk_engine *e = sk_engine_create(s, NULL, &err);         // the batch engine, widest ISA, every core
 *     sk_engine_advance(e, sk_scenario_steps(s));
 *     sk_engine_read_rope(e, 0, positions, velocities);      // rope 0's particles
 *     sk_engine_destroy(e); sk_scenario_destroy(s);
 *
 * What each part covers:
 *   skein/types.h       sk_real (double, or float in a float build), sk_vec3, sk_status, sk_error
 *   skein/scenario.h    scenarios: loading (file, text, the default batch), building in code, sweeps
 *   skein/engine.h      engines: stepping, divergence checks, reading ropes and their diagnostics
 *   skein/output.h      the run driver and frame sinks, CSV, results, HDF5 and VTK writers, frames into
 *                       arrays, warm starts
 * The model the engines compute is docs/model.md; the scenario format docs/scenario-format.md. */
#ifndef SKEIN_SKEIN_H
#define SKEIN_SKEIN_H

/* The version of the headers; sk_version() gives the library's. CMake's project() reads these lines. */
#define SKEIN_VERSION_MAJOR 0
#define SKEIN_VERSION_MINOR 2
#define SKEIN_VERSION_PATCH 0
#define SKEIN_VERSION_STRING "0.2.0"

#include "skein/engine.h"
#include "skein/output.h"
#include "skein/scenario.h"
#include "skein/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, "MAJOR.MINOR.PATCH". */
SK_API const char *sk_version(void);

#ifdef __cplusplus
}
#endif

#endif
