/* When a run checkpoints: a frame sink that journals every frame and, at the frames of the schedule,
 * makes the journal durable and then writes the checkpoint that records it (skein/checkpoint.h). */
#include <stdlib.h>

#include "io/checkpoint/checkpoint.h"

struct sk_checkpointer {
    const char *path;
    sk_checkpoint_info info; /* the plan; step and journal fields kept current */
    sk_journal *journal;
    long last;
};

bool sk_checkpoint_due(long step, long every, long steps, long k)
{
    if (step <= 0 || step >= steps || every < 1 || k < 1 || step % every != 0)
        return false;
    return step / k > (step - every) / k;
}

sk_checkpointer *sk_checkpointer_create(const char *path, const sk_checkpoint_info *info, sk_journal *journal,
                                        sk_error *err)
{
    sk_checkpointer *c = calloc(1, sizeof *c);
    if (!c) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        return NULL;
    }
    c->path = path;
    c->info = *info;
    c->journal = journal;
    c->last = info->step > 0 ? info->step : -1;
    return c;
}

sk_status sk_checkpointer_sink(void *ctx, const sk_engine *e, long step, sk_error *err)
{
    sk_checkpointer *c = ctx;
    int rc = c->journal ? sk_journal_append(c->journal, e, step, err) : 0;
    if (rc || !sk_checkpoint_due(step, c->info.every, c->info.steps, c->info.checkpoint_every))
        return rc;
    /* The journal first: a checkpoint only ever counts frames that are on the disk. */
    if (c->journal && (rc = sk_journal_sync(c->journal, &c->info.journal_bytes, &c->info.journal_frames, err)))
        return rc;
    c->info.step = step;
    if ((rc = sk_checkpoint_write(c->path, e, &c->info, err)))
        return rc;
    c->last = step;
    return 0;
}

long sk_checkpointer_last(const sk_checkpointer *c) { return c->last; }

void sk_checkpointer_destroy(sk_checkpointer *c) { free(c); }
