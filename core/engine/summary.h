/* Per-group totals of a batch at one moment: what the skein program's end-of-run summary prints and its
 * checkpoints keep of the start. Internal (docs/architecture.md lists the programs that include it). */
#ifndef SKEIN_ENGINE_SUMMARY_H
#define SKEIN_ENGINE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "skein/engine.h"

/* Per-group totals of a batch at one moment, for the end-of-run summary: energies summed over ropes,
 * the largest link tension, the ropes diverged, the contacts and resolver iterations of the last step. */
typedef struct sk_group_totals {
    size_t ropes;     /* ropes in the group */
    size_t particles; /* particles present */
    size_t diverged;  /* ropes marked diverged */
    /* sums over the group's ropes in rope order, one rope after another (never a parallel reduction,
     * whose order would change the bits), of each rope's diagnostics (docs/model.md section 10), in J */
    double kinetic, gravity, elastic;
    bool has_links;     /* some rope has a link */
    double max_tension; /* the largest link tension of any rope (N); 0 without links */
    /* Groups with contacts (sk_group_has_contacts): what each rope's last step did, the contacts it
     * generated and the resolver iterations it used, summed over the ropes and the largest. */
    bool has_contacts;
    uint64_t contacts, iterations;
    int max_contacts, max_iterations;
    /* BDF2 (sk_engine_rope_newton): the Newton solves of each rope's last step, summed and the largest, and
     * the steps that did not converge, summed, and the ropes that had any */
    bool has_newton;
    uint64_t solves, unconverged, unconverged_ropes;
    int max_solves;
} sk_group_totals;

/* Fills totals[0 .. n_groups - 1] from the engine's current state (a diverged rope counts with the state
 * it holds). Returns SK_OK, or SK_ERR_NO_MEMORY with err filled. */
sk_status sk_group_totals_compute(const sk_engine *e, sk_group_totals *totals, sk_error *err);

#endif
