/* CSV output: one row per particle present per output frame per selected rope, written to a
 * temporary file and renamed onto the target only when the run succeeded. */
#ifndef SKEIN_CSV_WRITER_H
#define SKEIN_CSV_WRITER_H

#include <stddef.h>

#include "skein/engine.h"
#include "skein/error.h"
#include "skein/real.h"

/* The first line of every file. */
#define SK_CSV_HEADER "rope,step,time,particle,x,y,z,vx,vy,vz"

typedef struct sk_csv_writer sk_csv_writer;

/* Creates PATH.tmp.XXXXXX beside path and writes the header. dt gives each frame's time
 * (sk_real)step * dt; ropes (global indices, copied) are the ropes each frame writes. Returns NULL
 * with err filled (SK_EXIT_FAILURE, naming path) when the file cannot be created. */
sk_csv_writer *sk_csv_open(const char *path, sk_real dt, const size_t *ropes, size_t n_ropes,
                           sk_error *err);

/* Writes the rows of n particles of one rope at one step; p and v are [n][3]. */
int sk_csv_write_rope(sk_csv_writer *w, size_t rope, long step, int n, const sk_real *p,
                      const sk_real *v, sk_error *err);

/* Writes the selected ropes of the engine's current state as the frame of `step`. */
int sk_csv_write_frame(sk_csv_writer *w, const sk_engine *e, long step, sk_error *err);

/* sk_frame_sink adapter (ctx is the writer). */
int sk_csv_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Flushes, fsyncs, closes and renames the temporary onto path; frees w. On failure the temporary
 * is removed, path is untouched, and err names path. */
int sk_csv_commit(sk_csv_writer *w, sk_error *err);

/* A run that stopped early (Ctrl-C) keeps what it wrote as PATH.incomplete, never under path itself:
 * the CSV format has no place to say it is incomplete, so the name says it. The rows end with the frame
 * of the step the run stopped at. Flushes, syncs, closes and renames as sk_csv_commit does; path is left
 * untouched. */
#define SK_CSV_INCOMPLETE_SUFFIX ".incomplete"
int sk_csv_keep_incomplete(sk_csv_writer *w, sk_error *err);

/* Closes and removes the temporary, leaving path untouched; frees w. NULL is allowed. */
void sk_csv_abort(sk_csv_writer *w);

/* The temporary's name (for tests and messages). */
const char *sk_csv_temp_path(const sk_csv_writer *w);

#endif
