/* What the skein program asks of the HDF5 output and warm starts beyond skein/output.h: the collective file of
 * an MPI run, its temporary's name for checkpoints. Internal
 * (docs/architecture.md lists the programs that include it). */
#ifndef SKEIN_IO_HDF5_OUTPUT_H
#define SKEIN_IO_HDF5_OUTPUT_H

#include <stddef.h>
#include "skein/output.h"

/* The same file written collectively by every process of an MPI run (MPI_COMM_WORLD), through MPI-IO: every
 * process calls this and each later call on the writer alike, with the same arguments but first and end: it
 * writes the rows of ropes first .. end - 1 (its own, which its engine answers for; the processes' ranges
 * split the ropes) from its engine at each frame. Rank 0 names the temporary and renames it once. Only where
 * libskein is compiled against parallel HDF5 (the skein program with MPI); elsewhere it fails, SK_ERR_INVALID. */
sk_h5_writer *sk_h5_open_collective(const char *path, const sk_scenario *s, const size_t *ropes,
                                           size_t n_ropes, size_t first, size_t end, long steps, long every,
                                           sk_error *err);

/* Appends the engine's current state as the frame of `step` and flushes the file. */
sk_status sk_h5_write_frame(sk_h5_writer *w, const sk_engine *e, long step, sk_error *err);

/* The temporary's name (for tests and messages). */
const char *sk_h5_temp_path(const sk_h5_writer *w);

/* Frames written so far. */
long sk_h5_frames(const sk_h5_writer *w);

#endif
