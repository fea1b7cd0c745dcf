/* The ropes the viewer shows: each chosen rope of the scenario simulated alone by the scalar reference
 * engine (ropes never interact, so a rope alone moves exactly as it does inside the whole batch),
 * stepped together, reset, and measured (strain, energy, bounds). */
#ifndef SKEIN_VIEWER_SIM_H
#define SKEIN_VIEWER_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/engine.h"
#include "skein/scenario.h"
#include "skein/types.h"

/* A shown rope: the rope alone as a scenario of its own (a slice of the whole), a reference engine stepping
 * it, and the state the scene draws, read from the engine after each step or put there by a replay. */
typedef struct sk_view_rope {
    size_t global; /* rope index in the whole scenario */
    int group;
    size_t local; /* index within its group */
    sk_scenario *alone; /* the rope as a scenario of one rope */
    sk_engine *engine;  /* a reference engine over it */
    bool diverged; /* a position or velocity became non-finite: the rope is no longer stepped */
    int capacity;  /* its group's particles */
    int n;         /* particles present */
    sk_real *p, *v; /* [capacity][3] positions and velocities */
    bool *pinned;   /* [capacity] */
    sk_rope_hold hold; /* its links' rest length, the anchor point and the particle it holds */
    bool held_last;    /* the anchor holds the last particle present (a deploying rope's) */
} sk_view_rope;

typedef struct sk_view_sim {
    const sk_scenario *scenario; /* must outlive the sim */
    sk_view_rope *ropes;
    int n;
    long steps; /* steps taken since the start or the last reset */
    bool warm;  /* started from the scenario's "initial" frame, which a reset goes back to */
    bool has_ground;      /* the scenario's ground (ground.height of its text with every default filled in) */
    double ground_height; /* m */
} sk_view_sim;

/* The ropes with the given global indices (each below sk_scenario_ropes(s)), at their group's shape.
 * Returns 0, or SK_ERR_IO with err set when memory runs out (the sim is then empty). */
int sk_view_sim_init(sk_view_sim *sim, const sk_scenario *s, const size_t *global, int n, sk_error *err);

/* With the scenario's "initial" (a warm start), every rope from the frame of the earlier run's HDF5 output it
 * names, which a reset then goes back to; nothing without it. Not for a replay, whose frames come from its own
 * file. Returns 0, or the status with err set (sk_warm_start's refusals, out of memory); the sim is then
 * empty. */
int sk_view_sim_warm_start(sk_view_sim *sim, sk_error *err);
void sk_view_sim_free(sk_view_sim *sim);

/* One step of dt for every rope that has not diverged. */
void sk_view_sim_step(sk_view_sim *sim);

/* Back to the initial state (a warm start's, when the sim was warm started). Returns 0, or the status with
 * err set (the ropes are then unchanged). */
int sk_view_sim_reset(sk_view_sim *sim, sk_error *err);

/* Simulated time: steps * dt (s). */
double sk_view_sim_time(const sk_view_sim *sim);

/* Particle i of rope k (below ropes[k].n). */
sk_vec3 sk_view_sim_position(const sk_view_sim *sim, int k, int i);

/* Link i of rope k (joining particles i and i + 1): |d| / rest - 1 with rest the link's rest (or, for
 * rods and cables, nominal) length. */
double sk_view_sim_strain(const sk_view_sim *sim, int k, int i);

/* The largest |strain| over every link of every rope (0 without links; non-finite links skipped). */
double sk_view_sim_max_strain(const sk_view_sim *sim);

/* Total energy of rope k (J): kinetic + gravity potential + elastic, as docs/model.md section 10 defines
 * them (skein's rope diagnostics). */
double sk_view_sim_energy(const sk_view_sim *sim, int k);

/* Whether rope k's group has an anchor; its point x(t) (m) and the particle it holds. */
bool sk_view_sim_anchor(const sk_view_sim *sim, int k, double point[3], int *held);

/* The box around every finite particle and anchor point of every rope. Returns false when there is
 * none (lo and hi are then the origin). */
bool sk_view_sim_bounds(const sk_view_sim *sim, double lo[3], double hi[3]);

#endif
