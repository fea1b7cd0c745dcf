/* Checkpoints of a run split across processes: one checkpoint file, a single process's (a single process resumes
 * it, and any number of processes resumes either). At each checkpoint every rank sends its ropes' full states
 * to rank 0 in chunks of a few MiB, each as the library's writer reaches it (sk_state_buffer, sk_state_engine),
 * so no process holds more than a chunk besides its engine; the frame journal is rank 0's, which receives every
 * frame anyway. A resumed run's ranks each read their own ropes from the file, whatever the number of
 * processes that wrote it. What crosses the network: each rope's state once per checkpoint. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/checkpoint/checkpoint.h"
#include "engine/engine_state.h"
#include "engine/summary.h"

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

/* Rank 0's writer asks for the ropes in order: the chunks that hold them come from their ranks in that order
 * (rank 0's own filled from its engine), until the one holding `rope` is there. */
static const sk_state_buffer *fetch(void *ctx, size_t rope)
{
    cli_rank_checkpoints *k = ctx;
    while (!sk_state_buffer_holds(k->buf, rope) && k->received < k->s->total_ropes) {
        int r = 0;
        while (k->first[r + 1] <= k->received)
            r++;
        const size_t lo = k->received, hi = lo + k->chunk < k->first[r + 1] ? lo + k->chunk : k->first[r + 1];
        sk_state_buffer_place(k->buf, lo, hi - lo);
        if (r == 0) {
            sk_state_buffer_fill(k->buf, k->e, 0);
        } else {
            MPI_Recv(sk_state_buffer_reals(k->buf), (int)sk_state_buffer_n_reals(k->buf), MPI_SK_REAL, r, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(sk_state_buffer_ints(k->buf), (int)sk_state_buffer_n_ints(k->buf), MPI_INT64_T, r, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        k->received = hi;
    }
    return k->buf;
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
    k->chunk = sk_state_chunk_ropes(s);
    /* SKEIN_TEST_CHECKPOINT_CHUNK=N (tests): N ropes per chunk, so that a small batch streams in many */
    const char *test_chunk = getenv("SKEIN_TEST_CHECKPOINT_CHUNK");
    if (test_chunk && atol(test_chunk) > 0)
        k->chunk = (size_t)atol(test_chunk);
    const size_t groups = (size_t)(s->n_groups > 0 ? s->n_groups : 1);
    if (!(k->fields = calloc(groups, sizeof *k->fields)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if (rc == 0 && !(k->buf = sk_state_buffer_create(s, k->chunk, err)))
        rc = err->status;
    if (rc == 0 && rank == 0 &&
        !(k->writer = sk_state_engine_create(s, e ? sk_engine_kind(e) : "none", e ? sk_engine_isa(e) : "none",
                                             k->fields, o->results != NULL, fetch, k, err)))
        rc = err->status;
    if (rc == 0 && e && strcmp(sk_engine_kind(e), "none") == 0)
        rc = sk_fail(err, SK_ERR_INVALID, "%s: this engine cannot save its ropes", k->ck.path);
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
    if (k->rank != 0) {
        /* this rank's ropes, a chunk at a time, as rank 0's writer reaches them */
        for (size_t lo = k->first[k->rank]; lo < k->first[k->rank + 1]; lo += k->chunk) {
            const size_t hi = lo + k->chunk < k->first[k->rank + 1] ? lo + k->chunk : k->first[k->rank + 1];
            sk_state_buffer_place(k->buf, lo, hi - lo);
            sk_state_buffer_fill(k->buf, k->e, k->first[k->rank]);
            MPI_Send(sk_state_buffer_reals(k->buf), (int)sk_state_buffer_n_reals(k->buf), MPI_SK_REAL, 0, 0,
                     MPI_COMM_WORLD);
            MPI_Send(sk_state_buffer_ints(k->buf), (int)sk_state_buffer_n_ints(k->buf), MPI_INT64_T, 0, 1,
                     MPI_COMM_WORLD);
        }
        if ((rc = agree(rc, err)) == 0)
            k->ck.last = step; /* for the line a failure of this rank ends with */
        return rc;
    }
    /* as sk_checkpointer_sink: the journal first, so a checkpoint only ever counts frames on the disk */
    sk_checkpoint_info *info = k->ck.info;
    if (k->ck.journal)
        rc = sk_journal_sync(k->ck.journal, &info->journal_bytes, &info->journal_frames, err);
    info->step = step;
    k->received = 0;
    sk_state_buffer_place(k->buf, 0, 0);
    if (rc == 0 && (rc = sk_checkpoint_write(k->ck.path, sk_state_engine_at(k->writer, step), info, err)) == 0)
        k->ck.last = step;
    /* whatever a failed write did not ask for is still on its way: taken and dropped */
    if (k->s->total_ropes > 0)
        fetch(k, k->s->total_ropes - 1);
    return agree(rc, err);
}

void cli_ranks_checkpoint_free(cli_rank_checkpoints *k)
{
    cli_checkpoint_free(&k->ck);
    sk_state_buffer_free(k->buf);
    sk_state_engine_free(k->writer);
    free(k->fields);
    *k = (cli_rank_checkpoints){.ck = {.resumed_at = -1, .last = -1}};
}
