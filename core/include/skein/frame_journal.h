/* The frame journal of a checkpointed run: every frame the run hands to its outputs, recorded in an
 * append-only file beside the checkpoint, so that a resumed run can write its outputs again from the start
 * and they come out as an uninterrupted run's, whatever state the interrupted run left them in (a kill
 * in the middle of an HDF5 write can leave that file unreadable; the journal is only ever appended to, so
 * what a checkpoint recorded of it is intact).
 *
 * File: a header (magic, format version, sizeof(sk_real), the run's id, the ropes recorded), then one
 * record per frame: its step, the particle counts and divergence marks of the ropes, then per rope its
 * diagnostics, positions, velocities and link tensions, and a CRC-32 of the record. Native byte order:
 * a journal is read back by the machine that wrote it. */
#ifndef SKEIN_FRAME_JOURNAL_H
#define SKEIN_FRAME_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "skein/engine.h"
#include "skein/error.h"
#include "skein/run.h"

typedef struct sk_journal sk_journal;

/* Creates (or empties) the journal at path for frames of the given ropes (global indices, sorted, copied);
 * id ties it to the checkpoints that refer to it. NULL with err filled (SK_EXIT_FAILURE naming path). */
sk_journal *sk_journal_create(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                              uint64_t id, sk_error *err);

/* Appends the engine's current state of the ropes as the frame of `step` (buffered: sk_journal_sync makes
 * it durable). Returns 0 or SK_EXIT_FAILURE naming the file. */
int sk_journal_append(sk_journal *j, const sk_engine *e, long step, sk_error *err);

/* sk_frame_sink adapter (ctx is the journal). */
int sk_journal_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Writes out and fsyncs what was appended; *bytes and *frames (either may be NULL) get the journal's length
 * and its frames, what a checkpoint records. */
int sk_journal_sync(sk_journal *j, uint64_t *bytes, long *frames, sk_error *err);

/* Reopens the journal of a run resumed from a checkpoint that recorded it at `bytes` bytes and `frames`
 * frames: checks its header against id, the real type and the ropes, and the checksum of each of those
 * frames, drops whatever follows them (what the interrupted run wrote after its checkpoint), then hands
 * each frame to the sinks through a stand-in engine whose ropes are the recorded ones (its thread count is
 * `threads`, for the writers' buffers). Appends go on after them. NULL with err filled: SK_EXIT_USAGE when
 * the journal is missing, another run's or damaged, SK_EXIT_FAILURE for I/O, or a sink's failure. */
sk_journal *sk_journal_resume(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                              uint64_t id, uint64_t bytes, long frames, const sk_frame_sink *sinks, int n_sinks,
                              int threads, sk_error *err);

const char *sk_journal_path(const sk_journal *j);
long sk_journal_frames(const sk_journal *j);

/* Closes the file (without syncing what was appended since the last sync) and frees j. NULL is allowed. */
void sk_journal_close(sk_journal *j);

#endif
