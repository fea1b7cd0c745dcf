/* skein run's checkpoints: --checkpoint FILE --checkpoint-every K writes them, --resume FILE goes on from
 * one. A resumed run writes its outputs again from the frame journal, then goes on as the run that stopped
 * would have, so its outputs are that run's had it never stopped. */
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "io/checkpoint/checkpoint.h"
#include "skein/engine.h"
#include "skein/output.h"
#include "engine/summary.h"
#include "io/text/text_outputs.h"

#define JOURNAL_SUFFIX ".frames"

static bool same_text(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* The checkpoint belongs to this run: the same plan and outputs (the scenario, the real type and the
 * engine were checked when it was opened). */
static int check_plan(const char *path, const sk_checkpoint_info *m, const cli_options *o, const cli_plan *plan,
                      sk_error *err)
{
    if (m->steps != plan->steps)
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: the run that wrote it goes to step %ld, this one to step %ld: resume with the same "
                       "--steps or --duration",
                       path, m->steps, plan->steps);
    if (m->every != plan->every)
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: the run that wrote it has a frame every %ld steps, this one every %ld: resume with the "
                       "same --every",
                       path, m->every, plan->every);
    bool same = m->n_ropes == plan->n_ropes;
    for (size_t i = 0; same && i < m->n_ropes; i++)
        same = m->ropes[i] == plan->ropes[i];
    if (!same)
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: the run that wrote it writes other ropes (%zu of them): resume with the same --ropes",
                       path, m->n_ropes);
    if (!same_text(m->csv, o->csv) || !same_text(m->h5, o->h5))
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: the run that wrote it has the outputs%s%s%s%s%s: resume with the same --csv and --h5",
                       path, m->csv ? " --csv " : "", m->csv ? m->csv : "", m->h5 ? " --h5 " : "", m->h5 ? m->h5 : "",
                       m->csv || m->h5 ? "" : " none");
    const bool polylines = m->vtk_cells == SK_VTK_POLYLINES;
    if (!same_text(m->vtk, o->vtk) || (o->vtk && (int)cli_vtk_layout(o) != m->vtk_cells))
        return sk_fail(err, SK_ERR_MISMATCH,
                       "%s: the run that wrote it has %s%s%s: resume with the same --vtk and --vtk-cells", path,
                       m->vtk ? "--vtk " : "no --vtk", m->vtk ? m->vtk : "",
                       m->vtk ? (polylines ? " --vtk-cells ropes" : " --vtk-cells links") : "");
    if (!same_text(m->results, o->results))
        return sk_fail(err, SK_ERR_MISMATCH, "%s: the run that wrote it has %s%s: resume with the same --results",
                       path, m->results ? "--results " : "no --results", m->results ? m->results : "");
    return 0;
}

int cli_checkpoint_claim(cli_claim *k, const cli_options *o, sk_error *err)
{
    *k = (cli_claim){.fd = -1};
    const char *path = o->checkpoint ? o->checkpoint : o->resume;
    if (!path)
        return 0;
    const char *option = o->checkpoint ? "--checkpoint" : "--resume";
    const size_t len = strlen(path);
    if (!(k->path = malloc(len + sizeof CLI_CLAIM_SUFFIX)))
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    memcpy(k->path, path, len);
    memcpy(k->path + len, CLI_CLAIM_SUFFIX, sizeof CLI_CLAIM_SUFFIX);
    /* A lock taken on a file the run that held it has just removed is no claim: take the new file's. */
    for (int tries = 0; tries < 16; tries++) {
        const int fd = open(k->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            const int e = errno;
            free(k->path);
            k->path = NULL;
            return sk_fail(err, SK_ERR_IO, "%s %s: cannot create its lock %s%s: %s", option, path, path,
                           CLI_CLAIM_SUFFIX, strerror(e));
        }
        struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_SETLK, &lock) != 0) {
            const int e = errno;
            close(fd);
            free(k->path);
            k->path = NULL;
            if (e == EACCES || e == EAGAIN)
                return sk_fail(err, SK_ERR_INVALID,
                               "%s %s: another run is using this checkpoint (it holds %s%s); wait for it to end, "
                               "or name another checkpoint",
                               option, path, path, CLI_CLAIM_SUFFIX);
            return sk_fail(err, SK_ERR_IO, "%s %s: cannot lock %s%s: %s", option, path, path, CLI_CLAIM_SUFFIX,
                           strerror(e));
        }
        struct stat held, now;
        if (fstat(fd, &held) == 0 && stat(k->path, &now) == 0 && held.st_dev == now.st_dev &&
            held.st_ino == now.st_ino) {
            k->fd = fd;
            return 0;
        }
        close(fd);
    }
    free(k->path);
    k->path = NULL;
    return sk_fail(err, SK_ERR_INVALID, "%s %s: other runs keep taking this checkpoint; name another", option, path);
}

void cli_checkpoint_unclaim(cli_claim *k)
{
    /* removed while still held: a run waiting on this file finds it gone and claims a new one */
    if (k->fd >= 0) {
        unlink(k->path);
        close(k->fd);
    }
    free(k->path);
    *k = (cli_claim){.fd = -1};
}

int cli_checkpoint_begin_slice(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                               sk_engine *e, size_t first, sk_group_totals *start, sk_error *err)
{
    *c = (cli_checkpointing){.resumed_at = -1, .last = -1};
    if (!o->checkpoint && !o->resume)
        return 0;
    c->path = o->checkpoint ? o->checkpoint : o->resume;
    if (!(c->info = calloc(1, sizeof *c->info)))
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    if (o->checkpoint) {
        /* Starting over would drop its journal, and with it the outputs it could still resume. */
        struct stat st;
        if (lstat(o->checkpoint, &st) == 0)
            return sk_fail(err, SK_ERR_INVALID,
                           "%s: a checkpoint is there already: go on from it with --resume %s, or remove it to "
                           "start over",
                           o->checkpoint, o->checkpoint);
        return 0;
    }
    if (!(c->from = sk_checkpoint_open(o->resume, s, err)))
        return err->status;
    const sk_checkpoint_info *m = sk_checkpoint_meta(c->from);
    /* the two engines keep different state: say which flag resumes it */
    if (e && strcmp(m->engine, sk_engine_kind(e)) != 0)
        return sk_fail(err, SK_ERR_MISMATCH, "%s: written by the %s engine; resume it with --engine %s", o->resume,
                       m->engine, m->engine);
    int rc = check_plan(o->resume, m, o, plan, err);
    if (rc == 0 && e)
        rc = sk_checkpoint_restore_slice(c->from, e, first, err);
    if (rc)
        return rc;
    for (int g = 0; g < s->n_groups; g++)
        start[g] = m->start[g];
    c->resumed = true;
    c->resumed_at = m->step;
    c->last = m->step;
    return 0;
}

int cli_checkpoint_begin(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                         sk_engine *e, sk_group_totals *start, sk_error *err)
{
    int rc = cli_checkpoint_begin_slice(c, o, s, plan, e, 0, start, err);
    if (rc == 0 && o->checkpoint)
        rc = sk_group_totals_compute(e, start, err);
    return rc;
}

/* Removes the temporary an interrupted run was writing an output to, as its checkpoint names it (checked
 * there to be a temporary of that output): files beside the output that no checkpoint of this run names
 * (another run's temporaries, the user's own files) stay, and only a plain file is removed. */
static void remove_named_temp(const char *temp, const char *keep)
{
    struct stat st;
    if (temp && (!keep || strcmp(temp, keep) != 0) && lstat(temp, &st) == 0 && S_ISREG(st.st_mode))
        unlink(temp);
}

/* path made absolute against the working directory (malloc'd; NULL for NULL, or when out of memory, with
 * *failed set). A path already absolute, or a working directory that cannot be named, leaves it as it is. */
static char *absolute(const char *path, bool *failed)
{
    if (!path)
        return NULL;
    char cwd[PATH_MAX];
    const bool relative = path[0] != '/' && getcwd(cwd, sizeof cwd);
    const size_t len = (relative ? strlen(cwd) + 1 : 0) + strlen(path) + 1;
    char *out = malloc(len);
    if (!out) {
        *failed = true;
        return NULL;
    }
    snprintf(out, len, "%s%s%s", relative ? cwd : "", relative ? "/" : "", path);
    return out;
}

/* An id tying a journal to its checkpoints: random, never 0 (0 says "no journal"). */
static uint64_t journal_id(void)
{
    uint64_t id = 0;
    if (getrandom(&id, sizeof id, 0) != (ssize_t)sizeof id)
        id = (uint64_t)time(NULL) * 6364136223846793005ull ^ (uint64_t)getpid();
    return id ? id : 1;
}

int cli_checkpoint_attach(cli_checkpointing *c, const cli_options *o, const sk_scenario *s, const cli_plan *plan,
                          const cli_output_temps *keep, sk_frame_sink *sinks, int *n_sinks,
                          const sk_group_totals *start, sk_error *err)
{
    if (!c->path)
        return 0;
    const size_t len = strlen(c->path);
    if (!(c->journal_path = malloc(len + sizeof JOURNAL_SUFFIX)))
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    memcpy(c->journal_path, c->path, len);
    memcpy(c->journal_path + len, JOURNAL_SUFFIX, sizeof JOURNAL_SUFFIX);
    const sk_checkpoint_info *m = c->from ? sk_checkpoint_meta(c->from) : NULL;
    const char *const given[4] = {keep->csv, keep->h5, keep->vtk, keep->results};
    bool failed = false;
    for (int i = 0; i < 4; i++)
        c->temps[i] = absolute(given[i], &failed);
    if (failed)
        return sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    *c->info = (sk_checkpoint_info){
        .step = m ? m->step : 0,
        .steps = plan->steps,
        .every = plan->every,
        .checkpoint_every = o->has_checkpoint_every ? o->checkpoint_every : m ? m->checkpoint_every : 1,
        .ropes = plan->ropes,
        .n_ropes = plan->n_ropes,
        .csv = o->csv,
        .h5 = o->h5,
        .journal_id = m ? m->journal_id : 0,
        .journal_bytes = m ? m->journal_bytes : 0,
        .journal_frames = m ? m->journal_frames : 0,
        .csv_temp = c->temps[0],
        .h5_temp = c->temps[1],
        .vtk = o->vtk,
        .vtk_cells = o->vtk ? (int)cli_vtk_layout(o) : SK_VTK_LINKS,
        .vtk_temp = c->temps[2],
        .results = o->results,
        .results_temp = c->temps[3],
        .start = start,
    };
    if (c->resumed) {
        /* What the interrupted run left: a checkpoint cut short, its outputs half written. */
        remove_named_temp(m->checkpoint_temp, NULL);
        remove_named_temp(m->csv_temp, c->temps[0]);
        remove_named_temp(m->h5_temp, c->temps[1]);
        remove_named_temp(m->results_temp, c->temps[3]);
        /* the VTK frames of the interrupted run: written again from the journal into a new temporary */
        if (m->vtk_temp && (!c->temps[2] || strcmp(m->vtk_temp, c->temps[2]) != 0))
            sk_vtk_remove_leftover(m->vtk_temp);
    }
    if (*n_sinks > 0) {
        if (c->resumed) {
            if (m->journal_id == 0)
                return sk_fail(err, SK_ERR_CORRUPT, "%s: the run that wrote it kept no frame journal", c->path);
            c->journal = sk_journal_resume(c->journal_path, s, plan->ropes, plan->n_ropes, m->journal_id,
                                           m->journal_bytes, m->journal_frames, sinks, *n_sinks, err);
            if (!c->journal)
                return err->status;
            c->replayed = m->journal_frames;
        } else {
            c->info->journal_id = journal_id();
            c->journal = sk_journal_create(c->journal_path, s, plan->ropes, plan->n_ropes, c->info->journal_id, err);
            if (!c->journal)
                return err->status;
        }
    } else {
        c->info->journal_id = 0; /* no outputs: nothing to write again */
    }
    if (c->across_ranks) {
        if (c->journal)
            sinks[(*n_sinks)++] = (sk_frame_sink){sk_journal_frame_sink, c->journal};
        return 0;
    }
    if (!(c->sink = sk_checkpointer_create(c->path, c->info, c->journal, err)))
        return err->status;
    sinks[(*n_sinks)++] = (sk_frame_sink){sk_checkpointer_sink, c->sink};
    return 0;
}

long cli_checkpoint_last(const cli_checkpointing *c)
{
    if (!c->path)
        return -1;
    return c->sink ? sk_checkpointer_last(c->sink) : c->last;
}

void cli_checkpoint_end(cli_checkpointing *c, bool finished, sk_error *err)
{
    if (!c->path)
        return;
    sk_journal_close(c->journal);
    c->journal = NULL;
    if (finished) {
        /* The outputs are complete: nothing is left to resume. The checkpoint goes first: killed in between,
         * a journal without a checkpoint is only overwritten by the next run, while a checkpoint without its
         * journal could not be resumed. */
        unlink(c->path);
        if (c->journal_path)
            unlink(c->journal_path);
        /* what a Ctrl-C of an earlier run kept: superseded by the complete outputs */
        const char *const outputs[4] = {c->info->csv, c->info->h5, c->info->results, c->info->vtk};
        for (int i = 0; c->resumed && i < 4; i++) {
            char stale[PATH_MAX + sizeof SK_INCOMPLETE_SUFFIX];
            if (!outputs[i] || strlen(outputs[i]) >= PATH_MAX)
                continue;
            if (i < 3) {
                snprintf(stale, sizeof stale, "%s" SK_INCOMPLETE_SUFFIX, outputs[i]);
                unlink(stale);
            } else { /* the VTK writer names DIR.incomplete after DIR without its trailing slashes */
                snprintf(stale, sizeof stale, "%s", outputs[i]);
                sk_vtk_strip_slashes(stale);
                strcat(stale, SK_INCOMPLETE_SUFFIX);
                sk_vtk_remove_leftover(stale);
            }
        }
        return;
    }
    const long last = cli_checkpoint_last(c);
    /* A run that stops before its first checkpoint leaves nothing to resume from: its journal goes too. */
    if (last < 0 && !c->resumed && c->journal_path)
        unlink(c->journal_path);
    if (err->message[0] == '\0')
        return;
    const size_t used = strlen(err->message);
    if (last >= 0)
        snprintf(err->message + used, sizeof err->message - used,
                 "; the checkpoint %s (step %ld) is kept: go on from it with --resume %s", c->path, last, c->path);
    else
        snprintf(err->message + used, sizeof err->message - used, "; no checkpoint was taken yet");
}

void cli_checkpoint_free(cli_checkpointing *c)
{
    sk_journal_close(c->journal);
    sk_checkpointer_destroy(c->sink);
    sk_checkpoint_close(c->from);
    free(c->journal_path);
    free(c->info);
    for (int i = 0; i < 4; i++)
        free(c->temps[i]);
    *c = (cli_checkpointing){.resumed_at = -1, .last = -1};
}
