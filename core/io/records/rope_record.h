/* One rope's frame as flat reals: what the frame journal stores (frame_journal.c) and the processes of a run
 * send each other (frame_buffer.c). SK_RECORD_DIAG_REALS diagnostics (kinetic, gravity, elastic, the anchor
 * force's x y z, length, finite, contacts, iterations, the two support forces' x y z), positions [n][3], velocities [n][3], link tensions
 * [n - 1], then verlet's previous positions [n][3] and a deploying rope's s. */
#ifndef SKEIN_IO_ROPE_RECORD_H
#define SKEIN_IO_ROPE_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "skein/engine.h"
#include "engine/engine_state.h"

#define SK_RECORD_DIAG_REALS 16

/* Reals the record of a rope of n particles holds. */
size_t sk_rope_record_reals(bool verlet, bool deploys, int n);

/* The arrays of a rope's state for a capacity of cap particles (p, v, q [cap][3], impulse [cap]): the scratch
 * sk_rope_record_pack and the readers that export or import a rope take. False, nothing left allocated, when
 * out of memory. */
bool sk_rope_state_alloc(sk_rope_state *st, size_t cap);
void sk_rope_state_free(sk_rope_state *st);

/* Writes the record of the engine's rope (n particles) into d; scratch's p, v, q and impulse are arrays for the
 * rope's exported state (read for q and s). */
void sk_rope_record_pack(const sk_engine *e, size_t rope, int n, bool verlet, bool deploys, sk_rope_state *scratch,
                         sk_real *d);

/* What an engine standing in for recorded ropes reads back (sk_engine_read_rope, _rope_diagnostics,
 * _rope_contacts); d NULL for a rope the record does not hold. */
void sk_rope_record_read(const sk_real *d, int n, sk_real *p, sk_real *v);
void sk_rope_record_diagnostics(const sk_real *d, int n, sk_rope_diagnostics *out, sk_real *tension);
void sk_rope_record_contacts(const sk_real *d, int *contacts, int *iterations);

/* What the record holds of a rope's state (st's arrays for the group's capacity cap): positions, velocities,
 * verlet's previous positions, a deploying rope's s, the contact counts; the rest (impulses, a fixed rope's s,
 * the slots past n, all of it where d is NULL) 0. steps and diverged are the caller's. */
void sk_rope_record_export(const sk_real *d, int n, size_t cap, bool verlet, bool deploys, sk_rope_state *st);

#endif
