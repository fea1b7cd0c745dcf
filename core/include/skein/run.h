/* The frame-by-frame driver: advances an engine and hands each output frame to the writers. */
#ifndef SKEIN_RUN_H
#define SKEIN_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "skein/engine.h"
#include "skein/error.h"

/* A consumer of output frames (the CSV and HDF5 writers). Called after the frame's divergence check, so
 * a diverged rope reads as its last finite state. Returns 0 or an SK_EXIT_* status with err filled. */
typedef struct sk_frame_sink {
    int (*frame)(void *ctx, const sk_engine *e, long step, sk_error *err);
    void *ctx;
} sk_frame_sink;

typedef struct sk_run_options {
    long steps; /* the step the run ends at (the engine starts at sk_engine_step) */
    long every; /* frames at every multiple of `every`, >= 1 */
    const sk_frame_sink *sinks;
    int n_sinks;
    /* Called between chunks of steps with the step reached, the particle-steps done and seconds since
     * the start (a progress bar); may be NULL. */
    void (*progress)(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed_s);
    void *progress_ctx;
    /* Set asynchronously (a signal handler) to stop the run between chunks; may be NULL. */
    volatile sig_atomic_t *stop;
    /* A run resumed from a checkpoint (skein/checkpoint.h): the engine's current step is a frame the sinks
     * had already (the checkpoint's own frame). It is checked again, which changes no rope (a check at the
     * step just checked finds what the last one left), but not handed to the sinks. */
    bool resumed;
} sk_run_options;

typedef struct sk_run_stats {
    uint64_t particle_steps; /* particles present at each step, summed */
    long steps;              /* steps taken */
    long frames;             /* frames handed to the sinks */
    long last_frame;         /* step of the last frame handed to the sinks (-1: none) */
    size_t diverged;         /* ropes marked diverged by the frame checks */
    double wall_s;           /* the whole run, frames included */
    double step_s;           /* time spent inside sk_engine_advance */
} sk_run_stats;

/* The frame after `step`: the next multiple of every, or `steps` when that comes first. */
long sk_run_next_frame(long step, long every, long steps);

/* Output frames are the current step, every multiple of opt->every, and opt->steps. At each frame the
 * engine first checks every rope for divergence (SPEC.md section 10: the chunk of steps that reaches a
 * frame is advanced with sk_engine_advance_checked, which checks in the same pass), then the sinks get
 * it. Between frames the engine advances in chunks of about a tenth of a second when progress
 * or stop is given, so both are answered promptly (results do not depend on how steps are split).
 * When *opt->stop is set the chunk under way is finished, the step reached is handed to the sinks as a
 * last frame (unless it just was one) and SK_EXIT_INTERRUPTED is returned. Returns 0, the failing
 * sink's status or SK_EXIT_INTERRUPTED (a run whose ropes diverged still returns 0: see
 * stats->diverged); stats is filled in every case. */
int sk_run(sk_engine *e, const sk_run_options *opt, sk_run_stats *stats, sk_error *err);

/* Seconds on a monotonic clock. */
double sk_seconds(void);

#endif
