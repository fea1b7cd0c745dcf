/* The contact phase of a step on a pack (docs/model.md sections 4 and 5), private to kernels/: the slots a
 * pack's contacts live in, the scratch that holds them for one step, generation and resolution.
 *
 * Every lane has the same slots, in the canonical order of the reference's contact list: one per link
 * (rod or cable), one for the anchor constraint, one per particle for the ground. A slot is active in a
 * lane when the reference would generate that contact for that rope this step, so a lane's active
 * slots, in slot order, are the reference's contact list, and "first index on a tie" is the same slot.
 * Per slot and lane the scratch keeps the normal, the penetration and a key: the separating velocity
 * where the resolver may pick the contact (vs < 0 or pen > 0, vs below the largest finite real), +inf
 * elsewhere, so one compare per slot finds each lane's pick. */
#ifndef SKEIN_KERNELS_CONTACTS_H
#define SKEIN_KERNELS_CONTACTS_H

#include <stdint.h>

#include "pack.h"
#include "params.h"
#include "model/real_math.h"
#include "skein/scenario.h"

/* Where each kind of slot starts; -1 where the group has none. */
typedef struct contact_slots {
    int links;  /* link slots 0 .. links - 1: link i joins particles i (a) and i + 1 (b) */
    int anchor; /* the anchor constraint's slot (particle 0 against the anchor point), or -1 */
    int ground; /* ground slots ground .. ground + capacity - 1, particle i against the plane, or -1 */
    int count;  /* slots in all */
} contact_slots;

SK_INLINE contact_slots contact_slots_of(const sk_kernel_cfg *cfg)
{
    contact_slots c = {0, -1, -1, 0};
    if (cfg->link == SK_LINK_ROD || cfg->link == SK_LINK_CABLE)
        c.links = cfg->capacity - 1;
    c.count = c.links;
    if (cfg->anchor == SK_ANCHOR_ROD || cfg->anchor == SK_ANCHOR_CABLE)
        c.anchor = c.count++;
    if (cfg->ground) {
        c.ground = c.count;
        c.count += cfg->capacity;
    }
    return c;
}

/* The particles of slot s: a, and b or -1 for the world (the anchor point, the ground). */
SK_INLINE void contact_slot_particles(const contact_slots *c, int s, int *a, int *b)
{
    if (s < c->links) {
        *a = s;
        *b = s + 1;
    } else if (s == c->anchor) {
        *a = 0; /* groups with a constraint do not deploy: it holds particle 0 */
        *b = -1;
    } else {
        *a = s - c->ground;
        *b = -1;
    }
}

/* The direct chain solver's scratch (kernels/contact_direct.c): per slot of model/direct_rows.h and lane the
 * row's normal (links and the anchor), gap, right-hand side, solution, diagonal of A and its factor; per slot the row
 * kind and masks of the lanes that have it, that solve with it, that held it in the velocity stage, that
 * release it, whose elimination dropped it;
 * verlet's velocities and per particle the lanes where a row moved it. */
typedef struct direct_scratch {
    sk_real *normal; /* [slot][3][W] */
    sk_real *gap, *scale, *rhs, *lambda, *a0, *inv, *l1, *l2; /* [slot][W] */
    unsigned char *kind; /* [slot] */
    unsigned *exists, *active, *held, *release, *dropped; /* [slot] lane bits */
    sk_real *vel;      /* [capacity][3][W] */
    sk_real *w;        /* [capacity][W]: each particle's inverse mass, set once a call */
    sk_real *inv_len;  /* [capacity][W]: with length profiles, each link's 1/L, set once a call */
    unsigned *touched; /* [capacity] lane bits */
} direct_scratch;

/* One step's contacts of a pack. Arrays are [slot][...][W] or [particle][...][W], 64-byte aligned. The
 * ground's normal is (0, 1, 0) in every slot: only the links' and the anchor's are stored. */
typedef struct contact_scratch {
    contact_slots slots;
    sk_real *normal;      /* [slot < ground][3][W] */
    sk_real *pen;         /* [slot][W] */
    sk_real *key;         /* [slot][W]: vs where pickable, +inf elsewhere; +inf up to a whole block */
    unsigned *active;     /* [slot]: bit l set where lane l generated it */
    unsigned *pushes;     /* [slot < ground]: bit l set where lane l generated a rod too short (it pushes) */
    sk_real *vel;         /* verlet: [capacity][3][W] velocities (p - q) / dt the contacts work on */
    sk_real *touched;     /* verlet: [capacity][W] 1 for a particle of a contact picked this step */
    int *candidates;      /* slots active in at least one lane, in slot order */
    int n_candidates;
    /* The scan's blocks: slots in blocks of CONTACT_BLOCK, each with every lane's smallest key and its
     * first slot, recomputed only when a key in it changed. Blocks holding candidates, in order: */
    int *block_slot;      /* [block]: its first slot (a multiple of CONTACT_BLOCK) */
    int *block_of_slot;   /* [slot]: its block among those, or -1 */
    uint64_t *dirty;      /* bit b of word b / 64: a key of block b changed since its minimum was taken */
    sk_real *block_min;   /* [block][W], +inf up to a whole group of CONTACT_BLOCK blocks */
    sk_real *block_pick;  /* [block][W] */
    int n_blocks;
    direct_scratch direct; /* the direct solver's, in place of all of the above */
} contact_scratch;

enum { CONTACT_BLOCK = 8 };



/* The slots whose normal is stored (links and anchor: every slot before the ground's). */
SK_INLINE int contact_normal_slots(const contact_slots *c) { return c->ground >= 0 ? c->ground : c->count; }

/* Bytes of scratch a pack of this group needs (0 for a group without contacts). */
size_t SK_KNAME(sk_contact_scratch_bytes)(const sk_kernel_cfg *cfg);

/* Lays the arrays out in `memory` (sk_contact_scratch_bytes of it, 64-byte aligned). */
void SK_KNAME(sk_contact_scratch_init)(contact_scratch *cs, const sk_kernel_cfg *cfg, void *memory);

/* Generates the contacts of the pack's current state at anchor point x: fills the slots and, for
 * verlet, the velocities; zeroes the touched flags; writes each lane's contact count to counts[W]. */
void SK_KNAME(sk_contact_generate)(const sk_kernel_cfg *cfg, const kparams *k, const sk_real *param,
                                   const sk_real *state, skv3 x, contact_scratch *cs, sk_real *counts);

/* Cyclone's resolver in every lane (after sk_contact_generate): moves the particles, writes verlet's
 * q for the touched ones, and the contact rows (impulses, contacts, iterations) of the state. */
void SK_KNAME(sk_contact_resolve)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state,
                                  contact_scratch *cs, const sk_real *counts);

/* The direct chain solver's scratch bytes and layout (for a group with "resolver": "direct"). */
size_t SK_KNAME(sk_direct_scratch_bytes)(const sk_kernel_cfg *cfg);
void SK_KNAME(sk_direct_scratch_init)(direct_scratch *ds, const sk_kernel_cfg *cfg, void *memory);

/* The direct chain solver's contact phase at anchor point x: velocities, then positions, verlet's q, and the
 * contact rows of the state (impulses, rows generated, solves). */
void SK_KNAME(sk_contact_direct)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, skv3 x,
                                 direct_scratch *ds);

/* The contact phase of one step (generation and resolution) at step `step`'s anchor point. */
void SK_KNAME(sk_contact_phase)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                contact_scratch *cs);

#endif
