/* skein run --resume FILE alone: the checkpoint recorded its run (the scenario as loaded, overrides applied,
 * the plan, the outputs and the engine), so the command line need not say it again. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "skein/checkpoint.h"

/* A copy of text, or NULL for NULL or "" (a checkpoint records "" for an output it does not have). */
static bool copy_text(const char *text, char **out)
{
    *out = NULL;
    if (!text || !text[0])
        return true;
    return (*out = strdup(text)) != NULL;
}

/* An output path the checkpoint recorded, taken without the user naming it: the checkpoint is a file, and a
 * crafted one must not choose what a run replaces. So it must be a relative path that stays below the
 * current directory (no "..", no control character) and name nothing yet (an interrupted run never leaves a
 * file under an output's own name: it keeps FILE.incomplete or temporaries). Otherwise the user names it. */
static int check_recalled_output(const char *checkpoint, const char *option, const char *path, sk_error *err)
{
    bool below = path[0] != '/';
    for (const char *p = path; below && *p; p++)
        below = (unsigned char)*p >= 0x20 && *p != 0x7f;
    for (const char *p = path; below && (p = strstr(p, "..")); p += 2)
        below = !((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'));
    if (!below) {
        char shown[256]; /* the path as it can be printed: control characters as '?' */
        size_t n = 0;
        for (const char *p = path; *p && n + 1 < sizeof shown; p++)
            shown[n++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
        shown[n] = '\0';
        return sk_fail(err, SK_ERR_INVALID,
                       "%s: records the output %s, outside the current directory; name it again with %s to write "
                       "there",
                       checkpoint, shown, option);
    }
    struct stat st;
    if (lstat(path, &st) == 0)
        return sk_fail(err, SK_ERR_INVALID,
                       "%s: records the output %s, which is there already; name it again with %s to replace it",
                       checkpoint, path, option);
    return 0;
}

int cli_recall(cli_options *o, cli_recalled *r, sk_error *err)
{
    *r = (cli_recalled){0};
    sk_checkpoint *c = sk_checkpoint_open(o->resume, NULL, err);
    if (!c)
        return err->status;
    const sk_checkpoint_info *m = sk_checkpoint_meta(c);
    int rc = 0;
    if (!copy_text(m->scenario, &r->scenario) || !copy_text(m->source, &r->source) || !copy_text(m->csv, &r->csv) ||
        !copy_text(m->h5, &r->h5) || !copy_text(m->vtk, &r->vtk) || !copy_text(m->results, &r->results) ||
        !copy_text(m->engine, &r->engine) ||
        !(r->ropes = malloc((m->n_ropes ? m->n_ropes : 1) * sizeof *r->ropes)))
        rc = sk_fail(err, SK_ERR_NO_MEMORY, "out of memory");
    else if (!r->scenario)
        rc = sk_fail(err, SK_ERR_CORRUPT, "%s: records no scenario; resume it with its scenario FILE", o->resume);
    if (rc == 0) {
        if (m->n_ropes)
            memcpy(r->ropes, m->ropes, m->n_ropes * sizeof *r->ropes);
        o->scenario_text = r->scenario;
        o->scenario_source = r->source ? r->source : o->resume;
        if (!o->has_steps && !o->has_duration) {
            o->has_steps = true;
            o->steps = m->steps;
        }
        if (!o->has_every) {
            o->has_every = true;
            o->every = m->every;
        }
        if (!o->ropes) {
            o->recalled_ropes = r->ropes;
            o->n_recalled_ropes = m->n_ropes;
        }
        if (!o->csv && r->csv && !(rc = check_recalled_output(o->resume, "--csv", r->csv, err)))
            o->csv = r->csv;
        if (rc == 0 && !o->h5 && r->h5 && !(rc = check_recalled_output(o->resume, "--h5", r->h5, err)))
            o->h5 = r->h5;
        if (rc == 0 && !o->vtk && r->vtk && !(rc = check_recalled_output(o->resume, "--vtk", r->vtk, err)))
            o->vtk = r->vtk;
        /* the layout goes with the directory it recorded */
        if (o->vtk && !o->vtk_cells && r->vtk && strcmp(o->vtk, r->vtk) == 0)
            o->vtk_cells = m->vtk_cells == SK_VTK_POLYLINES ? "ropes" : NULL;
        if (rc == 0 && !o->results && r->results &&
            !(rc = check_recalled_output(o->resume, "--results", r->results, err)))
            o->results = r->results;
        if (!o->engine)
            o->engine = r->engine;
    }
    sk_checkpoint_close(c);
    if (rc)
        cli_recalled_free(r);
    return rc;
}

void cli_recalled_free(cli_recalled *r)
{
    free(r->scenario);
    free(r->source);
    free(r->csv);
    free(r->h5);
    free(r->vtk);
    free(r->results);
    free(r->engine);
    free(r->ropes);
    *r = (cli_recalled){0};
}
