/* skein run FILE and skein alone: step a scenario headless, write the outputs, print a summary. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "skein/output.h"
#include "skein/engine.h"
#include "engine/summary.h"
#include "io/text/text_outputs.h"
#include "io/hdf5/hdf5_output.h"

/* Ropes named one by one in the divergence message and the summary; the HDF5 output lists them all. */
#define LISTED_DIVERGED 10

volatile sig_atomic_t cli_stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    cli_stop_requested = 1;
}

/* Ctrl-C (or SIGTERM) asks the run to stop between chunks, so the outputs are closed properly; the
 * handler resets itself, so a second Ctrl-C kills at once. */
void cli_catch_stop_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

void cli_restore_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

/* ---- the progress bar: on stderr, only when it is a terminal, only once the run has taken a second -- */


/* h:mm:ss, or m:ss under an hour */
static void clock_text(char *buf, size_t size, double seconds)
{
    const long s = seconds < 0 ? 0 : seconds > 3.6e8 ? 360000000L : (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

void cli_draw_progress(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed)
{
    cli_progress_bar *bar = ctx;
    if (elapsed < 1.0 || steps <= 0)
        return;
    enum { WIDTH = 10 };
    const double done = (double)step / (double)steps;
    const int filled = (int)(done * WIDTH);
    char cells[WIDTH + 1], left[32];
    for (int i = 0; i < WIDTH; i++)
        cells[i] = i < filled ? '#' : '.';
    cells[WIDTH] = '\0';
    clock_text(left, sizeof left, done > 0 ? elapsed * (1 - done) / done : 0);
    /* \033[K clears what a longer previous line left behind */
    fprintf(stderr, "\r[%s] %3d%% step %ld/%ld %.2e particle-steps/s %s left\033[K", cells,
            (int)(100 * done), step, steps, (double)particle_steps / elapsed, left);
    fflush(stderr);
    bar->shown = true;
}

void cli_clear_progress(const cli_progress_bar *bar)
{
    if (bar->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

/* ---- the summary --------------------------------------------------------------------------------- */

/* Up to LISTED_DIVERGED "rope R at step S" items, comma separated, then "and N more". */
void cli_list_diverged(const sk_engine *e, size_t total, char *buf, size_t size)
{
    size_t listed = 0, more = 0, used = 0;
    buf[0] = '\0';
    for (size_t r = 0; r < total; r++) {
        const long at = sk_engine_rope_diverged(e, r);
        if (at < 0)
            continue;
        if (listed == LISTED_DIVERGED) {
            more++;
            continue;
        }
        int n = snprintf(buf + used, size - used, "%srope %zu at step %ld", listed ? ", " : "", r, at);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
        listed++;
    }
    if (more && used < size)
        snprintf(buf + used, size - used, " and %zu more", more);
}

static void print_totals(const char *when, const sk_group_totals *t)
{
    printf("  %-10s kinetic %.6g J, gravity %.6g J, elastic %.6g J", when, t->kinetic, t->gravity, t->elastic);
    if (t->has_links)
        printf(", max tension %.6g N\n", t->max_tension);
    else
        printf(", no links\n");
}


void cli_print_summary(const sk_scenario *s, const sk_engine *e, const cli_plan *plan, const sk_run_stats *st,
                          const sk_group_totals *start, const sk_group_totals *end, const cli_run_outputs *out)
{
    const char *isa = out->isa ? out->isa : sk_engine_isa(e);
    size_t particles = 0, diverged = 0;
    for (int g = 0; g < s->n_groups; g++) {
        particles += end[g].particles;
        diverged += end[g].diverged;
    }

    printf("scenario     %s\n", s->source);
    if (strcmp(isa, "reference") == 0)
        printf("engine       reference (scalar, one rope at a time)\n");
    else
        printf("engine       batch, isa %s\n", isa);
    if (out->ranks > 1)
        printf("threads      %d in each of %d processes\n", out->threads, out->ranks);
    else
        printf("threads      %d\n", sk_engine_threads(e));
    printf("ropes        %zu in %d group%s\n", s->total_ropes, s->n_groups, s->n_groups == 1 ? "" : "s");
    printf("particles    %zu\n", particles);
    /* a resumed run counts from the start of the run that it goes on */
    const long steps = st->steps + (out->resumed_at > 0 ? out->resumed_at : 0);
    printf("steps        %ld (dt %g s, %g s simulated)%s", steps, (double)s->dt, (double)steps * (double)s->dt,
           out->incomplete ? ", interrupted" : "");
    if (out->resumed_at >= 0)
        printf(", resumed at step %ld", out->resumed_at);
    printf("\n");
    size_t static_ropes;
    long static_solves;
    int static_most;
    if (sk_engine_equilibrium(e, &static_ropes, &static_solves, &static_most) && static_ropes > 0)
        printf("equilibrium  every rope at rest within %g N before step 0: %.1f solves per rope (max %d)\n",
               (double)s->equilibrium_tolerance, (double)static_solves / (double)static_ropes, static_most);
    printf("wall time    %.3f s (stepping %.3f s)\n", st->wall_s, st->step_s);
    if (st->step_s > 0)
        printf("speed        %.2e particle-steps/s\n", (double)st->particle_steps / st->step_s);
    else
        printf("speed        - (no steps taken)\n");
    if (diverged) {
        char list[512];
        cli_list_diverged(e, s->total_ropes, list, sizeof list);
        printf("diverged     %zu rope%s: %s\n", diverged, diverged == 1 ? "" : "s", list);
    } else {
        printf("diverged     0 ropes\n");
    }
    const char *rope_word = plan->n_ropes == 1 ? "rope" : "ropes";
    if (out->csv)
        printf("output       %s%s (%ld frames of %zu %s)\n", out->csv, out->incomplete ? SK_INCOMPLETE_SUFFIX : "",
               st->frames, plan->n_ropes, rope_word);
    if (out->h5)
        printf("output       %s%s (%ld frames of %zu %s, %s)\n", out->h5, out->incomplete ? SK_INCOMPLETE_SUFFIX : "",
               st->frames, plan->n_ropes, rope_word, out->incomplete ? "marked incomplete" : "complete");
    if (out->vtk)
        printf("output       %s%s/ (%ld frames of %zu %s, VTK: open %s in ParaView)\n", out->vtk,
               out->incomplete ? SK_INCOMPLETE_SUFFIX : "", st->frames, plan->n_ropes, rope_word, SK_VTK_COLLECTION);
    if (out->results)
        printf("output       %s%s (%zu ropes, one row each)\n", out->results, out->incomplete ? SK_INCOMPLETE_SUFFIX : "",
               s->total_ropes);
    if (!out->csv && !out->h5 && !out->vtk && !out->results)
        printf("output       none\n");
    if (out->checkpoint && !out->incomplete)
        printf("checkpoint   %s removed: the run finished\n", out->checkpoint);
    else if (out->checkpoint && out->checkpoint_step >= 0)
        printf("checkpoint   %s at step %ld (go on with --resume %s)\n", out->checkpoint, out->checkpoint_step,
               out->checkpoint);
    else if (out->checkpoint)
        printf("checkpoint   none taken yet\n");
    for (int g = 0; g < s->n_groups; g++) {
        printf("group %-6d %zu rope%s, %zu diverged\n", g, end[g].ropes, end[g].ropes == 1 ? "" : "s",
               end[g].diverged);
        print_totals("start", &start[g]);
        print_totals(out->incomplete ? "stopped" : "end", &end[g]);
        if (end[g].has_contacts && end[g].ropes)
            printf("  contacts   last step: %.1f per rope (max %d), resolver iterations %.1f (max %d)\n",
                   (double)end[g].contacts / (double)end[g].ropes, end[g].max_contacts,
                   (double)end[g].iterations / (double)end[g].ropes, end[g].max_iterations);
        if (end[g].has_newton && end[g].ropes)
            printf("  newton     last step: %.1f solves per rope (max %d); steps not converged: %llu, in %llu rope%s\n",
                   (double)end[g].solves / (double)end[g].ropes, end[g].max_solves,
                   (unsigned long long)end[g].unconverged, (unsigned long long)end[g].unconverged_ropes,
                   end[g].unconverged_ropes == 1 ? "" : "s");
    }
}

/* ---- the command --------------------------------------------------------------------------------- */

void cli_fail_interrupted(const cli_options *o, long reached, long steps, sk_error *err)
{
    if (!o->csv && !o->h5 && !o->vtk && !o->results)
        return;
    sk_fail(err, SK_ERR_INTERRUPTED,
            "interrupted at step %ld of %ld; what was written up to that step is kept as%s%s%s%s%s%s%s%s%s%s%s%s (any "
            "earlier file under the outputs' own names is left as it was)",
            reached, steps, o->h5 ? " " : "", o->h5 ? o->h5 : "",
            o->h5 ? SK_INCOMPLETE_SUFFIX " (attribute complete = 0)" : "", o->csv ? " " : "", o->csv ? o->csv : "",
            o->csv ? SK_INCOMPLETE_SUFFIX : "", o->vtk ? " " : "", o->vtk ? o->vtk : "",
            o->vtk ? SK_INCOMPLETE_SUFFIX "/" : "", o->results ? " " : "", o->results ? o->results : "",
            o->results ? SK_INCOMPLETE_SUFFIX : "");
}

cli_output_temps cli_writers_temps(const cli_writers *w)
{
    return (cli_output_temps){.csv = w->csv ? sk_csv_temp_path(w->csv) : NULL,
                              .h5 = w->h5 ? sk_h5_temp_path(w->h5) : NULL,
                              .vtk = w->vtk ? sk_vtk_temp_path(w->vtk) : NULL,
                              .results = w->results ? sk_results_temp_path(w->results) : NULL};
}

void cli_abort_outputs(cli_writers *w)
{
    sk_csv_abort(w->csv);
    sk_h5_abort(w->h5);
    sk_vtk_abort(w->vtk);
    sk_results_abort(w->results);
    *w = (cli_writers){0};
}

int cli_close_outputs(int rc, cli_writers *w, const sk_engine *e, sk_error *err)
{
    sk_error mine = {0};
    int out = 0;
    if (rc == SK_OK || rc == SK_ERR_INTERRUPTED) {
        const bool complete = rc == 0;
        if (w->csv)
            out = complete ? sk_csv_commit(w->csv, &mine) : sk_csv_keep_incomplete(w->csv, &mine);
        if (w->h5) {
            const int r = sk_h5_finish(w->h5, complete, out ? NULL : &mine);
            out = out ? out : r;
        }
        if (w->vtk) {
            const int r = complete ? sk_vtk_commit(w->vtk, out ? NULL : &mine)
                                   : sk_vtk_keep_incomplete(w->vtk, out ? NULL : &mine);
            out = out ? out : r;
        }
        /* the table's rows are the ropes where the run ended (or stopped) */
        if (w->results && e) {
            int r = sk_results_write(w->results, e, out ? NULL : &mine);
            if (r)
                sk_results_abort(w->results);
            else
                r = complete ? sk_results_commit(w->results, out ? NULL : &mine)
                             : sk_results_keep_incomplete(w->results, out ? NULL : &mine);
            out = out ? out : r;
        }
        *w = (cli_writers){.results = e ? NULL : w->results};
    } else {
        cli_abort_outputs(w);
    }
    if (out) {
        *err = mine;
        return out;
    }
    return rc;
}

/* The run itself, its options complete (core/cli/recall.c fills them in for --resume alone). */
static int run(const cli_options *o, sk_error *err)
{
    sk_scenario s;
    memset(&s, 0, sizeof s);
    /* Before anything is allocated or stepped: the run can write every file it will write, and its
     * checkpoint is no other run's. */
    cli_claim claim = {.fd = -1};
    int rc = cli_check_outputs(o, o->command == CLI_RUN ? o->file : NULL, err);
    if (rc == 0)
        rc = cli_checkpoint_claim(&claim, o, err);
    if (rc == 0)
        rc = cli_load(o, &s, err);
    if (rc == 0 && (rc = cli_check_warm_start(o, &s, err)))
        sk_scenario_free(&s);
    if (rc) {
        cli_checkpoint_unclaim(&claim);
        return sk_exit_status(rc);
    }
    cli_stability_report(&s, false);
    cli_plan plan = {0};
    int exit_status = SK_EXIT_OK;
    sk_engine *e = NULL;
    cli_writers w = {0};
    sk_group_totals *start = NULL, *end = NULL;
    sk_rope_diagnostics *energy = NULL;
    cli_checkpointing ck = {.resumed_at = -1};
    if ((rc = cli_plan_make(o, &s, &plan, err)))
        goto done;
    if (!(e = cli_engine_create(o, &s, NULL, 0, o->engine, err))) {
        rc = err->status;
        goto done;
    }
    const size_t n_groups = (size_t)(s.n_groups > 0 ? s.n_groups : 1);
    if (!(start = calloc(n_groups, sizeof *start)) || !(end = calloc(n_groups, sizeof *end))) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    /* --resume puts the checkpoint's state into the engine here; the start totals are then the run's */
    if ((rc = cli_checkpoint_begin(&ck, o, &s, &plan, e, start, err)))
        goto done;
    if (!ck.path && !o->quiet && (rc = sk_group_totals_compute(e, start, err)))
        goto done;
    /* with tracked extremes, each rope's energy at the start: what an unstable step grows past (a resumed run
     * has lost it) */
    if (o->results && !ck.resumed && !(energy = cli_energy_start(e, &s))) {
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        goto done;
    }

    /* Outputs are opened last: any error found before this leaves no file behind. */
    sk_frame_sink sinks[4];
    int n_sinks = 0;
    if (o->csv) {
        if (!(w.csv = sk_csv_open(o->csv, s.dt, plan.ropes, plan.n_ropes, err))) {
            rc = err->status;
            goto done;
        }
        sinks[n_sinks++] = (sk_frame_sink){sk_csv_frame_sink, w.csv};
    }
    if (o->h5) {
        const int threads = o->has_threads ? o->threads : 0; /* the run's threads compress its chunks */
        if (!(w.h5 = sk_h5_open(o->h5, &s, plan.ropes, plan.n_ropes, plan.steps, plan.every, threads, err))) {
            rc = err->status;
            goto done;
        }
        sinks[n_sinks++] = (sk_frame_sink){sk_h5_frame_sink, w.h5};
    }
    if (o->vtk) {
        if (!(w.vtk = sk_vtk_open(o->vtk, s.dt, plan.ropes, plan.n_ropes, cli_vtk_layout(o), err))) {
            rc = err->status;
            goto done;
        }
        sinks[n_sinks++] = (sk_frame_sink){sk_vtk_frame_sink, w.vtk};
    }
    if (o->results && !(w.results = sk_results_open(o->results, &s, err))) {
        rc = err->status;
        goto done;
    }
    /* checkpoints: the frame journal (a resumed run's frames written again first) and the checkpoints */
    const cli_output_temps keep = cli_writers_temps(&w);
    if ((rc = cli_checkpoint_attach(&ck, o, &s, &plan, &keep, sinks, &n_sinks, start, err)))
        goto done;

    cli_progress_bar bar = {false};
    const bool show_progress = !o->quiet && isatty(STDERR_FILENO);
    const sk_run_options ro = {
        .steps = plan.steps,
        .every = plan.every,
        .sinks = sinks,
        .n_sinks = n_sinks,
        .progress = show_progress ? cli_draw_progress : NULL,
        .progress_ctx = &bar,
        .stop = &cli_stop_requested,
        .resumed = ck.resumed,
    };
    struct sigaction old[2];
    cli_stop_requested = 0;
    cli_catch_stop_signals(old);
    sk_run_stats stats;
    rc = sk_run(e, &ro, &stats, err);
    stats.frames += ck.replayed;
    cli_clear_progress(&bar);
    /* Still catching Ctrl-C while the outputs are committed or removed, so it cannot cut that short: a
     * run that finished stays finished. */
    rc = cli_close_outputs(rc, &w, e, err);
    cli_restore_signals(old);

    const cli_run_outputs out = {.csv = o->csv,
                             .h5 = o->h5,
                             .vtk = o->vtk,
                             .results = o->results,
                             .incomplete = rc == SK_ERR_INTERRUPTED,
                             .resumed_at = ck.resumed_at,
                             .checkpoint = ck.path,
                             .checkpoint_step = cli_checkpoint_last(&ck)};
    if (rc == SK_ERR_INTERRUPTED)
        cli_fail_interrupted(o, sk_engine_step(e), plan.steps, err);
    if (rc == SK_OK && stats.diverged) {
        char list[512];
        cli_list_diverged(e, s.total_ropes, list, sizeof list);
        sk_fail(err, SK_OK, "%zu of %zu ropes diverged: %s; each holds its last finite frame from then on",
                stats.diverged, s.total_ropes, list);
        exit_status = SK_EXIT_DIVERGED;
    }
    if (rc == SK_OK && energy)
        cli_energy_report(e, &s, energy);
    /* a finished run removes its checkpoint; any other says how to go on from it */
    cli_checkpoint_end(&ck, rc == SK_OK, err);
    if (!o->quiet && (rc == SK_OK || rc == SK_ERR_INTERRUPTED)) {
        int trc = sk_group_totals_compute(e, end, err);
        if (trc)
            rc = trc;
        else
            cli_print_summary(&s, e, &plan, &stats, start, end, &out);
    }

done:
    cli_abort_outputs(&w);
    cli_checkpoint_free(&ck);
    cli_checkpoint_unclaim(&claim);
    free(start);
    free(end);
    free(energy);
    sk_engine_destroy(e);
    free(plan.ropes);
    sk_scenario_free(&s);
    return rc ? sk_exit_status(rc) : exit_status;
}

int cli_run(const cli_options *o, sk_error *err)
{
    if (o->command != CLI_RUN || o->file || !o->resume)
        return run(o, err);
    /* --resume alone: the checkpoint says what to run */
    cli_options recalled = *o;
    cli_recalled texts;
    const int rc = cli_recall(&recalled, &texts, err);
    if (rc)
        return sk_exit_status(rc);
    const int status = run(&recalled, err);
    cli_recalled_free(&texts);
    return status;
}
