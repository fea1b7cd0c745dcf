/* Frames as flat arrays sent between the processes of a run split across several, and the stand-in engine that
 * reads them back. Internal: the skein program's MPI runs and the tests. */
#ifndef SKEIN_IO_FRAME_BUFFER_H
#define SKEIN_IO_FRAME_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include "skein/engine.h"

/* A frame of some ropes as three flat arrays, and a stand-in engine that reads them: how the processes of a
 * run split across several (skein under mpirun) send their ropes' frames to the one that writes the outputs.
 * Per rope: its particle count (int32), its divergence mark (int64, -1 if none), and its reals (diagnostics,
 * positions, velocities, link tensions, verlet's previous positions, a deploying rope's s, as the frame
 * journal records them). The arrays of consecutive ranges of ropes, put end to end, are those of the ropes
 * together. */
typedef struct sk_frame_buffer sk_frame_buffer;

/* A buffer for ropes (global indices of s, sorted, copied); s must outlive it. NULL with err filled
 * (SK_ERR_NO_MEMORY). */
sk_frame_buffer *sk_frame_buffer_create(const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                               sk_error *err);
void sk_frame_buffer_free(sk_frame_buffer *f);

/* Fills the arrays from engine e, whose rope i is rope first + i of the buffer's scenario (an engine over
 * a slice, sk_scenario_slice, or over the whole with first 0). SK_ERR_NO_MEMORY with err filled. */
sk_status sk_frame_buffer_fill(sk_frame_buffer *f, const sk_engine *e, size_t first, sk_error *err);

/* The arrays: counts and marks [n_ropes], reals [sk_frame_buffer_n_reals]; to be sent, or received into.
 * Once the counts are received, sk_frame_buffer_set_counts checks each against its rope's group and sizes
 * the reals for them (SK_ERR_CORRUPT, SK_ERR_NO_MEMORY). */
int32_t *sk_frame_buffer_counts(sk_frame_buffer *f);
int64_t *sk_frame_buffer_marks(sk_frame_buffer *f);
sk_real *sk_frame_buffer_reals(sk_frame_buffer *f);
size_t sk_frame_buffer_n_reals(const sk_frame_buffer *f);
sk_status sk_frame_buffer_set_counts(sk_frame_buffer *f, sk_error *err);

/* The frame as an engine over the buffer's scenario standing at `step`, for the output writers and
 * sk_group_totals_compute: its ropes read as the arrays say (a rope not in the buffer has no particles). It
 * does not advance; it lives as long as the buffer. */
const sk_engine *sk_frame_buffer_engine(sk_frame_buffer *f, long step);

#endif
