/* Which kernel ISAs this build compiled (SKEIN_HAVE_* from kernels/CMakeLists.txt) and this CPU runs. */
#include "skein/engine.h"

int sk_isa_list(sk_isa_info *out, int max)
{
    __builtin_cpu_init();
    const sk_isa_info all[] = {
#ifdef SKEIN_HAVE_AVX512
        {"avx512", true, __builtin_cpu_supports("avx512f")},
#else
        {"avx512", false, __builtin_cpu_supports("avx512f")},
#endif
#ifdef SKEIN_HAVE_AVX2
        {"avx2", true, __builtin_cpu_supports("avx2")},
#else
        {"avx2", false, __builtin_cpu_supports("avx2")},
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
