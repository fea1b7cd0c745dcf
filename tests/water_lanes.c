/* k_water_flow (kernels/water_flow.h) over arrays of points, compiled once per kernel ISA with that ISA's
 * flags (tests/physics.cmake) for test_water.c's lanes case. */
#include <stddef.h>

#include "simd.h"
#include "water_flow.h"

void SK_KNAME(water_lanes)(const sk_water *w, const sk_real *p, size_t n, sk_real t, sk_real *u, sk_real *a);

/* p, u, a: [n][3]; n a multiple of SK_W. */
void SK_KNAME(water_lanes)(const sk_water *w, const sk_real *p, size_t n, sk_real t, sk_real *u, sk_real *a)
{
    const sk_kernel_cfg cfg = {.water = w};
    for (size_t i = 0; i < n; i += SK_W) {
        _Alignas(64) sk_real row[3][SK_W];
        for (int l = 0; l < SK_W; l++)
            for (int c = 0; c < 3; c++)
                row[c][l] = p[3 * (i + (size_t)l) + (size_t)c];
        skv3 uv, av;
        k_water_flow(&cfg, v3_make(skv_load(row[0]), skv_load(row[1]), skv_load(row[2])), t, &uv, &av);
        _Alignas(64) sk_real out[6][SK_W];
        skv_store(out[0], uv.x);
        skv_store(out[1], uv.y);
        skv_store(out[2], uv.z);
        skv_store(out[3], av.x);
        skv_store(out[4], av.y);
        skv_store(out[5], av.z);
        for (int l = 0; l < SK_W; l++)
            for (int c = 0; c < 3; c++) {
                u[3 * (i + (size_t)l) + (size_t)c] = out[c][l];
                a[3 * (i + (size_t)l) + (size_t)c] = out[3 + c][l];
            }
    }
}
