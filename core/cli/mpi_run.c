/* skein run split across processes (mpirun -np R skein run FILE): each process (rank) steps a contiguous block
 * of the ropes, balanced by their cost, as an engine over a slice of the scenario (sk_scenario_slice: every
 * rope keeps its bits); at each output frame every rank writes its ropes' rows into the one HDF5 file,
 * collectively through MPI-IO (sk_h5_open_collective), and sends them to rank 0 (sk_frame_buffer) for the CSV,
 * which rank 0 writes with the library's writer: the files are a single process's (h5diff finds no
 * difference; the CSV byte for byte). A checkpointed run also sends rank 0 the whole frame, which it keeps in
 * its frame journal; on --resume, with any number of ranks, rank 0 writes the CSV again from the journal and
 * hands each journalled frame back to every rank for its rows of the HDF5 file. The results table's rows are
 * gathered to rank 0 once, at the end. What crosses the network: the frames, and a few numbers per chunk of
 * steps (stop, chunk length, statuses); with checkpoints, the ropes' states at each (core/cli/mpi_checkpoint.c).
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sorted.h"
#include "cli.h"
#include "skein/output.h"
#include "engine/run.h"
#include "engine/summary.h"
#include "io/records/frame_buffer.h"
#include "io/text/text_outputs.h"
#include "io/hdf5/hdf5_output.h"

#ifdef SKEIN_REAL_FLOAT
#define MPI_SK_REAL MPI_FLOAT
#else
#define MPI_SK_REAL MPI_DOUBLE
#endif

/* Between stop checks and progress reports, as sk_run's chunks. */
#define CHUNK_SECONDS 0.1

typedef struct ranks_run {
    int rank, size;
    const sk_scenario *s;
    size_t *first;   /* [size + 1]: rank k steps ropes first[k] .. first[k + 1] - 1 */
    sk_engine *e;    /* over this rank's slice; NULL for a rank without ropes */
    /* a frame of the output's ropes: this rank's share, and on rank 0 the whole, with where each rank's
     * ropes go in it */
    sk_frame_buffer *mine, *whole;
    int *n, *at;
    /* the same for every rope (the summary's totals, the divergence list) */
    sk_frame_buffer *mine_all, *whole_all;
    int *n_all, *at_all;
    bool writes;    /* the run has outputs: frames are taken */
    bool gathers;   /* the CSV: frames are sent to rank 0 */
    long fail_step; /* SKEIN_TEST_FAIL_RANK: this rank fails its first frame from this step on; -1 never */
} ranks_run;

/* Every rank's status (an sk_status) agreed (a collective call): a failure anywhere is every rank's. A rank
 * that did not fail returns another's status with its message empty: the failing rank's own message says what
 * and where (cli_mpi_finish names the rank). */
static int agree(const ranks_run *r, int rc, sk_error *err)
{
    (void)r;
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst && !rc)
        err->message[0] = '\0';
    return rc ? rc : worst;
}

/* Per rope, the particles it has weighted by what its model costs per particle: the implicit integrator's
 * chain elimination about six times the explicit step (docs/architecture.md), contacts about three. */
static double rope_cost(const sk_scenario *s, const sk_group *g)
{
    double w = (double)g->particles;
    if (s->integrator == SK_INTEGRATOR_IMPLICIT)
        w *= 6;
    if (sk_group_has_contacts(s, g))
        w *= 3;
    return w;
}

/* Contiguous blocks of equal cost: rank k starts at the first rope whose ropes before cost k / size of all. */
static void split(const sk_scenario *s, int size, size_t *first)
{
    double total = 0;
    for (int g = 0; g < s->n_groups; g++)
        total += rope_cost(s, &s->groups[g]) * (double)s->groups[g].count;
    first[0] = 0;
    for (int k = 1; k < size; k++) {
        const double target = total * (double)k / (double)size;
        double before = 0;
        size_t at = s->total_ropes;
        for (int g = 0; g < s->n_groups; g++) {
            const sk_group *grp = &s->groups[g];
            const double c = rope_cost(s, grp), whole = c * (double)grp->count;
            if (before + whole >= target) {
                double i = (target - before) / c;
                size_t r = (size_t)i + ((double)(size_t)i < i ? 1 : 0);
                at = grp->first_rope + (r < grp->count ? r : grp->count);
                break;
            }
            before += whole;
        }
        first[k] = at > first[k - 1] ? at : first[k - 1];
    }
    first[size] = s->total_ropes;
}

/* This rank's buffer of ropes (sorted; those in its block) and rank 0's of all of them, with each rank's
 * count and place in it. */
static int make_buffers(ranks_run *r, const size_t *ropes, size_t n_ropes, sk_frame_buffer **mine,
                        sk_frame_buffer **whole, int **n, int **at, sk_error *err)
{
    if (n_ropes > (size_t)INT_MAX)
        return sk_fail(err, SK_ERR_INVALID, "%s: more than %d ropes in one frame is beyond a run across processes",
                       r->s->source, INT_MAX);
    *n = calloc((size_t)r->size, sizeof **n);
    *at = calloc((size_t)r->size, sizeof **at);
    if (!*n || !*at)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    for (int k = 0; k < r->size; k++) {
        const size_t a = sk_lower_bound(ropes, n_ropes, r->first[k]), b = sk_lower_bound(ropes, n_ropes, r->first[k + 1]);
        (*at)[k] = (int)a;
        (*n)[k] = (int)(b - a);
    }
    if (!(*mine = sk_frame_buffer_create(r->s, ropes + (*at)[r->rank], (size_t)(*n)[r->rank], err)))
        return err->status;
    if (r->rank == 0 && !(*whole = sk_frame_buffer_create(r->s, ropes, n_ropes, err)))
        return err->status;
    return SK_OK;
}

/* This rank's share of a frame at `step`, taken from its engine (a collective call: a failure is everyone's). */
static int take_share(ranks_run *r, sk_frame_buffer *mine, long step, sk_error *err)
{
    int rc = r->e ? sk_frame_buffer_fill(mine, r->e, r->first[r->rank], err) : SK_OK;
    if (rc == SK_OK && r->fail_step >= 0 && step >= r->fail_step)
        rc = sk_fail(err, SK_ERR_IO, "%s: frame of step %ld: injected failure (SKEIN_TEST_FAIL_RANK)",
                     r->s->source, step);
    return agree(r, rc, err);
}

/* Sends every rank's share of a frame at `step` to rank 0's whole (a collective call). */
static int gather(ranks_run *r, sk_frame_buffer *mine, sk_frame_buffer *whole, const int *n, const int *at, long step,
                  sk_error *err)
{
    int rc = take_share(r, mine, step, err);
    if (rc)
        return rc;
    const size_t reals = sk_frame_buffer_n_reals(mine);
    if (reals > (size_t)INT_MAX)
        rc = sk_fail(err, SK_ERR_INVALID, "%s: a frame of more than %d numbers from one process is beyond a run "
                     "across processes: use more processes", r->s->source, INT_MAX);
    if ((rc = agree(r, rc, err)))
        return rc;
    int32_t *counts = r->rank == 0 ? sk_frame_buffer_counts(whole) : NULL;
    int64_t *marks = r->rank == 0 ? sk_frame_buffer_marks(whole) : NULL;
    MPI_Gatherv(sk_frame_buffer_counts(mine), n[r->rank], MPI_INT32_T, counts, n, at, MPI_INT32_T, 0,
                MPI_COMM_WORLD);
    MPI_Gatherv(sk_frame_buffer_marks(mine), n[r->rank], MPI_INT64_T, marks, n, at, MPI_INT64_T, 0,
                MPI_COMM_WORLD);
    int sent = (int)reals, *got = NULL, *place = NULL;
    if (r->rank == 0) {
        got = calloc((size_t)r->size, sizeof *got);
        place = calloc((size_t)r->size, sizeof *place);
        rc = got && place ? sk_frame_buffer_set_counts(whole, err) : sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    }
    MPI_Gather(&sent, 1, MPI_INT, got, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (r->rank == 0 && rc == SK_OK)
        for (int k = 1; k < r->size; k++)
            place[k] = place[k - 1] + got[k - 1];
    if ((rc = agree(r, rc, err)) == SK_OK)
        MPI_Gatherv(sk_frame_buffer_reals(mine), sent, MPI_SK_REAL, r->rank == 0 ? sk_frame_buffer_reals(whole) : NULL,
                    got, place, MPI_SK_REAL, 0, MPI_COMM_WORLD);
    free(got);
    free(place);
    return rc;
}

/* Every rope's frame at rank 0 (after a frame check), for the summary's totals and the divergence list. */
static int gather_all(ranks_run *r, long step, sk_error *err)
{
    return gather(r, r->mine_all, r->whole_all, r->n_all, r->at_all, step, err);
}

typedef struct frame_out {
    const sk_frame_sink *sinks; /* rank 0's (the CSV, the VTK directory; in a checkpointed run the journal) */
    int n_sinks;
    sk_h5_writer *h5; /* every rank's, written collectively (NULL: none) */
    sk_run_stats *stats;
    cli_rank_checkpoints *checkpoints;
} frame_out;

/* An output frame at `step`: checked (unless the chunk that reached it did), gathered, written by rank 0. */
static int emit_frame(ranks_run *r, const frame_out *out, long step, bool checked, sk_error *err)
{
    if (!checked && r->e)
        out->stats->diverged = sk_engine_check_frame(r->e);
    out->stats->last_frame = step;
    if (!r->writes) {
        out->stats->frames++;
        return cli_ranks_checkpoint_frame(out->checkpoints, step, err);
    }
    int rc = r->gathers ? gather(r, r->mine, r->whole, r->n, r->at, step, err) : take_share(r, r->mine, step, err);
    if (rc)
        return rc;
    for (int i = 0; r->rank == 0 && rc == SK_OK && i < out->n_sinks; i++)
        rc = out->sinks[i].frame(out->sinks[i].ctx, sk_frame_buffer_engine(r->whole, step), step, err);
    /* the HDF5 file from every rank's own share (collective calls: every rank writes, whatever the CSV did) */
    if (out->h5) {
        const int h5_rc = sk_h5_write_frame(out->h5, sk_frame_buffer_engine(r->mine, step), step, err);
        rc = rc ? rc : h5_rc;
    }
    if ((rc = agree(r, rc, err)))
        return rc;
    out->stats->frames++;
    return cli_ranks_checkpoint_frame(out->checkpoints, step, err);
}

/* sk_run's loop, with the chunks of steps and the stop agreed by every rank: they all stop at the same step. */
static int drive(ranks_run *r, const cli_plan *plan, const frame_out *out, cli_progress_bar *bar, sk_error *err)
{
    sk_run_stats *stats = out->stats;
    const double start = sk_seconds();
    /* a resumed run goes on from its checkpoint, whose frame the journal gave the outputs */
    long step = out->checkpoints->ck.resumed ? out->checkpoints->ck.resumed_at : 0, chunk = 1;
    uint64_t local_steps = 0;
    int rc = SK_OK;
    if (out->checkpoints->ck.resumed) {
        stats->diverged = r->e ? sk_engine_check_frame(r->e) : 0;
        stats->last_frame = step;
    } else {
        rc = emit_frame(r, out, step, false, err);
    }
    while (rc == SK_OK && step < plan->steps) {
        const long frame = sk_run_next_frame(step, plan->every, plan->steps);
        while (step < frame) {
            /* stop anywhere, chunk as rank 0 measured, particle-steps done for the progress bar */
            long msg[3] = {cli_stop_requested ? 1 : 0, r->rank == 0 ? chunk : 0, (long)local_steps}, all[3];
            MPI_Allreduce(msg, all, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            if (all[0]) {
                if (stats->last_frame != step && (rc = emit_frame(r, out, step, false, err)))
                    goto done;
                rc = sk_fail(err, SK_ERR_INTERRUPTED, "interrupted at step %ld of %ld", step, plan->steps);
                goto done;
            }
            if (r->rank == 0 && bar && step > 0)
                cli_draw_progress(bar, step, plan->steps, (uint64_t)all[2], sk_seconds() - start);
            long n = frame - step;
            if (n > all[1])
                n = all[1];
            const double t0 = sk_seconds();
            if (r->e && step + n == frame)
                local_steps += sk_engine_advance_checked(r->e, n, &stats->diverged);
            else if (r->e)
                local_steps += sk_engine_advance(r->e, n);
            const double dt = sk_seconds() - t0;
            stats->step_s += dt;
            stats->steps += n;
            step += n;
            double want = dt > 0 ? (double)n * CHUNK_SECONDS / dt : (double)n * 2;
            if (want > (double)n * 2)
                want = (double)n * 2;
            chunk = want < 1 ? 1 : (long)want;
        }
        rc = emit_frame(r, out, step, true, err);
    }
done:
    stats->wall_s = sk_seconds() - start;
    /* the totals of every rank: particle-steps and ropes diverged summed, stepping as long as the slowest */
    unsigned long long ps = local_steps, ps_all = 0, dv = stats->diverged, dv_all = 0;
    double step_s = stats->step_s;
    MPI_Allreduce(&ps, &ps_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&dv, &dv_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&step_s, &stats->step_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    stats->particle_steps = ps_all;
    stats->diverged = (size_t)dv_all;
    return rc;
}

/* The results table (rank 0's writer) at the step the run reached: every rank computes its ropes' state columns
 * from its engine and rank 0 gathers them, the rows in rope order, then commits it or keeps it marked incomplete
 * as one process does (a collective call; a failure is everyone's). */
static int write_results(ranks_run *r, sk_results_writer *results, bool complete, sk_error *err)
{
    const size_t mine = r->first[r->rank + 1] - r->first[r->rank], total = r->s->total_ropes;
    double *states = malloc((mine ? mine : 1) * SK_RESULTS_STATE_COLUMNS * sizeof *states), *all = NULL;
    int *n = NULL, *at = NULL;
    int rc = states ? SK_OK : sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; rc == SK_OK && i < mine; i++)
        rc = sk_results_rope_state(r->e, i, states + SK_RESULTS_STATE_COLUMNS * i, err);
    if (rc == SK_OK && total > (size_t)INT_MAX)
        rc = sk_fail(err, SK_ERR_INVALID, "%s: more than %d ropes is beyond a results table across processes",
                     r->s->source, INT_MAX);
    if (rc == SK_OK && r->rank == 0) {
        all = malloc((total ? total : 1) * SK_RESULTS_STATE_COLUMNS * sizeof *all);
        n = calloc((size_t)r->size, sizeof *n);
        at = calloc((size_t)r->size, sizeof *at);
        if (!all || !n || !at)
            rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
        for (int k = 0; rc == SK_OK && k < r->size; k++) {
            n[k] = (int)(r->first[k + 1] - r->first[k]);
            at[k] = (int)r->first[k];
        }
    }
    if ((rc = agree(r, rc, err)) == SK_OK) {
        /* a rope's columns as one element, so that the counts are ropes */
        MPI_Datatype row;
        MPI_Type_contiguous(SK_RESULTS_STATE_COLUMNS, MPI_DOUBLE, &row);
        MPI_Type_commit(&row);
        MPI_Gatherv(states, (int)mine, row, all, n, at, row, 0, MPI_COMM_WORLD);
        MPI_Type_free(&row);
    }
    if (rc == SK_OK && r->rank == 0 && (rc = sk_results_write_states(results, r->s, 0, total, all, err)) == SK_OK) {
        rc = complete ? sk_results_commit(results, err) : sk_results_keep_incomplete(results, err);
        results = NULL;
    }
    if (r->rank == 0)
        sk_results_abort(results);
    free(states);
    free(all);
    free(n);
    free(at);
    return agree(r, rc, err);
}

/* A resumed run writes its HDF5 file again from rank 0's frame journal, collectively: rank 0 hands each frame
 * the journal gives back to every rank (their ropes' shares, as gather's in reverse) and every rank writes its
 * own rows. Rank 0 announces each frame by its step and the end by -1 (after the journal's last frame, or its
 * failure); the other ranks follow (replay_follow) until then. */
typedef struct replay {
    ranks_run *r;
    sk_h5_writer *h5;
    bool ended; /* the other ranks have left replay_follow (rank 0 announced the end, or a frame failed) */
} replay;

/* One frame at `step` from rank 0's whole buffer (filled by the caller) into every rank's share, then written
 * (collective calls, rank 0's after its announcement of the step). */
static int replay_frame(ranks_run *r, sk_h5_writer *h5, long step, sk_error *err)
{
    int32_t *counts = r->rank == 0 ? sk_frame_buffer_counts(r->whole) : NULL;
    int64_t *marks = r->rank == 0 ? sk_frame_buffer_marks(r->whole) : NULL;
    MPI_Scatterv(counts, r->n, r->at, MPI_INT32_T, sk_frame_buffer_counts(r->mine), r->n[r->rank], MPI_INT32_T, 0,
                 MPI_COMM_WORLD);
    MPI_Scatterv(marks, r->n, r->at, MPI_INT64_T, sk_frame_buffer_marks(r->mine), r->n[r->rank], MPI_INT64_T, 0,
                 MPI_COMM_WORLD);
    int rc = sk_frame_buffer_set_counts(r->mine, err);
    const size_t reals = sk_frame_buffer_n_reals(r->mine);
    if (rc == SK_OK && reals > (size_t)INT_MAX)
        rc = sk_fail(err, SK_ERR_INVALID, "%s: a frame of more than %d numbers for one process is beyond a run "
                     "across processes: use more processes", r->s->source, INT_MAX);
    int want = (int)reals, *sizes = NULL, *place = NULL;
    if (r->rank == 0 && rc == SK_OK && (!(sizes = calloc((size_t)r->size, sizeof *sizes)) ||
                                        !(place = calloc((size_t)r->size, sizeof *place))))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if ((rc = agree(r, rc, err)) == SK_OK) {
        MPI_Gather(&want, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int k = 1; r->rank == 0 && k < r->size; k++)
            place[k] = place[k - 1] + sizes[k - 1];
        MPI_Scatterv(r->rank == 0 ? sk_frame_buffer_reals(r->whole) : NULL, sizes, place, MPI_SK_REAL,
                     sk_frame_buffer_reals(r->mine), want, MPI_SK_REAL, 0, MPI_COMM_WORLD);
        rc = agree(r, sk_h5_write_frame(h5, sk_frame_buffer_engine(r->mine, step), step, err), err);
    }
    free(sizes);
    free(place);
    return rc;
}

/* Rank 0's sink for the journal's frames (sk_journal_resume hands them over one by one). */
static sk_status replay_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    replay *p = ctx;
    int rc = sk_frame_buffer_fill(p->r->whole, e, 0, err);
    long announce = rc ? -1 : step;
    MPI_Bcast(&announce, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rc == SK_OK)
        rc = replay_frame(p->r, p->h5, step, err);
    p->ended = rc != SK_OK;
    return rc;
}

/* The other ranks' side of the replay, until rank 0 announces its end (-1). */
static int replay_follow(ranks_run *r, sk_h5_writer *h5, sk_error *err)
{
    for (;;) {
        long step = -1;
        MPI_Bcast(&step, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        if (step < 0)
            return SK_OK;
        const int rc = replay_frame(r, h5, step, err);
        if (rc)
            return rc;
    }
}

/* With tracked extremes, the ropes that gained energy no load can give, as one process warns of them: each rank
 * counts its own per group of the whole scenario (the first it holds, and its gain), rank 0 adds them up (a
 * collective call). */
static void energy_report(ranks_run *r, const sk_rope_diagnostics *start)
{
    const int groups = r->s->n_groups;
    const size_t first = r->first[r->rank];
    /* per group of the whole: flagged, first flagged rope (global), its gain */
    double *mine = calloc(3 * (size_t)(groups > 0 ? groups : 1), sizeof *mine), *all = NULL;
    int ok = mine != NULL;
    if (ok && r->rank == 0 && !(all = malloc(3 * (size_t)(groups > 0 ? groups : 1) * (size_t)r->size * sizeof *all)))
        ok = 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok) {
        free(mine);
        free(all);
        return; /* out of memory: a warning unsaid */
    }
    const sk_scenario *slice = r->e ? sk_engine_scenario(r->e) : NULL;
    for (int g = 0; slice && g < slice->n_groups; g++) {
        size_t flagged = 0, at = 0;
        double gain = 0;
        cli_energy_excess(r->e, g, start, &flagged, &at, &gain);
        const int whole = sk_scenario_find_rope(r->s, first + slice->groups[g].first_rope, NULL);
        mine[3 * whole] = (double)flagged;
        mine[3 * whole + 1] = (double)(first + at);
        mine[3 * whole + 2] = gain;
    }
    MPI_Gather(mine, 3 * groups, MPI_DOUBLE, all, 3 * groups, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int g = 0; r->rank == 0 && g < groups; g++) {
        size_t flagged = 0, at = 0;
        double gain = 0;
        /* the ranks hold the ropes in order: the first flagged is the lowest rank's */
        for (int k = r->size - 1; k >= 0; k--) {
            const double *x = all + 3 * ((size_t)k * (size_t)groups + (size_t)g);
            if (x[0] > 0) {
                flagged += (size_t)x[0];
                at = (size_t)x[1];
                gain = x[2];
            }
        }
        cli_energy_warn(r->s, g, flagged, at, gain);
    }
    free(mine);
    free(all);
}

static void free_run(ranks_run *r)
{
    sk_frame_buffer_free(r->mine);
    sk_frame_buffer_free(r->whole);
    sk_frame_buffer_free(r->mine_all);
    sk_frame_buffer_free(r->whole_all);
    free(r->n);
    free(r->at);
    free(r->n_all);
    free(r->at_all);
    free(r->first);
    sk_engine_destroy(r->e);
}

/* SKEIN_TEST_FAIL_RANK=K:STEP (tests): rank K fails its first frame at or after STEP, as a failure of its own
 * would (a disk, a node), so that the tests see every rank stop. */
static long injected_failure(int rank)
{
    const char *v = getenv("SKEIN_TEST_FAIL_RANK");
    int k;
    long step;
    if (v && sscanf(v, "%d:%ld", &k, &step) == 2 && k == rank && step >= 0)
        return step;
    return -1;
}

static int run_ranks(const cli_options *o, sk_error *err)
{
    ranks_run r = {.fail_step = -1};
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    r.fail_step = injected_failure(r.rank);
    r.writes = o->csv || o->h5 || o->vtk;
    const bool checkpointed = o->checkpoint || o->resume;
    /* rank 0 writes the CSV and the VTK directory from every rank's rows, and journals them in a checkpointed run */
    r.gathers = o->csv != NULL || o->vtk != NULL || (checkpointed && o->h5);
    sk_scenario s, mine;
    memset(&s, 0, sizeof s);
    memset(&mine, 0, sizeof mine);
    cli_plan plan = {0};
    cli_writers w = {0};
    sk_group_totals *start = NULL, *end = NULL;
    sk_rope_diagnostics *energy = NULL;
    int exit_status = SK_EXIT_OK;
    cli_rank_checkpoints ck = {.ck = {.resumed_at = -1, .last = -1}};

    int rc = SK_OK;
    /* rank 0 writes the outputs: it checks them, as one process does */
    if (r.rank == 0)
        rc = cli_check_outputs(o, o->command == CLI_RUN ? o->file : NULL, err);
    cli_claim claim = {.fd = -1}; /* rank 0 writes the checkpoint: it takes its name */
    if (rc == SK_OK && r.rank == 0)
        rc = cli_checkpoint_claim(&claim, o, err);
    if ((rc = agree(&r, rc, err))) {
        cli_checkpoint_unclaim(&claim);
        return sk_exit_status(rc);
    }
    rc = cli_load_shared(o, r.size, &s, err);
    /* rank 0 checks that no output is the warm start's file, as one process does */
    if (rc == SK_OK && r.rank == 0)
        rc = cli_check_warm_start(o, &s, err);
    if (rc == SK_OK && r.rank == 0)
        cli_stability_report(&s, false);
    if (rc == SK_OK)
        rc = cli_plan_make(o, &s, &plan, err);
    r.s = &s;
    if (rc == SK_OK && !(r.first = calloc((size_t)r.size + 1, sizeof *r.first)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if ((rc = agree(&r, rc, err)))
        goto done;

    split(&s, r.size, r.first);
    const size_t first = r.first[r.rank], count = r.first[r.rank + 1] - first;
    if (count > 0 && (rc = sk_scenario_slice(&s, first, count, &mine, err)) == SK_OK &&
        !(r.e = cli_engine_create(o, &mine, &s, first, o->engine, err)))
        rc = err->status;
    if (rc == SK_OK)
        rc = make_buffers(&r, plan.ropes, plan.n_ropes, &r.mine, &r.whole, &r.n, &r.at, err);
    size_t *every_rope = NULL;
    const bool totals = !o->quiet;
    if (rc == SK_OK && !(every_rope = malloc((s.total_ropes ? s.total_ropes : 1) * sizeof *every_rope)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; rc == SK_OK && i < s.total_ropes; i++)
        every_rope[i] = i;
    if (rc == SK_OK)
        rc = make_buffers(&r, every_rope, s.total_ropes, &r.mine_all, &r.whole_all, &r.n_all, &r.at_all, err);
    free(every_rope);
    const size_t n_groups = (size_t)(s.n_groups > 0 ? s.n_groups : 1);
    if (rc == SK_OK && (!(start = calloc(n_groups, sizeof *start)) || !(end = calloc(n_groups, sizeof *end))))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if ((rc = agree(&r, rc, err)))
        goto done;
    /* --resume puts each rank's ropes' states into its engine; the start totals are then the checkpoint's */
    if ((rc = cli_ranks_checkpoint_begin(&ck, o, &s, &plan, r.rank, r.size, r.first, r.e, start, err)))
        goto done;
    /* with tracked extremes, each rope's energy at the start: what an unstable step grows past (a resumed run
     * has lost it) */
    const bool energy_check = o->results && !ck.ck.resumed;
    if (energy_check && r.e && !(energy = cli_energy_start(r.e, &mine)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if ((rc = agree(&r, rc, err)))
        goto done;
    if ((totals || ck.ck.path) && !ck.ck.resumed && (rc = gather_all(&r, 0, err)) == SK_OK && r.rank == 0)
        rc = sk_group_totals_compute(sk_frame_buffer_engine(r.whole_all, 0), start, err);
    /* Outputs are opened last: the CSV, the VTK directory and the table by rank 0, the HDF5 file by every rank
     * together; one file each. */
    sk_frame_sink sinks[4];
    int n_sinks = 0;
    if (rc == SK_OK && r.rank == 0 && o->csv) {
        if ((w.csv = sk_csv_open(o->csv, s.dt, plan.ropes, plan.n_ropes, err)))
            sinks[n_sinks++] = (sk_frame_sink){sk_csv_frame_sink, w.csv};
        else
            rc = err->status;
    }
    if (rc == SK_OK && r.rank == 0 && o->vtk) {
        if ((w.vtk = sk_vtk_open(o->vtk, s.dt, plan.ropes, plan.n_ropes, cli_vtk_layout(o), err)))
            sinks[n_sinks++] = (sk_frame_sink){sk_vtk_frame_sink, w.vtk};
        else
            rc = err->status;
    }
    /* the results table: rank 0's, its rows gathered at the end */
    if (rc == SK_OK && r.rank == 0 && o->results && !(w.results = sk_results_open(o->results, &s, err)))
        rc = err->status;
    if ((rc = agree(&r, rc, err)))
        goto done;
    if (o->h5 &&
        !(w.h5 = sk_h5_open_collective(o->h5, &s, plan.ropes, plan.n_ropes, r.first[r.rank], r.first[r.rank + 1],
                                     plan.steps, plan.every, err)))
        rc = err->status;
    if ((rc = agree(&r, rc, err)))
        goto done;
    /* rank 0's frame journal; a resumed run's frames are written again first, the HDF5 file's by every rank.
     * The replay's sink stands for the HDF5 file among rank 0's outputs while the journal is made or resumed
     * (an output the journal is kept for), and leaves them after. */
    const bool replays = ck.ck.resumed && w.h5;
    replay rp = {&r, w.h5, false};
    if (w.h5 && r.rank == 0)
        sinks[n_sinks++] = (sk_frame_sink){replay_sink, &rp};
    cli_output_temps keep = cli_writers_temps(&w);
    if (r.rank != 0)
        keep.h5 = NULL;
    if (r.rank == 0) {
        rc = cli_checkpoint_attach(&ck.ck, o, &s, &plan, &keep, sinks, &n_sinks, start, err);
        if (replays && !rp.ended) {
            long end = -1;
            MPI_Bcast(&end, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        }
        if (w.h5) {
            /* the journal's sink goes on after it; the file from every rank's shares */
            for (int i = 0; i < n_sinks; i++)
                if (sinks[i].ctx == &rp) {
                    memmove(&sinks[i], &sinks[i + 1], (size_t)(n_sinks - i - 1) * sizeof *sinks);
                    n_sinks--;
                    break;
                }
        }
    } else if (replays) {
        rc = replay_follow(&r, w.h5, err);
    }
    if ((rc = agree(&r, rc, err)))
        goto done;

    cli_progress_bar bar = {false};
    const bool show_progress = r.rank == 0 && !o->quiet && isatty(STDERR_FILENO);
    sk_run_stats stats = {.last_frame = -1};
    const frame_out out_frames = {
        .sinks = sinks, .n_sinks = n_sinks, .h5 = w.h5, .stats = &stats, .checkpoints = &ck};
    struct sigaction old[2];
    cli_stop_requested = 0;
    cli_catch_stop_signals(old);
    rc = drive(&r, &plan, &out_frames, show_progress ? &bar : NULL, err);
    stats.frames += ck.ck.replayed;
    if (show_progress)
        cli_clear_progress(&bar);
    /* rank 0 commits, keeps marked incomplete or removes the outputs, once (the HDF5 file closed by every rank
     * first); a failure there is everyone's */
    int closed = cli_close_outputs(rc, &w, NULL, err);
    /* the table's rows are the ropes where the run ended (or stopped), from every rank (collective calls) */
    if (o->results && (rc == SK_OK || rc == SK_ERR_INTERRUPTED)) {
        /* a failure to commit another output (rank 0's) keeps its message */
        sk_error spare = {0};
        const bool failed = closed != rc;
        const int written = write_results(&r, w.results, rc == SK_OK, failed ? &spare : err);
        w.results = NULL;
        if (written && !failed)
            closed = written;
    }
    cli_restore_signals(old);
    /* a failure keeps the checkpoint (rank 0 has its files), and the failing rank's line says how to go on */
    if (rc != SK_OK && rc != SK_ERR_INTERRUPTED) {
        cli_checkpoint_end(&ck.ck, false, err);
        goto done;
    }
    const int commit = agree(&r, closed != rc ? closed : SK_OK, err);
    if (commit) {
        cli_checkpoint_end(&ck.ck, false, err);
        rc = commit;
        goto done;
    }

    const long reached = stats.last_frame;
    if (rc == SK_ERR_INTERRUPTED && r.rank == 0)
        cli_fail_interrupted(o, reached, plan.steps, err);
    if (rc == SK_OK && energy_check)
        energy_report(&r, energy);
    /* a finished run removes its checkpoint; any other says how to go on from it */
    if (r.rank == 0)
        cli_checkpoint_end(&ck.ck, rc == SK_OK, err);
    if (totals || stats.diverged) {
        int trc = gather_all(&r, reached, err);
        const sk_engine *whole = r.rank == 0 ? sk_frame_buffer_engine(r.whole_all, reached) : NULL;
        if (trc == SK_OK && r.rank == 0 && totals)
            trc = sk_group_totals_compute(whole, end, err);
        if ((trc = agree(&r, trc, err))) {
            rc = trc;
            goto done;
        }
        if (r.rank == 0 && rc == SK_OK && stats.diverged) {
            char list[512];
            cli_list_diverged(whole, s.total_ropes, list, sizeof list);
            sk_fail(err, SK_OK, "%zu of %zu ropes diverged: %s; each holds its last finite frame from then on",
                    stats.diverged, s.total_ropes, list);
            exit_status = SK_EXIT_DIVERGED;
        }
        if (r.rank == 0 && totals) {
            const cli_run_outputs outputs = {.csv = o->csv,
                                             .h5 = o->h5,
                                             .vtk = o->vtk,
                                             .results = o->results,
                                             .incomplete = rc == SK_ERR_INTERRUPTED,
                                             .resumed_at = ck.ck.resumed_at,
                                             .checkpoint = ck.ck.path,
                                             .checkpoint_step = cli_checkpoint_last(&ck.ck),
                                             .ranks = r.size,
                                             .isa = r.e ? sk_engine_isa(r.e) : "none",
                                             .threads = r.e ? sk_engine_threads(r.e) : 0};
            cli_print_summary(&s, whole, &plan, &stats, start, end, &outputs);
        }
    }
    fflush(stdout);

done:
    cli_abort_outputs(&w);
    free(energy);
    free(start);
    free(end);
    cli_ranks_checkpoint_free(&ck);
    cli_checkpoint_unclaim(&claim);
    free_run(&r);
    free(plan.ropes);
    sk_scenario_free(&mine);
    sk_scenario_free(&s);
    if (rc)
        return sk_exit_status(rc);
    /* rank 0 alone knows whether ropes diverged anywhere (it has every rank's count): its status is everyone's */
    MPI_Bcast(&exit_status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return exit_status;
}

int cli_run_ranks(const cli_options *o, sk_error *err)
{
    if (o->command != CLI_RUN || o->file || !o->resume)
        return run_ranks(o, err);
    /* --resume alone: the checkpoint says what to run (every rank reads it) */
    cli_options recalled = *o;
    cli_recalled texts;
    const int rc = cli_recall(&recalled, &texts, err), agreed = agree(NULL, rc, err);
    if (agreed) {
        if (!rc)
            cli_recalled_free(&texts);
        return sk_exit_status(agreed);
    }
    const int status = run_ranks(&recalled, err);
    cli_recalled_free(&texts);
    return status;
}
