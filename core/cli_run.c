/* skein run FILE and skein alone: step a scenario headless, write the outputs, print a summary. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "skein/csv_writer.h"
#include "skein/engine.h"
#include "skein/run.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* Ctrl-C (or SIGTERM) asks the run to stop between chunks, so the outputs are cleaned up; the
 * handler resets itself, so a second Ctrl-C kills at once. */
static void catch_stop_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

static void restore_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

/* The progress bar: on stderr, only when it is a terminal, only once the run has taken a second. */
typedef struct progress_bar {
    bool shown;
} progress_bar;

static void draw_progress(void *ctx, long step, long steps, double elapsed)
{
    progress_bar *bar = ctx;
    if (elapsed < 1.0 || steps <= 0)
        return;
    enum { WIDTH = 30 };
    const double done = (double)step / (double)steps;
    const int filled = (int)(done * WIDTH);
    char cells[WIDTH + 1];
    for (int i = 0; i < WIDTH; i++)
        cells[i] = i < filled ? '#' : '.';
    cells[WIDTH] = '\0';
    const double left = done > 0 ? elapsed * (1 - done) / done : 0;
    fprintf(stderr, "\rskein: [%s] %3d%%  step %ld of %ld  %.0f s left   ", cells,
            (int)(100 * done), step, steps, left);
    fflush(stderr);
    bar->shown = true;
}

static void clear_progress(const progress_bar *bar)
{
    if (bar->shown)
        fprintf(stderr, "\r%*s\r", 79, "");
}

static void print_summary(const sk_scenario *s, const sk_engine *e, const cli_plan *plan,
                          const sk_run_stats *st, const char *csv)
{
    size_t particles = 0;
    for (size_t r = 0; r < s->total_ropes; r++)
        particles += (size_t)sk_engine_rope_particles(e, r);
    const char *isa = sk_engine_isa(e);

    printf("scenario     %s\n", s->source);
    if (strcmp(isa, "reference") == 0)
        printf("engine       reference (scalar, one rope at a time)\n");
    else
        printf("engine       batch, isa %s\n", isa);
    printf("threads      %d\n", sk_engine_threads(e));
    printf("ropes        %zu in %d group%s\n", s->total_ropes, s->n_groups,
           s->n_groups == 1 ? "" : "s");
    printf("particles    %zu\n", particles);
    printf("steps        %ld (dt %g s, %g s simulated)\n", st->steps, (double)s->dt,
           (double)st->steps * (double)s->dt);
    printf("wall time    %.3f s (stepping %.3f s)\n", st->wall_s, st->step_s);
    if (st->step_s > 0)
        printf("speed        %.2e particle-steps/s\n", (double)st->particle_steps / st->step_s);
    else
        printf("speed        - (no steps taken)\n");
    printf("diverged     0 ropes\n");
    if (csv)
        printf("output       %s (%ld frames of %zu rope%s)\n", csv, st->frames, plan->n_ropes,
               plan->n_ropes == 1 ? "" : "s");
    else
        printf("output       none\n");
}

int cli_run(const cli_options *o, sk_error *err)
{
    if (o->h5)
        return sk_fail(err, SK_EXIT_USAGE, "--h5: HDF5 output is not built yet");

    sk_scenario s;
    memset(&s, 0, sizeof s);
    int rc = cli_load(o, &s, err);
    if (rc)
        return rc;
    cli_plan plan = {0};
    sk_engine *e = NULL;
    sk_csv_writer *csv = NULL;
    if ((rc = cli_plan_make(o, &s, &plan, err)))
        goto done;
    const sk_engine_options eo = {
        .engine = o->engine, .isa = o->isa, .threads = o->has_threads ? o->threads : 0};
    if (!(e = sk_engine_create(&s, &eo, err))) {
        rc = err->status ? err->status : SK_EXIT_FAILURE;
        goto done;
    }
    /* Outputs are opened last: any error found before this leaves no file behind. */
    sk_frame_sink sinks[1];
    int n_sinks = 0;
    if (o->csv) {
        if (!(csv = sk_csv_open(o->csv, s.dt, plan.ropes, plan.n_ropes, err))) {
            rc = err->status;
            goto done;
        }
        sinks[n_sinks++] = (sk_frame_sink){sk_csv_frame_sink, csv};
    }

    progress_bar bar = {false};
    const bool show_progress = !o->quiet && isatty(STDERR_FILENO);
    const sk_run_options ro = {
        .steps = plan.steps,
        .every = plan.every,
        .sinks = sinks,
        .n_sinks = n_sinks,
        .progress = show_progress ? draw_progress : NULL,
        .progress_ctx = &bar,
        .stop = &stop_requested,
    };
    struct sigaction old[2];
    stop_requested = 0;
    catch_stop_signals(old);
    sk_run_stats stats;
    rc = sk_run(e, &ro, &stats, err);
    clear_progress(&bar);
    /* Still catching Ctrl-C while the output is committed or removed, so it cannot be cut short:
     * a run that finished stays finished. */
    if (csv) {
        if (rc == 0)
            rc = sk_csv_commit(csv, err);
        else
            sk_csv_abort(csv);
        csv = NULL;
    }
    restore_signals(old);
    if (rc == 0 && !o->quiet)
        print_summary(&s, e, &plan, &stats, o->csv);

done:
    sk_csv_abort(csv);
    sk_engine_destroy(e);
    free(plan.ropes);
    sk_scenario_free(&s);
    return rc;
}
