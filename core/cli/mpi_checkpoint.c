/* Checkpoints of a run split across processes: one checkpoint file, a single process's (a single process resumes
 * it, and any number of processes resumes either). At each checkpoint every rank sends its ropes' full states
 * (sk_state_buffer) to rank 0, which writes the file with the library's writer; the frame journal is rank 0's,
 * which receives every frame anyway. A resumed run's ranks each read their own ropes from the file, whatever
 * the number of processes that wrote it. What crosses the network: each rope's state once per checkpoint. */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "skein/checkpoint.h"

#ifdef SKEIN_REAL_FLOAT
#define MPI_SK_REAL MPI_FLOAT
#else
#define MPI_SK_REAL MPI_DOUBLE
#endif

/* Every rank's status agreed, as mpi_run.c's: a failure anywhere is every rank's, its message the failing one's. */
static int agree(int rc, sk_error *err)
{
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst && !rc)
        err->message[0] = '\0';
    return rc ? rc : worst;
}

/* The numbers rank k sends: its ropes' reals and integers. */
static void block_of(const cli_rank_checkpoints *k, const sk_state_buffer *b, int rank, size_t *reals, size_t *ints)
{
    const size_t lo = k->first[rank], hi = k->first[rank + 1];
    *reals = sk_state_buffer_real_at(b, hi) - sk_state_buffer_real_at(b, lo);
    *ints = sk_state_buffer_int_at(b, hi) - sk_state_buffer_int_at(b, lo);
}

int cli_ranks_checkpoint_begin(cli_rank_checkpoints *k, const cli_options *o, const sk_scenario *s,
                               const cli_plan *plan, int rank, int size, const size_t *first, sk_engine *e,
                               sk_group_totals *start, sk_error *err)
{
    *k = (cli_rank_checkpoints){.rank = rank, .size = size, .first = first, .s = s, .e = e,
                                .every = plan->every, .steps = plan->steps};
    int rc = cli_checkpoint_begin_slice(&k->ck, o, s, plan, e, first[rank], start, err);
    k->ck.across_ranks = true;
    if (rc || !k->ck.path)
        return agree(rc, err);
    const sk_checkpoint_info *m = k->ck.from ? sk_checkpoint_meta(k->ck.from) : NULL;
    k->k = o->has_checkpoint_every ? o->checkpoint_every : m ? m->checkpoint_every : 1;
    const size_t count = first[rank + 1] - first[rank], groups = (size_t)(s->n_groups > 0 ? s->n_groups : 1);
    if (!(k->fields = calloc(groups, sizeof *k->fields)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if (rc == 0 && count > 0 && !(k->mine = sk_state_buffer_create(s, first[rank], count, err)))
        rc = err->status;
    if (rc == 0 && rank == 0 && !(k->whole = sk_state_buffer_create(s, 0, s->total_ropes, err)))
        rc = err->status;
    if (rc == 0 && k->mine) {
        size_t reals, ints;
        block_of(k, k->mine, rank, &reals, &ints);
        if (reals > INT_MAX || ints > INT_MAX)
            rc = sk_fail(err, SK_ERR_INVALID, "%s: the ropes' states of one process are more than %d numbers, beyond "
                         "a checkpoint across processes: use more processes", o->checkpoint ? o->checkpoint : o->resume,
                         INT_MAX);
    }
    /* which parts of their state each group's ropes keep, from the ranks that hold some */
    const sk_scenario *mine = e ? sk_engine_scenario(e) : NULL;
    for (int g = 0; rc == 0 && mine && g < mine->n_groups; g++)
        k->fields[sk_scenario_find_rope(s, first[rank] + mine->groups[g].first_rope, NULL)] =
            sk_engine_state_fields(e, g);
    if ((rc = agree(rc, err)))
        return rc;
    MPI_Allreduce(MPI_IN_PLACE, k->fields, (int)groups, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
    return 0;
}

int cli_ranks_checkpoint_frame(cli_rank_checkpoints *k, long step, sk_error *err)
{
    if (!k->ck.path || !sk_checkpoint_due(step, k->every, k->steps, k->k))
        return 0;
    int rc = 0;
    if (k->mine && !sk_state_buffer_fill(k->mine, k->e))
        rc = sk_fail(err, SK_ERR_INVALID, "%s: the %s engine cannot save its ropes", k->ck.path, sk_engine_kind(k->e));
    if ((rc = agree(rc, err)))
        return rc;
    size_t reals, ints;
    if (k->rank != 0 && k->mine) {
        block_of(k, k->mine, k->rank, &reals, &ints);
        MPI_Send(sk_state_buffer_reals(k->mine), (int)reals, MPI_SK_REAL, 0, 0, MPI_COMM_WORLD);
        MPI_Send(sk_state_buffer_ints(k->mine), (int)ints, MPI_INT64_T, 0, 1, MPI_COMM_WORLD);
    }
    if (k->rank == 0) {
        sk_real *to = sk_state_buffer_reals(k->whole);
        int64_t *to_ints = sk_state_buffer_ints(k->whole);
        for (int r = 0; r < k->size; r++) {
            if (k->first[r + 1] == k->first[r])
                continue;
            block_of(k, k->whole, r, &reals, &ints);
            sk_real *at = to + sk_state_buffer_real_at(k->whole, k->first[r]);
            int64_t *at_ints = to_ints + sk_state_buffer_int_at(k->whole, k->first[r]);
            if (r == 0) {
                memcpy(at, sk_state_buffer_reals(k->mine), reals * sizeof *at);
                memcpy(at_ints, sk_state_buffer_ints(k->mine), ints * sizeof *at_ints);
                continue;
            }
            MPI_Recv(at, (int)reals, MPI_SK_REAL, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(at_ints, (int)ints, MPI_INT64_T, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        /* as sk_checkpointer_sink: the journal first, so a checkpoint only ever counts frames on the disk */
        sk_checkpoint_info *info = k->ck.info;
        if (k->ck.journal)
            rc = sk_journal_sync(k->ck.journal, &info->journal_bytes, &info->journal_frames, err);
        info->step = step;
        const sk_engine *held = sk_state_buffer_engine(k->whole, step, k->e ? sk_engine_kind(k->e) : "none",
                                                       k->e ? sk_engine_isa(k->e) : "none", k->fields);
        if (rc == 0 && (rc = sk_checkpoint_write(k->ck.path, held, info, err)) == 0)
            k->ck.last = step;
    }
    return agree(rc, err);
}

void cli_ranks_checkpoint_free(cli_rank_checkpoints *k)
{
    cli_checkpoint_free(&k->ck);
    sk_state_buffer_free(k->mine);
    sk_state_buffer_free(k->whole);
    free(k->fields);
    *k = (cli_rank_checkpoints){.ck = {.resumed_at = -1, .last = -1}};
}
