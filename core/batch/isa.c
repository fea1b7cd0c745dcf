/* Which kernel ISAs this build compiled (SKEIN_HAVE_* from kernels/CMakeLists.txt) and this CPU runs. */
#include "skein/engine.h"

/* What the kernels of each ISA are compiled with (kernels/CMakeLists.txt): AVX-512 F, DQ and VL; AVX2
 * with FMA, which SLEEF's AVX2 functions use. */
static bool cpu_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
}

static bool cpu_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

int sk_isa_list(sk_isa_info *out, int max)
{
    __builtin_cpu_init();
    const sk_isa_info all[] = {
#ifdef SKEIN_HAVE_AVX512
        {"avx512", true, cpu_avx512()},
#else
        {"avx512", false, cpu_avx512()},
#endif
#ifdef SKEIN_HAVE_AVX2
        {"avx2", true, cpu_avx2()},
#else
        {"avx2", false, cpu_avx2()},
#endif
#ifdef SKEIN_HAVE_SCALAR
        {"scalar", true, true},
#else
        {"scalar", false, true},
#endif
    };
    int n = 0;
    for (; n < max && n < (int)(sizeof all / sizeof all[0]); n++)
        out[n] = all[n];
    return n;
}
