/* The yardstick for W1: what an expert writes by hand for exactly W1's ropes (springs between neighbours,
 * the first particle pinned, gravity as an acceleration, symplectic Euler, no damping) and nothing else,
 * under skein's arithmetic rules (IEEE sqrt and division, no FMA, the model's order of operations, so its
 * results are skein's to the bit). Compiled once per ISA with SK_BM_ISA_<ISA> and the kernels' flags, for
 * the build's real type.
 *
 * Ropes across the vector lanes, packs of W ropes laid out like skein's ([particles][p, v][3][W]); one fused
 * pass per particle row: the spring to the next particle computed once, its force carried to the next row
 * in registers, the particle integrated in the same pass. The pinned first particle is peeled off the loop,
 * and every constant is a register. The force on a particle is u - u_prev and a zero-length spring's inverse
 * length is zero: the same bits as the model's (0 - u_prev) + u and zero direction for W1, whose acceleration
 * field has no -0 (see kernels/step_fixed.c). (Two packs stepped side by side, for two independent square
 * root and division chains, measured slower: the units are busy already.) */
#include <stddef.h>

#include "handtuned.h"

#if defined(SK_BM_ISA_AVX512) || defined(SK_BM_ISA_AVX2)
#include <immintrin.h>
#endif

#if defined(SK_BM_ISA_AVX512) && defined(SKEIN_REAL_FLOAT)
#define NAME(f) sk_bm_ht_avx512_##f
typedef __m512 V;
#define V_LOAD _mm512_load_ps
#define V_STORE _mm512_store_ps
#define V_SET1 _mm512_set1_ps
#define V_ADD _mm512_add_ps
#define V_SUB _mm512_sub_ps
#define V_MUL _mm512_mul_ps
#define V_DIV _mm512_div_ps
#define V_SQRT _mm512_sqrt_ps
#define V_ZERO _mm512_setzero_ps
#define V_POS_ONLY(l, x) _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(l, V_ZERO(), _CMP_GT_OQ), x)
#elif defined(SK_BM_ISA_AVX512)
#define NAME(f) sk_bm_ht_avx512_##f
typedef __m512d V;
#define V_LOAD _mm512_load_pd
#define V_STORE _mm512_store_pd
#define V_SET1 _mm512_set1_pd
#define V_ADD _mm512_add_pd
#define V_SUB _mm512_sub_pd
#define V_MUL _mm512_mul_pd
#define V_DIV _mm512_div_pd
#define V_SQRT _mm512_sqrt_pd
#define V_ZERO _mm512_setzero_pd
#define V_POS_ONLY(l, x) _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(l, V_ZERO(), _CMP_GT_OQ), x)
#elif defined(SK_BM_ISA_AVX2) && defined(SKEIN_REAL_FLOAT)
#define NAME(f) sk_bm_ht_avx2_##f
typedef __m256 V;
#define V_LOAD _mm256_load_ps
#define V_STORE _mm256_store_ps
#define V_SET1 _mm256_set1_ps
#define V_ADD _mm256_add_ps
#define V_SUB _mm256_sub_ps
#define V_MUL _mm256_mul_ps
#define V_DIV _mm256_div_ps
#define V_SQRT _mm256_sqrt_ps
#define V_ZERO _mm256_setzero_ps
#define V_POS_ONLY(l, x) _mm256_and_ps(_mm256_cmp_ps(l, V_ZERO(), _CMP_GT_OQ), x)
#elif defined(SK_BM_ISA_AVX2)
#define NAME(f) sk_bm_ht_avx2_##f
typedef __m256d V;
#define V_LOAD _mm256_load_pd
#define V_STORE _mm256_store_pd
#define V_SET1 _mm256_set1_pd
#define V_ADD _mm256_add_pd
#define V_SUB _mm256_sub_pd
#define V_MUL _mm256_mul_pd
#define V_DIV _mm256_div_pd
#define V_SQRT _mm256_sqrt_pd
#define V_ZERO _mm256_setzero_pd
#define V_POS_ONLY(l, x) _mm256_and_pd(_mm256_cmp_pd(l, V_ZERO(), _CMP_GT_OQ), x)
#else
#error "the hand-tuned kernel is written for AVX2 and AVX-512"
#endif

enum { W = (int)(sizeof(V) / sizeof(sk_real)) };

int NAME(width)(void) { return W; }

/* The spring from a to b, on a: d = a - b, l = |d|, (d * (1/l)) * ((L - l) k), zero where l is not > 0. */
#define SPRING(ax, ay, az, bx, by, bz, ux, uy, uz)                                                       \
    do {                                                                                                 \
        const V dx_ = V_SUB(ax, bx), dy_ = V_SUB(ay, by), dz_ = V_SUB(az, bz);                           \
        const V l_ = V_SQRT(V_ADD(V_ADD(V_MUL(dx_, dx_), V_MUL(dy_, dy_)), V_MUL(dz_, dz_)));             \
        const V inv_ = V_POS_ONLY(l_, V_DIV(one, l_)), mag_ = V_MUL(V_SUB(rest, l_), stiff);             \
        ux = V_MUL(V_MUL(dx_, inv_), mag_);                                                              \
        uy = V_MUL(V_MUL(dy_, inv_), mag_);                                                              \
        uz = V_MUL(V_MUL(dz_, inv_), mag_);                                                              \
    } while (0)

/* Symplectic Euler with the force (0 - u_prev) + u on a particle of inverse mass w under g. */
#define INTEGRATE(row, px, py, pz, vx, vy, vz, upx, upy, upz, ux, uy, uz)                                \
    do {                                                                                                 \
        const V fx_ = V_SUB(ux, upx), fy_ = V_SUB(uy, upy), fz_ = V_SUB(uz, upz);                        \
        const V wx_ = V_ADD(vx, V_MUL(V_ADD(gx, V_MUL(fx_, w)), dt));                                    \
        const V wy_ = V_ADD(vy, V_MUL(V_ADD(gy, V_MUL(fy_, w)), dt));                                    \
        const V wz_ = V_ADD(vz, V_MUL(V_ADD(gz, V_MUL(fz_, w)), dt));                                    \
        V_STORE((row) + 0 * W, V_ADD(px, V_MUL(wx_, dt)));                                               \
        V_STORE((row) + 1 * W, V_ADD(py, V_MUL(wy_, dt)));                                               \
        V_STORE((row) + 2 * W, V_ADD(pz, V_MUL(wz_, dt)));                                               \
        V_STORE((row) + 3 * W, wx_);                                                                     \
        V_STORE((row) + 4 * W, wy_);                                                                     \
        V_STORE((row) + 5 * W, wz_);                                                                     \
    } while (0)

#define LOAD_ROW(row, px, py, pz, vx, vy, vz)                                                            \
    const V px = V_LOAD((row) + 0 * W), py = V_LOAD((row) + 1 * W), pz = V_LOAD((row) + 2 * W);          \
    const V vx = V_LOAD((row) + 3 * W), vy = V_LOAD((row) + 4 * W), vz = V_LOAD((row) + 5 * W)

/* One step of one pack of n particles. */
static inline void step_one(sk_real *restrict a, int n, const sk_bm_ht_constants *c)
{
    const V one = V_SET1(1), zero = V_ZERO(), rest = V_SET1(c->rest), stiff = V_SET1(c->stiffness);
    const V w = V_SET1(c->inverse_mass), dt = V_SET1(c->dt), gx = V_SET1(c->g[0]), gy = V_SET1(c->g[1]),
            gz = V_SET1(c->g[2]);
    const size_t stride = 6 * (size_t)W;
    V pax = V_LOAD(a + stride), pay = V_LOAD(a + stride + W), paz = V_LOAD(a + stride + 2 * W);
    V uax, uay, uaz;
    SPRING(V_LOAD(a), V_LOAD(a + W), V_LOAD(a + 2 * W), pax, pay, paz, uax, uay, uaz);
    for (int i = 1; i < n - 1; i++) {
        sk_real *ra = a + (size_t)i * stride;
        LOAD_ROW(ra, ax, ay, az, avx, avy, avz);
        const V nax = V_LOAD(ra + stride), nay = V_LOAD(ra + stride + W), naz = V_LOAD(ra + stride + 2 * W);
        V vax, vay, vaz;
        SPRING(ax, ay, az, nax, nay, naz, vax, vay, vaz);
        INTEGRATE(ra, ax, ay, az, avx, avy, avz, uax, uay, uaz, vax, vay, vaz);
        uax = vax, uay = vay, uaz = vaz;
    }
    sk_real *ra = a + (size_t)(n - 1) * stride;
    LOAD_ROW(ra, ax, ay, az, avx, avy, avz);
    INTEGRATE(ra, ax, ay, az, avx, avy, avz, uax, uay, uaz, zero, zero, zero);
}

void NAME(advance)(sk_real *packs, size_t n_packs, int n, long steps, size_t block_packs,
                   const sk_bm_ht_constants *c)
{
    const size_t pack_len = (size_t)n * 6 * (size_t)W;
    /* a block of packs stays in cache for all its steps */
    for (size_t b0 = 0; b0 < n_packs; b0 += block_packs) {
        const size_t b1 = b0 + block_packs < n_packs ? b0 + block_packs : n_packs;
        for (long s = 0; s < steps; s++)
            for (size_t k = b0; k < b1; k++)
                step_one(packs + k * pack_len, n, c);
    }
}
