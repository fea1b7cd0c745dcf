/* A pack's per-rope parameters as vectors, loaded once per call so the hot loops keep the ones they use
 * in registers (the compiler drops the loads of the ones a specialisation never reads). */
#ifndef SKEIN_KERNELS_PARAMS_H
#define SKEIN_KERNELS_PARAMS_H

#include "pack.h"
#include "vec3w.h"

/* Every slot of SK_PACK_PARAMS (core/model/params.h) as a member of the same name; n and s as they were at
 * load time (deployment changes them in the block). */
#define KP_MEMBER_REAL(member) skv member;
#define KP_MEMBER_VEC3(member) skv3 member;
#define KP_MEMBER(kind, SLOT, member, value) KP_MEMBER_##kind(member)
typedef struct kparams {
    SK_PACK_PARAMS(KP_MEMBER)
    skm fake_active; /* lanes where the fake spring acts: fake_on != 0 */
} kparams;
#undef KP_MEMBER
#undef KP_MEMBER_VEC3
#undef KP_MEMBER_REAL

SK_INLINE skv kp_get(const sk_real *param, int which) { return skv_load(param + (size_t)which * SK_W); }

SK_INLINE kparams kp_load(const sk_real *param)
{
    kparams k;
#define KP_LOAD_REAL(SLOT, member) k.member = kp_get(param, SK_P_##SLOT);
#define KP_LOAD_VEC3(SLOT, member) k.member = v3_load(param + (size_t)SK_P_##SLOT * SK_W);
#define KP_LOAD(kind, SLOT, member, value) KP_LOAD_##kind(SLOT, member)
    SK_PACK_PARAMS(KP_LOAD)
#undef KP_LOAD
#undef KP_LOAD_VEC3
#undef KP_LOAD_REAL
    k.fake_active = skv_ne(k.fake_on, skv_zero());
    return k;
}

/* A group with profiles (pack.h, SK_Q_*): the constants of particle i and its link i, from row i of the
 * parameter block's profile rows, in place of the rope's. The callers take a copy of the rope's kparams for
 * row i, so the passes of uniform ropes never see this. */
SK_INLINE void kp_profile_row(kparams *k, const sk_real *rows, int i)
{
    const sk_real *r = rows + (size_t)i * SK_Q_COUNT * SK_W;
    k->w = skv_load(r + (size_t)SK_Q_W * SK_W);
    k->mass = skv_load(r + (size_t)SK_Q_MASS * SK_W);
    k->gforce = v3_load(r + (size_t)SK_Q_GF * SK_W);
    k->link_stiffness = skv_load(r + (size_t)SK_Q_LINK_K * SK_W);
    k->link_l = skv_load(r + (size_t)SK_Q_LINK_L * SK_W);
    k->max_link2 = skv_load(r + (size_t)SK_Q_MAX_LINK2 * SK_W);
    k->implicit_diag = skv_load(r + (size_t)SK_Q_IMP_DIAG * SK_W);
    k->link_kdt2 = skv_load(r + (size_t)SK_Q_LINK_KDT2 * SK_W);
    k->fake_jx = skv_load(r + (size_t)SK_Q_FAKE_JX * SK_W);
    k->fake_jv = skv_load(r + (size_t)SK_Q_FAKE_JV * SK_W);
    k->bend_kb = skv_load(r + (size_t)SK_Q_BEND_KB * SK_W);
    k->line_share = skv_load(r + (size_t)SK_Q_SHARE * SK_W);
    k->link_c = skv_load(r + (size_t)SK_Q_LINK_C * SK_W);
    k->link_cdt = skv_load(r + (size_t)SK_Q_LINK_CDT * SK_W);
}

/* The largest particle count among the lanes (the rows a deploying pack's loops must visit). */
SK_INLINE int kp_max_count(const sk_real *param)
{
    int m = 0;
    for (int l = 0; l < SK_W; l++) {
        int n = (int)param[(size_t)SK_P_N * SK_W + l];
        m = n > m ? n : m;
    }
    return m;
}

#endif
