/* The frame-by-frame driver: for each output interval advance the engine, then emit the frame. */
#include <time.h>

#include "base/assert.h"
#include "skein/output.h"
#include "engine/run.h"

/* Between progress reports and stop checks: long enough that the per-chunk overhead vanishes,
 * short enough that Ctrl-C and the progress bar feel immediate. */
#define CHUNK_SECONDS 0.1

double sk_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

long sk_run_next_frame(long step, long every, long steps)
{
    long next = (step / every + 1) * every;
    return next < steps ? next : steps;
}

/* The frame of `step`, checked already when `checked` (the chunk that reached it did so). */
static int emit_frame(sk_engine *e, const sk_run_options *opt, long step, bool checked, sk_run_stats *stats,
                      sk_error *err)
{
    if (!checked)
        stats->diverged = sk_engine_check_frame(e);
    stats->last_frame = step;
    for (int i = 0; i < opt->n_sinks; i++) {
        int rc = opt->sinks[i].frame(opt->sinks[i].ctx, e, step, err);
        if (rc)
            return rc;
    }
    stats->frames++;
    return 0;
}

sk_status sk_run(sk_engine *e, const sk_run_options *opt, sk_run_stats *stats, sk_error *err)
{
    SK_ASSERT(opt->every >= 1 && opt->n_sinks >= 0 && (opt->n_sinks == 0 || opt->sinks));
    *stats = (sk_run_stats){.last_frame = -1};
    const double start = sk_seconds();
    const bool chunked = opt->progress || opt->stop;
    long step = sk_engine_step(e);
    int rc = 0;
    if (opt->resumed) {
        stats->diverged = sk_engine_check_frame(e);
        stats->last_frame = step;
    } else {
        rc = emit_frame(e, opt, step, false, stats, err);
    }

    /* Steps per chunk, re-estimated from the measured rate after every chunk. */
    long chunk = 1;
    while (rc == 0 && step < opt->steps) {
        const long frame = sk_run_next_frame(step, opt->every, opt->steps);
        while (step < frame) {
            if (opt->stop && *opt->stop) {
                /* The outputs end with the state reached, checked like any frame. */
                if (stats->last_frame != step && (rc = emit_frame(e, opt, step, false, stats, err)))
                    goto done;
                rc = sk_fail(err, SK_ERR_INTERRUPTED, "interrupted at step %ld of %ld", step,
                             opt->steps);
                goto done;
            }
            long n = frame - step;
            if (chunked && n > chunk)
                n = chunk;
            const double t0 = sk_seconds();
            /* the chunk that reaches the frame checks it too, in the same pass over the ropes */
            if (step + n == frame)
                stats->particle_steps += sk_engine_advance_checked(e, n, &stats->diverged);
            else
                stats->particle_steps += sk_engine_advance(e, n);
            const double dt = sk_seconds() - t0;
            stats->step_s += dt;
            stats->steps += n;
            step += n;
            if (chunked) {
                double want = dt > 0 ? (double)n * CHUNK_SECONDS / dt : (double)n * 2;
                if (want > (double)n * 2) /* grow at most twofold: timings of tiny chunks are noisy */
                    want = (double)n * 2;
                chunk = want < 1 ? 1 : (long)want;
            }
            if (opt->progress)
                opt->progress(opt->progress_ctx, step, opt->steps, stats->particle_steps,
                              sk_seconds() - start);
        }
        rc = emit_frame(e, opt, step, true, stats, err);
    }
done:
    stats->wall_s = sk_seconds() - start;
    return rc;
}
