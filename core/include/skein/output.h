/* Runs and their outputs: the frame-by-frame driver that advances an engine and hands each output frame to
 * frame sinks, the CSV and HDF5 writers (sinks that write to a temporary renamed onto the file only when
 * the run is done), the per-group totals of a summary, and two engines compared frame by frame. */
#ifndef SKEIN_OUTPUT_H
#define SKEIN_OUTPUT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/engine.h"
#include "skein/scenario.h"
#include "skein/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the run driver ------------------------------------------------------------------------------------ */

/* A consumer of output frames (the CSV and HDF5 writers, a program's own). Called after the frame's
 * divergence check, so a diverged rope reads as its last finite state. Returns SK_OK, or a failure with err
 * filled (sk_fail), which stops the run. */
typedef struct sk_frame_sink {
    sk_status (*frame)(void *ctx, const sk_engine *e, long step, sk_error *err);
    void *ctx;
} sk_frame_sink;

typedef struct sk_run_options {
    long steps; /* the step the run ends at (the engine starts at sk_engine_step) */
    long every; /* frames at every multiple of `every`, >= 1 */
    const sk_frame_sink *sinks;
    int n_sinks;
    /* Called between chunks of steps with the step reached, the particle-steps done and seconds since
     * the start (a progress bar); may be NULL. */
    void (*progress)(void *ctx, long step, long steps, uint64_t particle_steps, double elapsed_s);
    void *progress_ctx;
    /* Set asynchronously (a signal handler) to stop the run between chunks; may be NULL. */
    volatile sig_atomic_t *stop;
    /* A run resumed from a checkpoint (skein run --resume): the engine's current step is a frame the sinks
     * had already (the checkpoint's own frame). It is checked again, which changes no rope (a check at the
     * step just checked finds what the last one left), but not handed to the sinks. */
    bool resumed;
} sk_run_options;

typedef struct sk_run_stats {
    uint64_t particle_steps; /* particles present at each step, summed */
    long steps;              /* steps taken */
    long frames;             /* frames handed to the sinks */
    long last_frame;         /* step of the last frame handed to the sinks (-1: none) */
    size_t diverged;         /* ropes marked diverged by the frame checks */
    double wall_s;           /* the whole run, frames included */
    double step_s;           /* time spent inside sk_engine_advance */
} sk_run_stats;

/* Output frames are the current step, every multiple of opt->every, and opt->steps. At each frame the
 * engine first checks every rope for divergence (docs/model.md section 10: the chunk of steps that reaches a
 * frame is advanced with sk_engine_advance_checked, which checks in the same pass), then the sinks get
 * it. Between frames the engine advances in chunks of about a tenth of a second when progress
 * or stop is given, so both are answered promptly (results do not depend on how steps are split).
 * When *opt->stop is set the chunk under way is finished, the step reached is handed to the sinks as a
 * last frame (unless it just was one) and SK_ERR_INTERRUPTED is returned. Returns SK_OK, the failing
 * sink's status or SK_ERR_INTERRUPTED (a run whose ropes diverged still returns SK_OK: see
 * stats->diverged); stats is filled in every case. */
SK_API sk_status sk_run(sk_engine *e, const sk_run_options *opt, sk_run_stats *stats, sk_error *err);

/* ---- CSV output ---------------------------------------------------------------------------------------- */

/* What a run stopped early (Ctrl-C) appends to an output's name: the file it kept is not the complete one. */
#define SK_INCOMPLETE_SUFFIX ".incomplete"

/* CSV output: one row per particle present per output frame per selected rope, numbers as SK_REAL_FMT (they
 * read back to the same bits), written to a temporary file and renamed onto the target only when the run
 * succeeded. */

/* The first line of every file. */
#define SK_CSV_HEADER "rope,step,time,particle,x,y,z,vx,vy,vz"

typedef struct sk_csv_writer sk_csv_writer;

/* Creates PATH.tmp.XXXXXX beside path and writes the header. dt gives each frame's time
 * (sk_real)step * dt; ropes (global indices, copied) are the ropes each frame writes. Returns NULL
 * with err filled (SK_ERR_IO naming path, or SK_ERR_NO_MEMORY) when the file cannot be created. */
SK_API sk_csv_writer *sk_csv_open(const char *path, sk_real dt, const size_t *ropes, size_t n_ropes,
                                  sk_error *err);

/* sk_frame_sink adapter (ctx is the writer). */
SK_API sk_status sk_csv_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Flushes, fsyncs, closes and renames the temporary onto path; frees w. On failure the temporary
 * is removed, path is untouched, and err names path. */
SK_API sk_status sk_csv_commit(sk_csv_writer *w, sk_error *err);

/* A run that stopped early (Ctrl-C) keeps what it wrote as PATH.incomplete, never under path itself (an
 * earlier complete file there stays as it was): the name says the file is incomplete. The rows end with
 * the frame of the step the run stopped at. Flushes, syncs, closes and renames as sk_csv_commit does. */
SK_API sk_status sk_csv_keep_incomplete(sk_csv_writer *w, sk_error *err);

/* Closes and removes the temporary, leaving path untouched; frees w. NULL is allowed. */
SK_API void sk_csv_abort(sk_csv_writer *w);

/* ---- the results table: one row per rope ---------------------------------------------------------------- */

/* A CSV table with a row per rope of the scenario (every rope, in global order) at the engine's current step,
 * for parameter studies (README.md, --results). Columns: rope (global index), group, one per key swept in any group
 * (the rope's value; empty where its group does not sweep the key), tip_x tip_y tip_z tip_vx tip_vy tip_vz
 * (the last particle present), kinetic gravity elastic (J), max_tension (N) and max_strain (the extremes over
 * every step, sk_engine_rope_extremes; empty when the engine does not track them or the rope had no link),
 * max_support_first and max_support_last (N: the largest support force magnitude at each end over every step,
 * sk_engine_rope_support_extremes; 0 at an end not held, empty when not tracked), and diverged_step (-1 if
 * never). Reals as SK_REAL_FMT (they read back to the same bits). */

/* The column names: returns how many there are, and writes the first max of them to names (may be NULL). The
 * names live as long as the scenario. */
SK_API int sk_results_columns(const sk_scenario *s, const char **names, int max);

/* One rope's row, values[sk_results_columns] in the columns' order: integers exact as doubles, NaN for an
 * empty cell. SK_ERR_INVALID when max is too small, SK_ERR_NO_MEMORY. */
SK_API sk_status sk_results_row(const sk_engine *e, size_t rope, double *values, int max, sk_error *err);

typedef struct sk_results_writer sk_results_writer;

/* Creates PATH.tmp.XXXXXX beside path and writes the header line. NULL with err filled (SK_ERR_IO naming
 * path, or SK_ERR_NO_MEMORY). */
SK_API sk_results_writer *sk_results_open(const char *path, const sk_scenario *s, sk_error *err);

/* Writes every rope's row at the engine's current step (once, at the end of a run). */
SK_API sk_status sk_results_write(sk_results_writer *w, const sk_engine *e, sk_error *err);

/* As sk_csv_commit, sk_csv_keep_incomplete (PATH.incomplete) and sk_csv_abort. */
SK_API sk_status sk_results_commit(sk_results_writer *w, sk_error *err);
SK_API sk_status sk_results_keep_incomplete(sk_results_writer *w, sk_error *err);
SK_API void sk_results_abort(sk_results_writer *w);

/* ---- HDF5 output --------------------------------------------------------------------------------------- */

/* HDF5 output: frames appended as the run goes, to a temporary renamed
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
 *     previous [frames][ropes][particles][3]  verlet runs only: the previous positions, slots past count 0
 *     segment [frames][ropes]              deploying groups only: the anchored segment's rest length s
 *                                          (both what a warm start needs, sk_warm_start)
 *     params/<key> [ropes]                 each swept parameter's per-rope value, key as written
 * Frame datasets are chunked one frame of a bounded number of ropes per chunk, compressed with shuffle and
 * deflate (level 1, chunks compressed in parallel on the writer's threads), extended and flushed frame by
 * frame, so a run that stops keeps what it wrote. */

typedef struct sk_h5_writer sk_h5_writer;

/* Creates PATH.tmp.XXXXXX beside path with the layout above and no frames; ropes (global indices,
 * sorted, copied) are the ropes each frame stores; steps and every are recorded as the run's plan; threads
 * compress chunks (0: sk_default_threads()). The scenario must outlive the writer. NULL with err filled
 * (SK_ERR_IO naming path, or SK_ERR_NO_MEMORY) on failure. */
SK_API sk_h5_writer *sk_h5_open(const char *path, const sk_scenario *s, const size_t *ropes, size_t n_ropes,
                                long steps, long every, int threads, sk_error *err);

/* sk_frame_sink adapter (ctx is the writer). */
SK_API sk_status sk_h5_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Closes, syncs and renames the temporary onto path, with the root attribute complete set to 1; or, when not
 * complete (a run stopped early), onto PATH.incomplete with complete = 0, never over path itself (an
 * earlier complete file there stays as it was). Frees w. On failure the temporary is removed, path is
 * untouched, err names path. */
SK_API sk_status sk_h5_finish(sk_h5_writer *w, bool complete, sk_error *err);

/* Closes and removes the temporary, leaving path untouched; frees w. NULL is allowed. */
SK_API void sk_h5_abort(sk_h5_writer *w);

/* ---- frames into arrays in memory --------------------------------------------------------------------- */

/* Arrays a program owns (the Python package's numpy arrays) that a run's frames are copied into, frame after
 * frame, with the values the HDF5 writer stores; slots past a rope's particles (and links) get NaN. Any
 * array may be NULL (not kept). */
typedef struct sk_frame_arrays {
    const size_t *ropes; /* global indices of the ropes each frame stores, in this order */
    size_t n_ropes;
    int particles;       /* slots per rope: at least the capacity of every stored rope's group */
    long max_frames;     /* frames the arrays have room for */
    sk_real *position;   /* [max_frames][n_ropes][particles][3] (m) */
    sk_real *velocity;   /* [max_frames][n_ropes][particles][3] (m/s) */
    int32_t *count;      /* [max_frames][n_ropes] particles present */
    sk_real *energy;     /* [max_frames][n_ropes][3] kinetic, gravity, elastic (J) */
    sk_real *tension;    /* [max_frames][n_ropes][particles - 1] link tension (N) */
    sk_real *support;    /* [max_frames][n_ropes][2][3] support force of the first and the last particle (N) */
    int64_t *step;       /* [max_frames] the step of each frame */
    int64_t *diverged;   /* [n_ropes] the step each rope diverged at, -1 if never (rewritten every frame) */
    long frames;         /* frames stored so far: 0 before the run */
} sk_frame_arrays;

/* sk_frame_sink adapter (ctx is an sk_frame_arrays): stores the frame at index frames and counts it. Fails
 * with SK_ERR_INVALID when the arrays are full or a rope has more particles than `particles`. */
SK_API sk_status sk_frame_arrays_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* ---- VTK output (ParaView) ------------------------------------------------------------------------------ */

/* A directory of VTK XML PolyData files, one per frame (frame_000000.vtp, ...), and the ParaView collection
 * skein.pvd listing each with its time. Each frame holds the selected ropes: points (m) rope after rope,
 * point data velocity (m/s) and particle (index along its rope), cells as the layout says, field data
 * TimeValue (s), step and rope (the global indices of the ropes, in order). Arrays are raw appended binary,
 * header_type UInt64, reals Float64 (Float32 in a float build), indices Int32 (particle) and Int64.
 * The directory is written as DIR.tmp.XXXXXX beside DIR and renamed onto it at the end. */

/* The file in the directory that ParaView opens. */
#define SK_VTK_COLLECTION "skein.pvd"

typedef enum sk_vtk_layout {
    /* One two-point line cell per link, rope after rope, with cell data tension (N, the link's) and rope
     * (its global index): colouring by tension shows each link's. The default. */
    SK_VTK_LINKS = 0,
    /* One polyline cell per rope, with cell data rope and max_tension (N, its largest link tension; 0 without
     * links). */
    SK_VTK_POLYLINES = 1
} sk_vtk_layout;

typedef struct sk_vtk_writer sk_vtk_writer;

/* Checks that dir may become the output (it does not exist, or holds nothing but an earlier output of this
 * writer, which is replaced) and creates the temporary directory DIR.tmp.XXXXXX beside it. dt gives
 * each engine frame's time (sk_real)step * dt; ropes (global indices, sorted, copied) are the ropes each
 * frame writes. NULL with err filled (SK_ERR_INVALID, SK_ERR_IO naming dir, SK_ERR_NO_MEMORY). */
SK_API sk_vtk_writer *sk_vtk_open(const char *dir, sk_real dt, const size_t *ropes, size_t n_ropes,
                                  sk_vtk_layout layout, sk_error *err);

/* Writes one frame from plain arrays, without an engine: n_ropes ropes with global indices rope_ids and
 * counts[r] particles each; p and v are [sum of counts][3] (the ropes' particles one rope after another),
 * tension [sum of max(count - 1, 0)] (each rope's links in turn), or NULL to leave tension out. time is the
 * frame's TimeValue. SK_ERR_INVALID for a negative count; SK_ERR_IO naming dir. */
SK_API sk_status sk_vtk_write_arrays(sk_vtk_writer *w, long step, sk_real time, size_t n_ropes,
                                     const size_t *rope_ids, const int *counts, const sk_real *p,
                                     const sk_real *v, const sk_real *tension, sk_error *err);

/* sk_frame_sink adapter (ctx is the writer). */
SK_API sk_status sk_vtk_frame_sink(void *ctx, const sk_engine *e, long step, sk_error *err);

/* Writes skein.pvd, syncs, and renames the temporary directory onto dir, replacing an earlier output there
 * (atomically where the file system can exchange two names); frees w. On failure the temporary is removed, dir
 * is untouched, and err names dir; except when dir has come to hold files skein did not write since the
 * writer was opened: then the complete temporary stays, its name in err (SK_ERR_IO). */
SK_API sk_status sk_vtk_commit(sk_vtk_writer *w, sk_error *err);

/* A run stopped early (Ctrl-C): as sk_vtk_commit, onto DIR.incomplete instead of dir, which stays as it was. */
SK_API sk_status sk_vtk_keep_incomplete(sk_vtk_writer *w, sk_error *err);

/* Removes the temporary directory, leaving dir untouched; frees w. NULL is allowed. */
SK_API void sk_vtk_abort(sk_vtk_writer *w);

/* ---- warm starts --------------------------------------------------------------------------------------- */

/* A scenario with "initial" {from, frame} starts every rope from a frame of an earlier run's HDF5 output:
 * puts each rope of e (just created, at step 0) at that frame's positions, velocities and particle counts,
 * with verlet's previous positions (the dataset previous) and a deploying group's anchored segment (segment)
 * where its scenario needs them, so that a run continued from frame k for the rest of the steps ends at the
 * earlier run's last frame to the bit (when no anchor is driven: time starts again at 0). The rest of each
 * rope's state is a fresh rope's (no contacts yet); a rope marked diverged in the file starts from the state
 * the file holds for it. The engine keeps that state as its start: a rope diverging
 * later is stepped again from it to its last sound frame. Does nothing without "initial". Returns SK_OK, or
 * with err filled naming the scenario, initial.from (or initial.frame) and the file: SK_ERR_INVALID (the file
 * is missing, the frame is out of range), SK_ERR_CORRUPT (not a skein HDF5 output, or damaged),
 * SK_ERR_MISMATCH (another real type, other groups or ropes, a file written with a subset of the ropes, a
 * state dataset missing, a frame without finite state), SK_ERR_IO, SK_ERR_NO_MEMORY; e is then in an
 * unspecified state. */
SK_API sk_status sk_warm_start(sk_engine *e, sk_error *err);

/* The same for an engine over some of the ropes (sk_scenario_slice_new(whole, first, count)): its ropes are put
 * at the frame of the whole's ropes first .. first + count - 1 (the file, written by the whole run, is checked
 * against the whole scenario): one process's share of a run split across several, a few ropes shown alone. */
SK_API sk_status sk_warm_start_slice(sk_engine *e, const sk_scenario *whole, size_t first, sk_error *err);

#ifdef __cplusplus
}
#endif

#endif
