/* Per-group totals of a batch at one moment, for the end-of-run summary: energies summed over ropes,
 * the largest link tension, the ropes diverged, the contacts and resolver iterations of the last step. */
#ifndef SKEIN_RUN_SUMMARY_H
#define SKEIN_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skein/engine.h"
#include "skein/error.h"

typedef struct sk_group_totals {
    size_t ropes;     /* ropes in the group */
    size_t particles; /* particles present */
    size_t diverged;  /* ropes marked diverged */
    /* sums over the group's ropes in rope order, one rope after another (never a parallel reduction,
     * whose order would change the bits), of each rope's diagnostics (SPEC.md section 10), in J */
    double kinetic, gravity, elastic;
    bool has_links;     /* some rope has a link */
    double max_tension; /* the largest link tension of any rope (N); 0 without links */
    /* Groups with contacts (sk_group_has_contacts): what each rope's last step did, the contacts it
     * generated and the resolver iterations it used, summed over the ropes and the largest. */
    bool has_contacts;
    uint64_t contacts, iterations;
    int max_contacts, max_iterations;
} sk_group_totals;

/* Fills totals[0 .. n_groups - 1] from the engine's current state (a diverged rope counts with the state
 * it holds). Returns 0, or SK_EXIT_FAILURE with err filled when the engine gives no diagnostics or
 * memory runs out. */
int sk_group_totals_compute(const sk_engine *e, sk_group_totals *totals, sk_error *err);

#endif
