/* The kernel functions of one ISA build, private to kernels/ (table.c gathers them into sk_kernels). */
#ifndef SKEIN_KERNELS_STEP_H
#define SKEIN_KERNELS_STEP_H

#include "pack.h"
#include "simd.h"

/* Ropes that do not deploy: the fused streaming step. */
void SK_KNAME(sk_kernel_fixed_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                       long steps);

/* Deploying ropes: deployment, then the same step with per-lane particle counts. */
void SK_KNAME(sk_kernel_deploy_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                        long steps, uint64_t *lane_steps);

/* Ropes with contacts: each step the force pass above, then the contact phase (kernels/contacts.h). */
void SK_KNAME(sk_kernel_contact_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                         long steps, uint64_t *lane_steps);

/* The implicit integrator (fixed or deploying ropes): each step its solve, in scratch from
 * sk_kernel_implicit_scratch (64-byte aligned; NULL when it cannot be had; freed with free). */
sk_real *SK_KNAME(sk_kernel_implicit_scratch)(const sk_kernel_cfg *cfg);
void SK_KNAME(sk_kernel_implicit_advance)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step0,
                                          long steps, uint64_t *lane_steps, sk_real *scratch);

void SK_KNAME(sk_kernel_diagnose)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state,
                                  long step, sk_real *diag, sk_real *tension);
/* Folds each lane's link tensions and strains and its held ends' support forces at step `step` into extremes
 * [SK_X_COUNT][W] (kernels/track_extremes.c); false when the support forces' scratch cannot be had. */
bool SK_KNAME(sk_kernel_track_extremes)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state,
                                        long step, sk_real *extremes);
unsigned SK_KNAME(sk_kernel_finite_lanes)(const sk_kernel_cfg *cfg, const sk_real *param,
                                          const sk_real *state);
unsigned SK_KNAME(sk_kernel_bounded_lanes)(const sk_kernel_cfg *cfg, const sk_real *param,
                                           const sk_real *state);

void SK_KNAME(sk_kernel_forces)(const sk_kernel_cfg *cfg, const sk_real *param, const sk_real *state, long step,
                                sk_real *force);
void SK_KNAME(sk_kernel_integrate)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state,
                                   const sk_real *force);
void SK_KNAME(sk_kernel_deploy)(const sk_kernel_cfg *cfg, sk_real *param, sk_real *state, long step);
void SK_KNAME(sk_kernel_contacts)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                  long steps);
void SK_KNAME(sk_kernel_resolve)(const sk_kernel_cfg *cfg, const sk_real *param, sk_real *state, long step,
                                 long steps);

#endif
