/* The results table: one row per rope of a run, what a parameter study reads instead of every frame. Written
 * to a temporary beside the target, fsync'd and renamed only on success, as the CSV frames are
 * (core/io/text/csv_writer.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/files/temp_file.h"
#include "skein/output.h"
#include "scenario/scenario.h"
#include "io/text/text_outputs.h"

/* The columns before and after the swept keys. */
static const char *const lead_columns[] = {"rope", "group"};
static const char *const tail_columns[] = {
    "tip_x",   "tip_y",      "tip_z",             "tip_vx",           "tip_vy",       "tip_vz",  "kinetic",
    "gravity", "elastic",    "max_tension",       "max_strain",       "max_support_first", "max_support_last",
    "diverged_step"};
enum { LEAD = 2, TAIL = SK_RESULTS_STATE_COLUMNS };
_Static_assert(sizeof lead_columns / sizeof *lead_columns == LEAD, "lead columns");
_Static_assert(sizeof tail_columns / sizeof *tail_columns == TAIL, "tail columns");

/* The swept keys of every group, each once, in the order the groups first sweep them: keys[0 .. n - 1]
 * when keys is not NULL (room for max). Returns n. */
static int swept_keys(const sk_scenario *s, const char **keys, int max)
{
    int n = 0;
    for (int g = 0; g < s->n_groups; g++)
        for (int k = 0; k < s->groups[g].n_sweeps; k++) {
            const char *key = s->groups[g].sweeps[k].key;
            bool seen = false;
            for (int h = 0; h < g && !seen; h++)
                for (int j = 0; j < s->groups[h].n_sweeps && !seen; j++)
                    seen = strcmp(s->groups[h].sweeps[j].key, key) == 0;
            for (int j = 0; j < k && !seen; j++)
                seen = strcmp(s->groups[g].sweeps[j].key, key) == 0;
            if (seen)
                continue;
            if (keys && n < max)
                keys[n] = key;
            n++;
        }
    return n;
}

int sk_results_columns(const sk_scenario *s, const char **names, int max)
{
    const int swept = swept_keys(s, NULL, 0);
    const int total = LEAD + swept + TAIL;
    if (!names)
        return total;
    for (int i = 0; i < LEAD && i < max; i++)
        names[i] = lead_columns[i];
    if (max > LEAD)
        swept_keys(s, names + LEAD, max - LEAD);
    for (int i = 0; i < TAIL && LEAD + swept + i < max; i++)
        names[LEAD + swept + i] = tail_columns[i];
    return total;
}

/* The row's columns before its state's: rope, group and the swept keys' values (NaN where the rope's group does
 * not sweep a key), from the scenario alone. keys: the swept keys (swept_keys). */
static void row_params(const sk_scenario *s, const char *const *keys, int swept, size_t rope, double *values)
{
    size_t local = 0;
    const int g = sk_scenario_find_rope(s, rope, &local);
    const sk_group *group = &s->groups[g];
    int c = 0;
    values[c++] = (double)rope;
    values[c++] = (double)g;
    sk_rope_params rp;
    sk_group_rope_params(group, local, &rp);
    for (int k = 0; k < swept; k++) {
        double v = NAN; /* a key this rope's group does not sweep */
        for (int j = 0; j < group->n_sweeps; j++)
            if (strcmp(group->sweeps[j].key, keys[k]) == 0) {
                sk_real x;
                memcpy(&x, (const char *)&rp + group->sweeps[j].offset, sizeof x);
                v = (double)x;
            }
        values[c++] = v;
    }
}

sk_status sk_results_rope_state(const sk_engine *e, size_t rope, double *values, sk_error *err)
{
    const int n = sk_engine_rope_particles(e, rope);
    sk_real *pv = malloc(6 * (size_t)(n > 0 ? n : 1) * sizeof *pv);
    sk_real *tension = malloc((size_t)(n > 0 ? n : 1) * sizeof *tension);
    if (!pv || !tension) {
        free(pv);
        free(tension);
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", sk_engine_scenario(e)->source);
    }
    int c = 0;
    sk_engine_read_rope(e, rope, pv, pv + 3 * (size_t)n);
    for (int i = 0; i < 6; i++) /* the tip: the last particle present */
        values[c++] = n > 0 ? (double)pv[(i / 3) * 3 * (size_t)n + 3 * (size_t)(n - 1) + (size_t)(i % 3)] : NAN;
    sk_rope_diagnostics d;
    sk_engine_rope_diagnostics(e, rope, &d, tension);
    values[c++] = (double)d.kinetic;
    values[c++] = (double)d.gravity;
    values[c++] = (double)d.elastic;
    sk_real max_tension = (sk_real)NAN, max_strain = (sk_real)NAN;
    sk_engine_rope_extremes(e, rope, &max_tension, &max_strain); /* NaN when not tracked */
    values[c++] = (double)max_tension;
    values[c++] = (double)max_strain;
    sk_real max_first = (sk_real)NAN, max_last = (sk_real)NAN;
    sk_engine_rope_support_extremes(e, rope, &max_first, &max_last); /* NaN when not tracked */
    values[c++] = (double)max_first;
    values[c++] = (double)max_last;
    values[c++] = (double)sk_engine_rope_diverged(e, rope);
    free(pv);
    free(tension);
    return SK_OK;
}

sk_status sk_results_row(const sk_engine *e, size_t rope, double *values, int max, sk_error *err)
{
    const sk_scenario *s = sk_engine_scenario(e);
    const int swept = swept_keys(s, NULL, 0);
    if (max < LEAD + swept + TAIL)
        return sk_fail(err, SK_ERR_INVALID, "%s: a results row has %d columns, room was given for %d", s->source,
                       LEAD + swept + TAIL, max);
    const char **keys = malloc((size_t)(swept ? swept : 1) * sizeof *keys);
    if (!keys)
        return sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", s->source);
    swept_keys(s, keys, swept);
    row_params(s, keys, swept, rope, values);
    free(keys);
    return sk_results_rope_state(e, rope, values + LEAD + swept, err);
}

struct sk_results_writer {
    sk_temp_file out;
    int columns, swept;
    double *row;
    const char **keys; /* [swept] */
};

static void writer_free(sk_results_writer *w)
{
    free(w->row);
    free(w->keys);
    free(w);
}

static int io_fail(const sk_results_writer *w, sk_error *err, const char *what, int e)
{
    return sk_temp_file_fail(&w->out, err, what, e);
}

sk_results_writer *sk_results_open(const char *path, const sk_scenario *s, sk_error *err)
{
    sk_results_writer *w = calloc(1, sizeof *w);
    const int columns = sk_results_columns(s, NULL, 0);
    const char **names = malloc((size_t)columns * sizeof *names);
    if (w) {
        w->row = malloc((size_t)columns * sizeof *w->row);
        w->swept = swept_keys(s, NULL, 0);
        w->keys = malloc((size_t)(w->swept ? w->swept : 1) * sizeof *w->keys);
    }
    if (!w || !w->row || !w->keys || !names) {
        sk_fail(err, SK_ERR_NO_MEMORY, "%s: out of memory", path);
        if (w)
            writer_free(w);
        free(names);
        return NULL;
    }
    w->columns = columns;
    swept_keys(s, w->keys, w->swept);
    if (sk_temp_file_open(&w->out, path, err) != SK_OK) {
        writer_free(w);
        free(names);
        return NULL;
    }
    sk_results_columns(s, names, columns);
    int rc = 0;
    for (int i = 0; i < columns && rc >= 0; i++)
        rc = fprintf(w->out.f, "%s%s", i ? "," : "", names[i]);
    free(names);
    if (rc < 0 || fputc('\n', w->out.f) == EOF) {
        io_fail(w, err, "write failed", errno);
        sk_results_abort(w);
        return NULL;
    }
    return w;
}

const char *sk_results_temp_path(const sk_results_writer *w) { return w->out.temp; }

/* One cell: integers as integers, reals as SK_REAL_FMT (they read back to the same bits), NaN empty. */
static int write_cell(FILE *f, int column, int columns, double v)
{
    const char *sep = column ? "," : "";
    if (isnan(v))
        return fprintf(f, "%s", sep);
    if (column < LEAD || column == columns - 1)
        return fprintf(f, "%s%.0f", sep, v);
    return fprintf(f, "%s" SK_REAL_FMT, sep, (sk_real)v);
}

/* The row in w->row: its cells and the line's end. */
static sk_status write_row(sk_results_writer *w, sk_error *err)
{
    for (int c = 0; c < w->columns; c++)
        if (write_cell(w->out.f, c, w->columns, w->row[c]) < 0)
            return io_fail(w, err, "write failed", errno);
    if (fputc('\n', w->out.f) == EOF)
        return io_fail(w, err, "write failed", errno);
    return SK_OK;
}

sk_status sk_results_write(sk_results_writer *w, const sk_engine *e, sk_error *err)
{
    const size_t ropes = sk_engine_scenario(e)->total_ropes;
    for (size_t r = 0; r < ropes; r++) {
        const sk_status st = sk_results_row(e, r, w->row, w->columns, err);
        if (st)
            return st;
        if (write_row(w, err))
            return err->status;
    }
    return SK_OK;
}

sk_status sk_results_write_states(sk_results_writer *w, const sk_scenario *s, size_t first, size_t count,
                                  const double *states, sk_error *err)
{
    for (size_t i = 0; i < count; i++) {
        row_params(s, w->keys, w->swept, first + i, w->row);
        memcpy(w->row + LEAD + w->swept, states + SK_RESULTS_STATE_COLUMNS * i, TAIL * sizeof *w->row);
        if (write_row(w, err))
            return err->status;
    }
    return SK_OK;
}

sk_status sk_results_commit(sk_results_writer *w, sk_error *err)
{
    const sk_status rc = sk_temp_file_commit(&w->out, false, err);
    writer_free(w);
    return rc;
}

sk_status sk_results_keep_incomplete(sk_results_writer *w, sk_error *err)
{
    const sk_status rc = sk_temp_file_commit(&w->out, true, err);
    writer_free(w);
    return rc;
}

void sk_results_abort(sk_results_writer *w)
{
    if (!w)
        return;
    sk_temp_file_abort(&w->out);
    writer_free(w);
}
