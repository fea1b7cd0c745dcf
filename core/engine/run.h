/* The run driver's helpers the skein program shares with it: where the next frame falls, and a monotonic
 * clock. Internal (docs/architecture.md lists the programs that include it). */
#ifndef SKEIN_ENGINE_RUN_H
#define SKEIN_ENGINE_RUN_H

#include "skein/output.h"

/* The frame after `step`: the next multiple of every, or `steps` when that comes first. */
long sk_run_next_frame(long step, long every, long steps);

/* Seconds on a monotonic clock. */
double sk_seconds(void);

#endif
