/* TEMPORARY (replaced by the waves branch): still water. */
#ifndef SKEIN_MODEL_WATER_FLOW_H
#define SKEIN_MODEL_WATER_FLOW_H
#include "model/vec3.h"
#include "skein/scenario.h"
static inline void sk_water_flow(const sk_water *w, sk_vec3 p, sk_real t, sk_vec3 *u, sk_vec3 *a)
{
    (void)w; (void)p; (void)t;
    *u = sk_vec3_zero();
    *a = sk_vec3_zero();
}
#endif
