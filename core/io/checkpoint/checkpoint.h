/* Checkpoints and the frame journal: a long run made to survive a crash, a kill, a full disk or a power
 * cut, and resumed to the same bits as a run that never stopped. Internal: the skein program's
 * --checkpoint and --resume (docs/architecture.md lists the programs that include it). */
#ifndef SKEIN_IO_CHECKPOINT_H
#define SKEIN_IO_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine_state.h"
#include "engine/summary.h"
#include "scenario/scenario.h"
#include "skein/engine.h"
#include "skein/output.h"
#include "skein/types.h"
#include "io/text/text_outputs.h"
#include "io/hdf5/hdf5_output.h"


/* ---- the frame journal --------------------------------------------------------------------------------- */

/* The frame journal of a checkpointed run: every frame the run hands to its outputs, recorded in an
 * append-only file beside the checkpoint, so that a resumed run can write its outputs again from the start
 * and they come out as an uninterrupted run's, whatever state the interrupted run left them in (a kill
 * in the middle of an HDF5 write can leave that file unreadable; the journal is only ever appended to, so
 * what a checkpoint recorded of it is intact).
 *
 * File: a header (magic, format version, sizeof(sk_real), the run's id, the ropes recorded), then one
 * record per frame: its step, the particle counts and divergence marks of the ropes, then per rope its
 * diagnostics, positions, velocities and link tensions (then verlet's previous positions, and a deploying
 * rope's anchored segment s: what the HDF5 output keeps for a warm start), and a CRC-32 of the record.
 * Native byte order: a journal is read back by the machine that wrote it. */

typedef struct sk_journal sk_journal;

/* Creates the journal at path for frames of the given ropes (global indices, sorted, copied), replacing what is
 * there (a new file under a temporary name, renamed onto path: a link planted at path is replaced, never
 * followed); id ties it to the checkpoints that refer to it. NULL with err filled (SK_ERR_IO naming path, or
 * SK_ERR_NO_MEMORY). */
sk_journal *sk_journal_create(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                     uint64_t id, sk_error *err);

/* Appends the engine's current state of the ropes as the frame of `step` (buffered: sk_journal_sync makes
 * it durable). Returns SK_OK or SK_ERR_IO naming the file. */
sk_status sk_journal_append(sk_journal *j, const sk_engine *e, long step, sk_error *err);

/* sk_frame_sink adapter (ctx is the journal). */
sk_status sk_journal_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Writes out and fsyncs what was appended; *bytes and *frames (either may be NULL) get the journal's length
 * and its frames, what a checkpoint records. */
sk_status sk_journal_sync(sk_journal *j, uint64_t *bytes, long *frames, sk_error *err);

/* Reopens the journal of a run resumed from a checkpoint that recorded it at `bytes` bytes and `frames`
 * frames: checks its header against id, the real type and the ropes, and the checksum of each of those
 * frames, drops whatever follows them (what the interrupted run wrote after its checkpoint), then hands
 * each frame to the sinks through a stand-in engine whose ropes are the recorded ones. Appends go on after
 * them. NULL with err filled: SK_ERR_IO when the journal is missing or unreadable, SK_ERR_MISMATCH when it
 * is another run's, SK_ERR_CORRUPT when it is damaged or cut short, a link or not a regular file, or a sink's
 * failure. Every count in it is bounded by the checkpoint's and the file's size before it is used. */
sk_journal *sk_journal_resume(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                     uint64_t id, uint64_t bytes, long frames, const sk_frame_sink *sinks, int n_sinks,
                                     sk_error *err);

const char *sk_journal_path(const sk_journal *j);
long sk_journal_frames(const sk_journal *j);

/* Closes the file (without syncing what was appended since the last sync) and frees j. NULL is allowed. */
void sk_journal_close(sk_journal *j);

/* ---- checkpoints --------------------------------------------------------------------------------------- */

/* Checkpoints: the complete state of every
 * rope at an output frame, and what the run's outputs need to go on, in an HDF5 file written atomically
 * (a temporary beside it, fsync, rename, fsync of the directory), so that the file under its name is always
 * the last complete checkpoint. A resumed run puts the state back into an engine of the same kind and goes
 * on; its results are those of a run that never stopped, to the bit.
 *
 * A damaged file is refused rather than read: its first 512 bytes (the HDF5 user block) hold its length and
 * a CRC-32 of the rest, checked before HDF5 opens it; HDF5's latest format checksums its metadata too, and
 * every dataset is chunked with the Fletcher-32 filter. Layout:
 *   /                 attributes: format "skein checkpoint", version, real, engine ("batch" or "reference"),
 *                     isa, scenario (the normalised scenario JSON, overrides applied), source, step, steps,
 *                     every, checkpoint_every, csv and h5 (the outputs as named, "" for none), journal_id,
 *                     journal_bytes, journal_frames (the frame journal above), csv_temp and h5_temp (the
 *                     temporaries the outputs were being written to, "" for none); vtk, vtk_cells (its
 *                     sk_vtk_layout), vtk_temp, results and results_temp likewise (absent from checkpoints of
 *                     skeins before them: read as none)
 *   /ropes [ropes]    the ropes the outputs write (global indices)
 *   /summary_start [groups][8]  the summary's start totals: ropes, particles, diverged, kinetic, gravity,
 *                     elastic, has_links, max_tension
 *   /groups/<i>/      attributes count, particles, fields (SK_STATE_* the ropes keep); per rope:
 *     n, s, steps, diverged [count]; position [count][particles][3]; velocity, previous (same shape, as the
 *     fields say); impulse [count][particles] and contacts [count][2] (contacts, iterations) with contacts;
 *     extremes [count][4] (max tension, max strain as sk_engine_rope_extremes gives them, max support at the
 *     first and the last particle as sk_engine_rope_support_extremes gives them) when the engine tracked them;
 *     history_position, history_velocity [count][particles][3] and newton [count][3] (a step before: 0 or 1,
 *     the last step's solves, the steps not converged) with SK_STATE_HISTORY (BDF2) */

/* What a checkpoint records besides the ropes: the run it belongs to. */
typedef struct sk_checkpoint_info {
    long step;             /* the frame it was taken at */
    long steps, every;     /* the run's plan: its last step, its frame interval */
    long checkpoint_every; /* K */
    const size_t *ropes;   /* the ropes the outputs write */
    size_t n_ropes;
    const char *csv, *h5;  /* the outputs as named; NULL (written as "") for none */
    const char *csv_temp, *h5_temp; /* the temporaries the outputs are being written to (sk_csv_temp_path,
                                     * sk_h5_temp_path), NULL for none: what a resumed run removes, and no
                                     * other file. Read back only as a temporary of its output (its name,
                                     * ".tmp." and six letters or digits, as mkstemp makes them) */
    const char *vtk;          /* --vtk's directory as named, NULL for none */
    int vtk_cells;            /* its sk_vtk_layout */
    const char *vtk_temp;     /* its temporary directory (sk_vtk_temp_path), NULL for none; read back only as
                               * VTK.tmp. and six letters or digits */
    const char *results;      /* the results table as named (its rows come from the engine at the end, whose
                               * extremes the checkpoint keeps), NULL for none */
    const char *results_temp; /* its temporary (sk_results_temp_path), as csv_temp */
    const char *checkpoint_temp; /* read back: the temporary the checkpoints of the run that wrote it are
                                  * written through (PATH.tmp. and six characters from journal_id), which a
                                  * kill in the middle of one leaves: a resumed run removes it */
    uint64_t journal_id, journal_bytes; /* the frame journal (id 0: none, the run has no outputs) */
    long journal_frames;
    const sk_group_totals *start; /* [groups]: the summary's start totals */
    const char *engine;           /* read back: the kind of engine that wrote it (sk_engine_kind); the
                                   * writer takes the engine's own */
    const char *scenario, *source; /* read back: the scenario's normalised text (overrides applied) and the
                                    * file it was loaded from; the writer takes the engine's scenario */
} sk_checkpoint_info;

/* Writes the engine's state at its current step (which must be a frame just checked: sk_run's sinks are
 * called right after the check) with info into path, atomically; an existing checkpoint is replaced only
 * once the new one is complete and synced. Returns SK_OK, or SK_ERR_IO (SK_ERR_NO_MEMORY) naming path, the
 * old checkpoint (if any) left as it was and no temporary left behind. */
sk_status sk_checkpoint_write(const char *path, const sk_engine *e, const sk_checkpoint_info *info,
                                     sk_error *err);

/* Seals a checkpoint file: records its length and a CRC-32 of its bytes in its HDF5 user block (the first
 * 512 bytes, which HDF5 leaves to the user), and syncs it. sk_checkpoint_write does it; a tool that edits a
 * checkpoint with HDF5 calls it again. Returns 0 or an errno value. */
int sk_checkpoint_seal(const char *path);

typedef struct sk_checkpoint sk_checkpoint;

/* Opens a checkpoint to resume scenario s (loaded with the same overrides). NULL with err filled:
 * SK_ERR_INVALID when the file is missing, SK_ERR_IO when it is unreadable, SK_ERR_CORRUPT when it is not a
 * skein checkpoint, is damaged or cut short, SK_ERR_MISMATCH when it belongs to another scenario or real
 * type. With s NULL it goes on with the scenario it recorded (meta's scenario and source), loaded and checked
 * like any scenario text (SK_ERR_CORRUPT when that fails); restore then needs an engine for that scenario, one
 * loaded from meta's text or the same file. */
sk_checkpoint *sk_checkpoint_open(const char *path, const sk_scenario *s, sk_error *err);

/* What the checkpoint recorded (valid until sk_checkpoint_close). */
const sk_checkpoint_info *sk_checkpoint_meta(const sk_checkpoint *c);

/* Puts every rope's state into e (created for the scenario given to open, at step 0) and stands it at the
 * checkpoint's step. Returns SK_OK, SK_ERR_MISMATCH when e is not of the kind of engine that wrote it (their
 * states differ), SK_ERR_CORRUPT when the ropes' data is damaged, SK_ERR_NO_MEMORY. */
sk_status sk_checkpoint_restore(sk_checkpoint *c, sk_engine *e, sk_error *err);

/* The same for one process of a run split across several: e is an engine over the ropes first .. first + n - 1
 * of the checkpoint's scenario (sk_scenario_slice), and gets only those ropes' states, whatever number of
 * processes wrote the checkpoint. */
sk_status sk_checkpoint_restore_slice(sk_checkpoint *c, sk_engine *e, size_t first, sk_error *err);

void sk_checkpoint_close(sk_checkpoint *c);

/* ---- ropes' states streamed to one writer: a run split across processes writes its checkpoint --------- */

/* The full states (sk_rope_state) of a few consecutive ropes as two flat arrays, one fixed-size record per rope
 * (its group's capacity): reals p, v, q [capacity][3], impulse [capacity], s, the largest tension and strain
 * (sk_engine_rope_extremes; NaN when untracked or no link yet); integers n, steps, diverged,
 * contacts, iterations. The ranks of a run across processes send their ropes to rank 0 in such chunks, one
 * after the other as its checkpoint writer asks for them, so that no process holds more than a chunk. */
typedef struct sk_state_buffer sk_state_buffer;

/* Ropes per chunk: about 4 MiB of the scenario's largest records (at least 1). */
size_t sk_state_chunk_ropes(const sk_scenario *s);
/* Room for chunk ropes of any group of s. NULL with err filled (SK_ERR_NO_MEMORY). */
sk_state_buffer *sk_state_buffer_create(const sk_scenario *s, size_t chunk, sk_error *err);
/* Makes the buffer the ropes first .. first + count - 1 (count at most its chunk): the arrays' layout. */
void sk_state_buffer_place(sk_state_buffer *b, size_t first, size_t count);
/* Exports the placed ropes from e, whose rope 0 is rope e_first. False when e's kind of engine keeps no state. */
bool sk_state_buffer_fill(sk_state_buffer *b, const sk_engine *e, size_t e_first);
sk_real *sk_state_buffer_reals(sk_state_buffer *b);
int64_t *sk_state_buffer_ints(sk_state_buffer *b);
size_t sk_state_buffer_n_reals(const sk_state_buffer *b);
size_t sk_state_buffer_n_ints(const sk_state_buffer *b);
bool sk_state_buffer_holds(const sk_state_buffer *b, size_t rope);

/* A stand-in engine over every rope of s, of the given kind and instruction set, whose group g keeps fields[g]
 * (SK_STATE_*) and which tracks extremes when `extremes` (those the buffers carry): exporting a rope asks
 * fetch for the buffer that holds it (ropes are asked in increasing order, as sk_checkpoint_write does). What
 * sk_checkpoint_write reads of an engine; s, fields and ctx outlive it. */
typedef const sk_state_buffer *(*sk_state_fetch)(void *ctx, size_t rope);
typedef struct sk_state_engine sk_state_engine;
sk_state_engine *sk_state_engine_create(const sk_scenario *s, const char *kind, const char *isa,
                                               const unsigned *fields, bool extremes, sk_state_fetch fetch, void *ctx,
                                               sk_error *err);
const sk_engine *sk_state_engine_at(sk_state_engine *se, long step);
void sk_state_engine_free(sk_state_engine *se);
void sk_state_buffer_free(sk_state_buffer *b);

/* ---- during a run: the sink that journals the frames and writes the checkpoints ------------------- */

/* A checkpoint is taken at the first frame at or after each multiple of K steps: at frame f (a multiple of
 * every, 0 < f < steps) when a multiple of K lies in (f - every, f]; with K a multiple of every, that is
 * every K steps exactly. Never at step 0 (nothing to save), the last step (the run is done) nor the extra
 * frame of a stopped run (not a frame of the plan). */
bool sk_checkpoint_due(long step, long every, long steps, long k);

typedef struct sk_checkpointer sk_checkpointer;

/* A frame sink (place it after the outputs' sinks) that appends every frame to journal (when not NULL) and
 * at the frames sk_checkpoint_due names syncs the journal and writes the checkpoint at path. info gives the
 * run's plan (its step and journal fields are filled in at each checkpoint; a step > 0 is the checkpoint a
 * resumed run started from); it and what it points to must outlive the checkpointer. NULL with err filled
 * when out of memory. */
sk_checkpointer *sk_checkpointer_create(const char *path, const sk_checkpoint_info *info, sk_journal *journal,
                                               sk_error *err);
sk_status sk_checkpointer_sink(void *ctx, const sk_engine *e, long step, sk_error *err);
/* The step of the last checkpoint at path: the last one written, or the one a resumed run started from;
 * -1 when there is none. */
long sk_checkpointer_last(const sk_checkpointer *c);
void sk_checkpointer_destroy(sk_checkpointer *c);


#endif
