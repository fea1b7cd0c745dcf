/* Every per-rope number, listed once, in two X-macro tables: SK_ROPE_PARAMS (what a scenario gives a rope:
 * each line a sweepable key with its units and range, scenario/sweep.c and scenario/units.c) and
 * SK_PACK_PARAMS (what the kernels read: each line a slot of a pack's parameter block, kernels/pack.h, the
 * value a lane is filled with, batch/storage.c, and a member of the kernels' loaded parameters,
 * kernels/params.h). A new per-rope parameter is a member of sk_rope_params (scenario/scenario_types.h), a line in
 * each table, where the file format reads and writes it (scenario/group.c, scenario/normalize.c), and its
 * physics; docs/architecture.md follows one from the JSON file to a kernel. A force whose numbers are all
 * it needs is a force object (model/force_objects.h): its rows there are all the format and the packs need. */
#ifndef SKEIN_MODEL_PARAMS_H
#define SKEIN_MODEL_PARAMS_H

#include "model/force_objects.h"
#include "scenario/scenario_types.h"

/* The numbers a scenario gives each rope: the members of sk_rope_params, all sweepable.
 *   X(kind, member, "key", "units", range, need)
 * kind REAL or VEC3 (a VEC3 key sweeps by component: "anchor.point[1]"); member of sk_rope_params; key as a
 * sweep names it; units for outputs that label it; range (SK_RANGE_<range>) every value must lie in; need
 * (SK_NEED_<need>) what the group must have for the key to be a parameter it uses. The order is
 * sk_rope_params's. */
#define SK_ROPE_PARAMS(X)                                                                                 \
    X(VEC3, start, "start", "m", ANY, NOTHING)                                                           \
    X(VEC3, end, "end", "m", ANY, NOTHING)                                                               \
    X(VEC3, velocity, "velocity", "m/s", ANY, NOTHING)                                                   \
    X(REAL, mass, "mass", "kg", MASS, MASS)                                                              \
    X(REAL, mass_to, "mass.last", "kg", MASS, MASS_LINEAR)                                                 \
    X(REAL, payload_mass[0], "payloads[0].mass", "kg", GE0, PAYLOAD0)                                    \
    X(REAL, payload_mass[1], "payloads[1].mass", "kg", GE0, PAYLOAD1)                                    \
    X(REAL, payload_mass[2], "payloads[2].mass", "kg", GE0, PAYLOAD2)                                    \
    X(REAL, payload_mass[3], "payloads[3].mass", "kg", GE0, PAYLOAD3)                                    \
    X(REAL, damping, "damping", "1", UNIT_OPEN0, NOTHING)                                                \
    X(REAL, verlet_damping, "verlet_damping", "1", UNIT_OPEN1, NOTHING)                                  \
    X(REAL, link_stiffness, "link.stiffness", "N/m", GT0, LINK_STIFFNESS)                                \
    X(REAL, link_stiffness_to, "link.stiffness.last", "N/m", GT0, STIFFNESS_LINEAR)                        \
    X(REAL, link_length, "link.length", "m", GT0, LINK_LENGTH)                                           \
    X(REAL, link_length_to, "link.length.last", "m", GT0, LENGTH_LINEAR)                                   \
    X(REAL, link_restitution, "link.restitution", "1", UNIT, LINK_RESTITUTION)                           \
    X(REAL, link_damping, "link.damping", "N s", GE0, LINK_DAMPING)                                      \
    X(REAL, link_damping_ratio, "link.damping_ratio", "1", GE0, LINK_DAMPING_RATIO)                      \
    X(VEC3, anchor_point, "anchor.point", "m", ANY, ANCHOR)                                              \
    X(REAL, anchor_stiffness, "anchor.stiffness", "N/m", GT0, ANCHOR_STIFFNESS)                          \
    X(REAL, anchor_length, "anchor.length", "m", ANCHOR_LENGTH, ANCHOR_LENGTH)                           \
    X(REAL, anchor_damping, "anchor.damping", "1/s", GE0, ANCHOR_DAMPING)                                \
    X(REAL, anchor_restitution, "anchor.restitution", "1", UNIT, ANCHOR_RESTITUTION)                     \
    X(VEC3, motion_amplitude, "anchor.motion.amplitude", "m", ANY, MOTION)                               \
    X(REAL, motion_omega, "anchor.motion.omega", "rad/s", ANY, MOTION)                                   \
    X(REAL, motion_phase, "anchor.motion.phase", "rad", ANY, MOTION)                                     \
    X(VEC3, motion_velocity, "anchor.motion.velocity", "m/s", ANY, TOW)                                  \
    X(REAL, drag_k1, "drag.k1", "N s/m", GE0, DRAG)                                                      \
    X(REAL, drag_k2, "drag.k2", "N s^2/m^2", GE0, DRAG)                                                  \
    X(VEC3, flow_velocity, "flow.velocity", "m/s", ANY, DRAG)                                            \
    X(VEC3, flow_gradient, "flow.gradient", "1/s", ANY, DRAG)                                            \
    X(REAL, bending_stiffness, "bending.stiffness", "N m^2", GE0, BENDING)                               \
    X(REAL, buoyancy_water_height, "buoyancy.water_height", "m", ANY, BUOYANCY)                          \
    X(REAL, buoyancy_max_depth, "buoyancy.max_depth", "m", GT0, BUOYANCY)                                \
    X(REAL, buoyancy_density, "buoyancy.density", "kg/m^3", GE0, BUOYANCY)                               \
    X(REAL, buoyancy_volume, "buoyancy.volume", "m^3", GE0, BUOYANCY)                                    \
    X(REAL, ground_friction_static, "ground.friction.static", "1", GE0, FRICTION)                        \
    X(REAL, ground_friction_kinetic, "ground.friction.kinetic", "1", GE0, FRICTION)                      \
    X(REAL, line_diameter, "line.diameter", "m", GT0, LINE)                                              \
    X(REAL, line_drag_normal, "line.drag.normal", "1", GE0, LINE)                                        \
    X(REAL, line_drag_tangential, "line.drag.tangential", "1", GE0, LINE)                                \
    X(REAL, line_added_normal, "line.added_mass.normal", "1", GE0, LINE)                                 \
    X(REAL, line_added_tangential, "line.added_mass.tangential", "1", GE0, LINE)                         \
    X(REAL, line_mass_per_length, "line.mass_per_length", "kg/m", GT0, LINE_EA)                          \
    X(REAL, line_ea, "line.EA", "N", GT0, LINE_EA)                                                       \
    X(REAL, line_length, "line.length", "m", GT0, LINE_EA)                                               \
    X(REAL, deploy_velocity, "deploy.velocity", "m/s", GT0, DEPLOY_SPEED)                                \
    X(REAL, deploy_max_length, "deploy.max_length", "m", GT0, MAX_LENGTH)                                \
    SK_FORCE_PARAMS(SK_FORCE_AS_ROPE_PARAM, X)

#define SK_FORCE_AS_ROPE_PARAM(X, kind, member, OBJECT, object, key, units, range, required, def) \
    X(kind, member, object "." key, units, range, FORCE_##OBJECT)
#define SK_FORCE_AS_PACK_PARAM(X, kind, member, OBJECT, object, key, units, range, required, def) \
    X(kind, member, member, rp->member)

/* A pack's parameter block: what the kernels read per rope, each a slot of W reals (VEC3: three slots),
 * loaded once per call into the member of the kernels' kparams of the same name. Filled from the rope's
 * parameters (rp), its constants (c, computed with libm once by model/rope_constants.c), its group (g) and
 * the scenario (s): derived values are the operations docs/model.md writes, evaluated once so every step
 * starts from the same bits. n and s are the rope's state while it deploys.
 *   X(kind, SLOT, member, value) */
#define SK_PACK_PARAMS(X)                                                                                 \
    X(REAL, N, n, (sk_real)sk_group_initial_particles(g)) /* particles present (exact as a real) */       \
    X(REAL, S, s, rp->anchor_length) /* rest length of the anchored segment (deploying: s) */             \
    X(REAL, W, w, c->w)              /* inverse mass of an unpinned particle */                           \
    X(REAL, MASS, mass, c->mass_back) /* mass read back, 1 / w */                                         \
    X(REAL, DAMP, damp, c->damp)      /* pow(damping, dt) */                                              \
    X(REAL, VKEEP, vkeep, c->verlet_keep) /* verlet: 1 - verlet_damping */                               \
    X(REAL, LINK_K, link_stiffness, rp->link_stiffness)                                                   \
    X(REAL, LINK_L, link_l, c->link_length) /* link rest length ("auto" resolved) */                     \
    X(REAL, LINK_E, link_restitution, rp->link_restitution)                                               \
    X(VEC3, ANCHOR_POINT, anchor_point, rp->anchor_point)                                                 \
    X(REAL, ANCHOR_K, anchor_stiffness, rp->anchor_stiffness)                                             \
    X(REAL, ANCHOR_E, anchor_restitution, rp->anchor_restitution)                                         \
    X(VEC3, AMPLITUDE, motion_amplitude, rp->motion_amplitude)                                            \
    X(REAL, OMEGA, motion_omega, rp->motion_omega)                                                        \
    X(REAL, PHASE, motion_phase, rp->motion_phase)                                                        \
    X(VEC3, TOW, motion_velocity, rp->motion_velocity) /* towing velocity */                              \
    X(REAL, FAKE_ON, fake_on, c->fake_active ? 1 : 0) /* 1 where the fake spring acts */                 \
    X(REAL, FAKE_CR, fake_cr, c->fake_cr)                                                                 \
    X(REAL, FAKE_CV, fake_cv, c->fake_cv)                                                                 \
    X(REAL, FAKE_COS, fake_cos, c->fake_cos)                                                              \
    X(REAL, FAKE_SIN, fake_sin, c->fake_sin)                                                              \
    X(REAL, FAKE_EXP, fake_exp, c->fake_exp)                                                              \
    X(VEC3, ACC, acc, c->accel)           /* acceleration field (gravity, or 0 as a force) */             \
    X(VEC3, GF, gforce, c->gravity_force) /* gravity as a force: g * mass */                             \
    X(VEC3, G, gravity, s->gravity)       /* gravity itself (potential energy) */                         \
    X(REAL, DRAG_K1, drag_k1, rp->drag_k1)                                                                \
    X(REAL, DRAG_K2, drag_k2, rp->drag_k2)                                                                \
    X(VEC3, FLOW_U, flow_velocity, rp->flow_velocity) /* u(y) = flow_velocity + flow_gradient y */        \
    X(VEC3, FLOW_G, flow_gradient, rp->flow_gradient)                                                     \
    X(REAL, BUOY_HM, buoy_hm, rp->buoyancy_water_height + rp->buoyancy_max_depth) /* h + m */            \
    X(REAL, BUOY_M2, buoy_m2, (sk_real)2 * rp->buoyancy_max_depth)                /* 2 m */               \
    X(REAL, BUOY_RV, buoy_rv, rp->buoyancy_density * rp->buoyancy_volume)         /* rho V */             \
    X(REAL, MU_S, friction_static, rp->ground_friction_static) /* ground friction: mu_s, mu_k */          \
    X(REAL, MU_K, friction_kinetic, rp->ground_friction_kinetic)                                          \
    X(REAL, DEPLOY_U, deploy_velocity, rp->deploy_velocity)                                               \
    X(REAL, DEPLOY_MAX, deploy_max_length, rp->deploy_max_length)                                         \
    X(REAL, DT, dt, c->dt)                                                                                \
    X(REAL, INV_DT, inv_dt, c->inv_dt)                                                                    \
    X(REAL, INV_DT2, inv_dt2, c->inv_dt2)                                                                 \
    X(REAL, MAX_SPEED2, max_speed2, c->max_speed2) /* divergence bounds */                                \
    X(REAL, MAX_LINK2, max_link2, c->max_link2)                                                           \
    X(REAL, IMP_DIAG, implicit_diag, c->implicit_diag) /* the implicit integrator's blocks */             \
    X(REAL, DRAG_T, drag_t, c->drag_t)                                                                    \
    X(REAL, LINK_KDT2, link_kdt2, c->link_kdt2)                                                           \
    X(REAL, ANCHOR_KDT2, anchor_kdt2, c->anchor_kdt2)                                                     \
    X(REAL, FAKE_JX, fake_jx, c->fake_jx)                                                                 \
    X(REAL, FAKE_JV, fake_jv, c->fake_jv)                                                                 \
    X(REAL, BEND_KB, bend_kb, c->bend_kb) /* a hinge's k_b = EI / L */                                  \
    X(REAL, WATER_Y, water_y, c->water_surface) /* a line in water (docs/model.md 3.6), per unit length: */ \
    X(REAL, LINE_SHARE, line_share, c->link_length) /* an inner particle's share of the line */          \
    X(REAL, LINE_DN, line_dn, c->line_dn) /* 1/2 rho Cdn d */                                              \
    X(REAL, LINE_DT, line_dt, c->line_dt) /* 1/2 rho Cdt pi d */                                           \
    X(REAL, LINE_AN, line_an, c->line_an) /* rho A Can (A = pi d^2 / 4) */                                 \
    X(REAL, LINE_AT, line_at, c->line_at) /* rho A Cat */                                                  \
    X(REAL, LINE_FN, line_fn, c->line_fn) /* rho A (1 + Can) */                                            \
    X(REAL, LINE_FT, line_ft, c->line_ft) /* rho A (1 + Cat) */                                            \
    X(VEC3, LINE_B, line_b, c->line_buoyancy) /* -rho A g */                                               \
    X(REAL, SEABED_K, seabed_k, c->seabed_k) /* the compliant seabed's stiffness d, damping d */           \
    X(REAL, SEABED_C, seabed_c, c->seabed_c)                                                               \
    X(REAL, SLIP, slip_speed, c->slip_speed)                                                               \
    X(REAL, LINK_C, link_c, c->link_c)       /* axial damping per rate of length (N s/m) */                \
    X(REAL, LINK_CDT, link_cdt, c->link_cdt)                                                             \
    X(REAL, ANCHOR_EA, anchor_ea, c->anchor_ea) /* a deploying line's EA (0: anchor.stiffness) */          \
    X(REAL, ANCHOR_SMIN, anchor_s_min, c->anchor_s_min) /* ... and its s_min */                          \
    SK_FORCE_PARAMS(SK_FORCE_AS_PACK_PARAM, X)

/* Reals each kind takes. */
#define SK_PARAM_REALS_REAL 1
#define SK_PARAM_REALS_VEC3 3

#endif
