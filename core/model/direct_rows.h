/* The direct chain solver's rows and bounds, shared by both engines (docs/model.md section 4.4). A rope of n
 * particles has 2n row slots, in the order the elimination runs along it: slot 0 the rod or cable anchor
 * (which holds particle 0: only non-deploying ropes have one), slot 2i + 1 the ground under particle i, slot
 * 2i + 2 link i (particles i, i + 1). Each row shares a particle only with rows at most two slots away, so
 * A = J W J^T is a band of width 2. */
#ifndef SKEIN_MODEL_DIRECT_ROWS_H
#define SKEIN_MODEL_DIRECT_ROWS_H

enum sk_row_kind {
    SK_ROW_NONE,
    SK_ROW_ROD,          /* equality: |p_b - p_a| = L */
    SK_ROW_CABLE,        /* inequality: |p_b - p_a| <= L */
    SK_ROW_ANCHOR_ROD,   /* equality: |x - p_a| = anchor length */
    SK_ROW_ANCHOR_CABLE, /* inequality: |x - p_a| <= anchor length */
    SK_ROW_GROUND        /* inequality: p_a.y >= ground height */
};

/* Solves per stage at most: the first, and one more after each round of released inequalities. */
#define SK_DIRECT_PASSES 4

/* A pivot at most this fraction of its diagonal entry marks a row that depends on the rows before it. */
#define SK_DIRECT_PIVOT_EPSILON (64 * SK_REAL_EPSILON)

/* A cable within this fraction of its length of being taut counts as taut: the round-off a projection leaves. */
#define SK_DIRECT_TAUT (64 * SK_REAL_EPSILON)

static inline int sk_direct_slots(int capacity) { return 2 * capacity; }

#endif
