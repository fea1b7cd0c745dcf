/* A pack's per-rope parameters as vectors, loaded once per call so the hot loops keep the ones they use
 * in registers (the compiler drops the loads of the ones a specialisation never reads). */
#ifndef SKEIN_KERNELS_PARAMS_H
#define SKEIN_KERNELS_PARAMS_H

#include "pack.h"
#include "vec3w.h"

typedef struct kparams {
    skv w, mass, damp, vkeep;
    skv link_k, link_l;
    skv anchor_k, anchor_l; /* anchor_l: the rest length at load time (deploying: s) */
    skv3 point, amplitude;
    skv omega, phase;
    skm fake_on;
    skv fake_cr, fake_cv, fake_cos, fake_sin, fake_exp;
    skv3 acc, gforce, gravity;
    skv drag_k1, drag_k2;
    skv buoy_hm, buoy_m2, buoy_rv;
    skv deploy_u, deploy_max;
    skv dt, inv_dt, inv_dt2;
} kparams;

SK_INLINE skv kp_get(const sk_real *param, int which) { return skv_load(param + (size_t)which * SK_W); }

SK_INLINE kparams kp_load(const sk_real *param)
{
    kparams k;
    k.w = kp_get(param, SK_P_W);
    k.mass = kp_get(param, SK_P_MASS);
    k.damp = kp_get(param, SK_P_DAMP);
    k.vkeep = kp_get(param, SK_P_VKEEP);
    k.link_k = kp_get(param, SK_P_LINK_K);
    k.link_l = kp_get(param, SK_P_LINK_L);
    k.anchor_k = kp_get(param, SK_P_ANCHOR_K);
    k.anchor_l = kp_get(param, SK_P_S);
    k.point = v3_load(param + (size_t)SK_P_AX * SK_W);
    k.amplitude = v3_load(param + (size_t)SK_P_AMPX * SK_W);
    k.omega = kp_get(param, SK_P_OMEGA);
    k.phase = kp_get(param, SK_P_PHASE);
    k.fake_on = skv_ne(kp_get(param, SK_P_FAKE_ON), skv_zero());
    k.fake_cr = kp_get(param, SK_P_FAKE_CR);
    k.fake_cv = kp_get(param, SK_P_FAKE_CV);
    k.fake_cos = kp_get(param, SK_P_FAKE_COS);
    k.fake_sin = kp_get(param, SK_P_FAKE_SIN);
    k.fake_exp = kp_get(param, SK_P_FAKE_EXP);
    k.acc = v3_load(param + (size_t)SK_P_ACCX * SK_W);
    k.gforce = v3_load(param + (size_t)SK_P_GFX * SK_W);
    k.gravity = v3_load(param + (size_t)SK_P_GX * SK_W);
    k.drag_k1 = kp_get(param, SK_P_DRAG_K1);
    k.drag_k2 = kp_get(param, SK_P_DRAG_K2);
    k.buoy_hm = kp_get(param, SK_P_BUOY_HM);
    k.buoy_m2 = kp_get(param, SK_P_BUOY_M2);
    k.buoy_rv = kp_get(param, SK_P_BUOY_RV);
    k.deploy_u = kp_get(param, SK_P_DEPLOY_U);
    k.deploy_max = kp_get(param, SK_P_DEPLOY_MAX);
    k.dt = kp_get(param, SK_P_DT);
    k.inv_dt = kp_get(param, SK_P_INV_DT);
    k.inv_dt2 = kp_get(param, SK_P_INV_DT2);
    return k;
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
