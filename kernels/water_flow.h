/* TEMPORARY (replaced by the waves branch): still water. */
#ifndef SKEIN_KERNELS_WATER_FLOW_H
#define SKEIN_KERNELS_WATER_FLOW_H
#include "pack.h"
#include "vec3w.h"
SK_INLINE void k_water_flow(const sk_kernel_cfg *cfg, skv3 p, sk_real t, skv3 *u, skv3 *a)
{
    (void)cfg; (void)p; (void)t;
    *u = v3_zero();
    *a = v3_zero();
}
#endif
