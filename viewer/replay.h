/* Reading a batch run's HDF5 output (the layout of skein/output.h's HDF5 writer) for replay: the scenario stored in it,
 * the frame times, and the frames of the chosen ropes only (hyperslab reads), put back into the viewer's
 * ropes one frame at a time so the scene and render code draw them as they draw a live simulation. */
#ifndef SKEIN_VIEWER_REPLAY_H
#define SKEIN_VIEWER_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"
#include "skein/types.h"
#include "skein/scenario.h"

/* One chosen rope's frames. */
typedef struct sk_replay_rope {
    size_t global;
    int group;
    int capacity;     /* particles per frame slot */
    double *position; /* [frames][capacity][3] (m), as stored (0 past count) */
    int *count;       /* [frames] particles present */
    double *energy;   /* [frames] kinetic + gravity + elastic (J) */
    int64_t diverged; /* step it diverged at, -1 if never */
} sk_replay_rope;

typedef struct sk_replay {
    char *path;
    sk_scenario *scenario; /* from the file's scenario attribute */
    bool complete;        /* the file's complete attribute */
    long frames;
    double *time;  /* [frames] (s) */
    int64_t *step; /* [frames] */
    /* Every rope the file holds (global indices, ascending), for choosing and for messages. */
    size_t *stored;
    int *stored_group;    /* its group */
    size_t *stored_slot;  /* its index among the group's stored ropes */
    size_t n_stored;
    sk_replay_rope *ropes; /* the chosen ones, after sk_replay_read */
    int n_ropes;
} sk_replay;

/* Opens path and reads what every replay needs: the scenario, complete, /time, /step and which ropes
 * each group holds; no frames yet. The file is not trusted: every extent, index and count it gives is
 * checked against what it stores and the scenario it holds before anything is sized by it. Returns 0, or
 * with a one-line message naming the file: SK_ERR_INVALID when it cannot be opened or holds no frames or
 * ropes, SK_ERR_CORRUPT when it is not a skein HDF5 output or is damaged or crafted, SK_ERR_NO_MEMORY; *r
 * is then empty. */
int sk_replay_open(const char *path, sk_replay *r, sk_error *err);

/* Reads the frames of the given global ropes (n == 0: the first rope the file holds). A rope the file
 * does not hold is SK_ERR_INVALID, the message listing the ropes it holds (as ranges, like 0-3,7); frames
 * that cannot be read, or hold counts or marks no rope has, SK_ERR_CORRUPT. */
int sk_replay_read(sk_replay *r, const size_t *global, int n, sk_error *err);

void sk_replay_free(sk_replay *r);

/* The ropes the file holds as a list of ranges ("0-3,7"), cut with "..." past size. */
void sk_replay_stored_list(const sk_replay *r, char *out, size_t size);

/* Puts frame f (0 <= f < frames) of every chosen rope into sim, whose ropes are r->ropes in order
 * (sk_view_sim_init with their global indices on r->scenario): positions as stored, velocities 0, the
 * step of the frame (the anchor's point is then x(t) of that step), diverged from the stored step.
 * Returns 0, or SK_ERR_IO (memory) / SK_ERR_INVALID (a count the rope cannot have: damaged). */
int sk_replay_show(const sk_replay *r, long f, sk_view_sim *sim, sk_error *err);

#endif
