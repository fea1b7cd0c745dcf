/* What the skein program asks of the text outputs (CSV, the results table, VTK) beyond skein/output.h: their
 * temporaries' names for its checkpoints, rows written from another process's ropes, a leftover's removal.
 * Internal (docs/architecture.md lists the programs that include it). */
#ifndef SKEIN_IO_TEXT_OUTPUTS_H
#define SKEIN_IO_TEXT_OUTPUTS_H

#include <stddef.h>
#include "skein/output.h"

/* Writes the rows of n particles of one rope at one step; p and v are [n][3]. */
sk_status sk_csv_write_rope(sk_csv_writer *w, size_t rope, long step, int n, const sk_real *p,
                             const sk_real *v, sk_error *err);

/* Writes the selected ropes of the engine's current state as the frame of `step`. */
sk_status sk_csv_write_frame(sk_csv_writer *w, const sk_engine *e, long step, sk_error *err);

/* The temporary's name (for tests and messages). */
const char *sk_csv_temp_path(const sk_csv_writer *w);

/* The same table from a run split across processes, whose engines each hold some of the ropes: a row's last
 * SK_RESULTS_STATE_COLUMNS columns (tip_x .. diverged_step) are its rope's state, the columns before them
 * (rope, group, the swept keys) the scenario's. sk_results_rope_state gives rope `rope` of e's state columns
 * (values[SK_RESULTS_STATE_COLUMNS]; SK_ERR_NO_MEMORY); sk_results_write_states writes the rows of ropes
 * first .. first + count - 1 of s (the whole run's scenario, the one the writer was opened for) from their
 * state columns (states[count][SK_RESULTS_STATE_COLUMNS]). Called for every rope in order, the file is
 * sk_results_write's byte for byte. */
#define SK_RESULTS_STATE_COLUMNS 14
sk_status sk_results_rope_state(const sk_engine *e, size_t rope, double *values, sk_error *err);
sk_status sk_results_write_states(sk_results_writer *w, const sk_scenario *s, size_t first, size_t count,
                                         const double *states, sk_error *err);

/* Removes a directory name's trailing slashes ("out/" is out), as the writer does with the name it is given. */
void sk_vtk_strip_slashes(char *dir);

/* Writes the selected ropes of the engine's current state (a diverged rope's last finite state) as the frame
 * of `step`. */
sk_status sk_vtk_write_frame(sk_vtk_writer *w, const sk_engine *e, long step, sk_error *err);

/* The temporary directory's name (for tests and messages), and the frames written so far. */
const char *sk_vtk_temp_path(const sk_vtk_writer *w);

/* Removes a directory of VTK output left behind (a killed run's temporary, named by its checkpoint; an earlier
 * run's DIR.incomplete): its files, then it, only when it holds nothing but files skein writes (a directory,
 * not a link); otherwise, or when it is absent, it is left as it is. */
void sk_vtk_remove_leftover(const char *dir);
long sk_vtk_frames(const sk_vtk_writer *w);

/* As sk_csv_temp_path. */
const char *sk_results_temp_path(const sk_results_writer *w);

/* Whether dir may become the output: it does not exist, or is an empty directory, or one that holds only what
 * this writer writes (skein.pvd, frame_*.vtp: an earlier output, which is replaced). SK_OK, or SK_ERR_INVALID
 * with err "DIR: why" (a file, not a directory; a directory holding a name skein did not write). */
sk_status sk_vtk_check_target(const char *dir, sk_error *err);

#endif
