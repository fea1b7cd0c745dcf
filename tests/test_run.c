/* The run driver: output frames at step 0, every multiple of every and the last step; counts. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/engine_impl.h"
#include "skein/output.h"
#include "engine/run.h"

/* A stand-in engine: 3 ropes of 5 particles that records how it was advanced. */
typedef struct fake_engine {
    sk_engine base;
    long calls[64];
    int n_calls;
} fake_engine;

static uint64_t fake_advance(sk_engine *e, long steps)
{
    fake_engine *f = (fake_engine *)e;
    if (f->n_calls < 64)
        f->calls[f->n_calls++] = steps;
    return (uint64_t)(3 * 5 * steps);
}
static int fake_particles(const sk_engine *e, size_t rope)
{
    (void)e;
    (void)rope;
    return 5;
}
static void fake_read(const sk_engine *e, size_t rope, sk_real *p, sk_real *v)
{
    (void)e;
    (void)rope;
    (void)p;
    (void)v;
}
static void fake_diagnostics(const sk_engine *e, size_t rope, sk_rope_diagnostics *out, sk_real *tension)
{
    (void)e;
    (void)rope;
    (void)tension;
    *out = (sk_rope_diagnostics){.finite = true};
}
static void fake_contacts(const sk_engine *e, size_t rope, int *contacts, int *iterations)
{
    (void)e;
    (void)rope;
    *contacts = *iterations = 0;
}
static void fake_destroy(sk_engine *e) { (void)e; }
static const sk_engine_vtbl fake_vt = {.advance = fake_advance,
                                       .rope_particles = fake_particles,
                                       .read_rope = fake_read,
                                       .rope_diagnostics = fake_diagnostics,
                                       .rope_contacts = fake_contacts,
                                       .destroy = fake_destroy};

static fake_engine fake(void)
{
    fake_engine f;
    memset(&f, 0, sizeof f);
    f.base.vt = &fake_vt;
    f.base.isa = "fake";
    f.base.threads = 1;
    return f;
}

/* Records the frames it is given; fails at step fail_at when that is >= 0. */
typedef struct recorder {
    long steps[64];
    int n;
    long fail_at;
} recorder;

static sk_status record_frame(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    recorder *r = ctx;
    if (sk_engine_step(e) != step)
        return sk_fail(err, SK_ERR_INVALID, "frame %ld given at engine step %ld", step,
                       sk_engine_step(e));
    if (r->n < 64)
        r->steps[r->n++] = step;
    if (step == r->fail_at)
        return sk_fail(err, SK_ERR_IO, "out.csv: write failed: sink says no");
    return 0;
}

static int frame_schedule(void)
{
    CHECK(sk_run_next_frame(0, 4, 10) == 4);
    CHECK(sk_run_next_frame(3, 4, 10) == 4);
    CHECK(sk_run_next_frame(4, 4, 10) == 8);
    CHECK(sk_run_next_frame(8, 4, 10) == 10);
    CHECK(sk_run_next_frame(0, 20, 10) == 10);
    CHECK(sk_run_next_frame(9, 1, 10) == 10);
    return 0;
}

/* steps 10, every 4: frames 0, 4, 8, 10; one advance per interval; 3 x 5 x 10 particle-steps. */
static int frames_and_counts(void)
{
    fake_engine f = fake();
    recorder r = {.fail_at = -1};
    const sk_frame_sink sink = {record_frame, &r};
    const sk_run_options opt = {.steps = 10, .every = 4, .sinks = &sink, .n_sinks = 1};
    sk_run_stats st;
    sk_error err = {0};
    CHECK_OK(sk_run(&f.base, &opt, &st, &err));
    CHECK(r.n == 4 && r.steps[0] == 0 && r.steps[1] == 4 && r.steps[2] == 8 && r.steps[3] == 10);
    CHECK(f.n_calls == 3 && f.calls[0] == 4 && f.calls[1] == 4 && f.calls[2] == 2);
    CHECK(st.particle_steps == 150 && st.steps == 10 && st.frames == 4);
    CHECK(st.wall_s >= st.step_s && st.step_s >= 0);
    CHECK(sk_engine_step(&f.base) == 10);
    return 0;
}

/* No steps: the single frame 0. */
static int no_steps(void)
{
    fake_engine f = fake();
    recorder r = {.fail_at = -1};
    const sk_frame_sink sink = {record_frame, &r};
    const sk_run_options opt = {.steps = 0, .every = 1, .sinks = &sink, .n_sinks = 1};
    sk_run_stats st;
    sk_error err = {0};
    CHECK_OK(sk_run(&f.base, &opt, &st, &err));
    CHECK(r.n == 1 && r.steps[0] == 0);
    CHECK(f.n_calls == 0 && st.particle_steps == 0 && st.frames == 1);
    return 0;
}

typedef struct progress_log {
    long last;
    int calls;
    bool increasing;
    volatile sig_atomic_t *stop;
    long stop_at;
} progress_log;

static void log_progress(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed)
{
    progress_log *l = ctx;
    /* the fake engine's 3 x 5 particles per step */
    l->increasing &= step > l->last && steps == 1000 && particle_steps == (uint64_t)(15 * step) && elapsed >= 0;
    l->last = step;
    l->calls++;
    if (l->stop && step >= l->stop_at)
        *l->stop = 1;
}

/* With a progress callback the driver advances in chunks; frames and counts do not change and no
 * chunk crosses a frame. */
static int chunked_same(void)
{
    fake_engine f = fake();
    recorder r = {.fail_at = -1};
    const sk_frame_sink sink = {record_frame, &r};
    progress_log log = {.last = 0, .increasing = true};
    const sk_run_options opt = {.steps = 1000, .every = 400, .sinks = &sink, .n_sinks = 1,
                                .progress = log_progress, .progress_ctx = &log};
    sk_run_stats st;
    sk_error err = {0};
    CHECK_OK(sk_run(&f.base, &opt, &st, &err));
    CHECK(r.n == 4 && r.steps[1] == 400 && r.steps[2] == 800 && r.steps[3] == 1000);
    CHECK(st.particle_steps == 15000 && st.steps == 1000 && st.frames == 4);
    CHECK(f.n_calls > 3 && f.n_calls < 64); /* chunks: the first is one step, then they grow */
    CHECK(f.calls[0] == 1);
    long at = 0;
    for (int i = 0; i < f.n_calls; i++) {
        CHECK(at / 400 == (at + f.calls[i] - 1) / 400 || (at + f.calls[i]) % 400 == 0);
        at += f.calls[i];
    }
    CHECK(at == 1000);
    CHECK(log.increasing && log.last == 1000 && log.calls == f.n_calls);
    return 0;
}

/* A stop request ends the run between chunks with status 130; the step reached is the last frame (no
 * second one when it just was a frame). */
static int stop(void)
{
    fake_engine f = fake();
    recorder r = {.fail_at = -1};
    const sk_frame_sink sink = {record_frame, &r};
    volatile sig_atomic_t flag = 1;
    sk_run_options opt = {.steps = 10, .every = 4, .sinks = &sink, .n_sinks = 1, .stop = &flag};
    sk_run_stats st;
    sk_error err = {0};
    CHECK(sk_run(&f.base, &opt, &st, &err) == SK_ERR_INTERRUPTED);
    CHECK(err.status == SK_ERR_INTERRUPTED);
    CHECK(strcmp(err.message, "interrupted at step 0 of 10") == 0);
    CHECK(r.n == 1 && f.n_calls == 0 && st.steps == 0 && st.frames == 1 && st.last_frame == 0);

    /* Set from the progress callback (as a signal would arrive) once step 500 is passed. */
    fake_engine g = fake();
    recorder r2 = {.fail_at = -1};
    const sk_frame_sink sink2 = {record_frame, &r2};
    flag = 0;
    progress_log log = {.last = 0, .increasing = true, .stop = &flag, .stop_at = 500};
    opt = (sk_run_options){.steps = 1000, .every = 400, .sinks = &sink2, .n_sinks = 1,
                           .progress = log_progress, .progress_ctx = &log, .stop = &flag};
    CHECK(sk_run(&g.base, &opt, &st, &err) == SK_ERR_INTERRUPTED);
    CHECK(st.steps >= 500 && st.steps < 1000 && st.steps == sk_engine_step(&g.base));
    /* frames 0, 400, 800 when passed, and the step the run stopped at */
    const int grid = 2 + (st.steps >= 800);
    CHECK(r2.n == grid + (st.steps != 800) && r2.steps[1] == 400);
    CHECK(r2.steps[r2.n - 1] == st.steps && st.last_frame == st.steps && st.frames == r2.n);
    return 0;
}

/* A failing sink stops the run at once and its status and message come back. */
static int sink_failure(void)
{
    fake_engine f = fake();
    recorder r = {.fail_at = 4};
    const sk_frame_sink sink = {record_frame, &r};
    const sk_run_options opt = {.steps = 10, .every = 4, .sinks = &sink, .n_sinks = 1};
    sk_run_stats st;
    sk_error err = {0};
    CHECK(sk_run(&f.base, &opt, &st, &err) == SK_ERR_IO);
    CHECK(strcmp(err.message, "out.csv: write failed: sink says no") == 0);
    CHECK(r.n == 2 && f.n_calls == 1 && st.steps == 4 && st.frames == 1);
    return 0;
}

CHECK_MAIN({"frame_schedule", frame_schedule}, {"frames_and_counts", frames_and_counts},
           {"no_steps", no_steps}, {"chunked_same", chunked_same}, {"stop", stop},
           {"sink_failure", sink_failure})
