/* The built-in default batch: what `skein` runs with no arguments. */
#ifndef SKEIN_DEFAULT_SCENARIO_H
#define SKEIN_DEFAULT_SCENARIO_H

#include "skein/error.h"
#include "skein/scenario.h"

/* Its name in messages and summaries. */
#define SK_DEFAULT_SCENARIO_NAME "<default>"

/* The scenario as JSON text. */
extern const char sk_default_scenario_json[];

/* Loads it (with the command line's --set overrides, opt may be NULL). */
int sk_default_scenario_load(const sk_load_options *opt, sk_scenario *out, sk_error *err);

#endif
