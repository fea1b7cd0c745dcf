/* HDF5 output (DESIGN.md "The command line"): frames appended as the run goes, to a temporary renamed
 * onto the target when the run ends; the file says inside whether the run completed.
 *
 * Layout (units in each dataset's "units" attribute):
 *   /                      attributes: scenario (the normalised scenario JSON), source, real ("double"
 *                          or "float"), steps and every (the run's plan), complete (0 while running or
 *                          when stopped early, 1 once the run finished)
 *   /time [frames]         s
 *   /step [frames]         the step of each frame
 *   /groups/<i>/           one per scenario group; attributes first_rope, count (ropes in the group),
 *                          particles (capacity); only the group's selected ropes are stored:
 *     ropes [ropes]                        global index of each stored rope
 *     position [frames][ropes][particles][3], velocity (same shape): slots past count hold 0
 *     count [frames][ropes]                particles present
 *     energy [frames][ropes][3]            kinetic, gravity, elastic (J)
 *     tension [frames][ropes][particles-1] link tension (N), 0 past the links present
 *     diverged [ropes]                     step the rope diverged at, -1 if never (rewritten each frame)
 *     params/<key> [ropes]                 each swept parameter's per-rope value, key as written
 * Frame datasets are chunked one frame of a bounded number of ropes per chunk, compressed with shuffle and
 * deflate (level 1, chunks compressed in parallel on the engine's threads), extended and flushed frame by
 * frame, so a run that stops keeps what it wrote. */
#ifndef SKEIN_H5_WRITER_H
#define SKEIN_H5_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/engine.h"
#include "skein/error.h"
#include "skein/scenario.h"

typedef struct sk_h5_writer sk_h5_writer;

/* Creates PATH.tmp.XXXXXX beside path with the layout above and no frames; ropes (global indices,
 * sorted, copied) are the ropes each frame stores; steps and every are recorded as the run's plan. The
 * scenario must outlive the writer. NULL with err filled (SK_EXIT_FAILURE naming path) on failure. */
sk_h5_writer *sk_h5_open(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                         long steps, long every, sk_error *err);

/* Appends the engine's current state as the frame of `step` and flushes the file. */
int sk_h5_write_frame(sk_h5_writer *w, const sk_engine *e, long step, sk_error *err);

/* sk_frame_sink adapter (ctx is the writer). */
int sk_h5_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Sets the root attribute complete (1 when complete, else it stays 0), closes, syncs and renames the
 * temporary onto path; frees w. On failure the temporary is removed, path is untouched, err names path. */
int sk_h5_finish(sk_h5_writer *w, bool complete, sk_error *err);

/* Closes and removes the temporary, leaving path untouched; frees w. NULL is allowed. */
void sk_h5_abort(sk_h5_writer *w);

/* The temporary's name (for tests and messages). */
const char *sk_h5_temp_path(const sk_h5_writer *w);

/* Frames written so far. */
long sk_h5_frames(const sk_h5_writer *w);

#endif
