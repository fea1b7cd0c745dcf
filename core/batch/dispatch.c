/* Which kernels run: the widest ISA this build compiled and this CPU supports, or the one --isa names
 * (an ISA the build or the CPU lacks is a usage error, said in words a user can act on). */
#include <string.h>

#include "batch/batch_impl.h"
#include "skein/engine.h"

static const sk_kernels *compiled(const char *name)
{
#ifdef SKEIN_HAVE_AVX512
    if (strcmp(name, "avx512") == 0)
        return &sk_kernels_avx512;
#endif
#ifdef SKEIN_HAVE_AVX2
    if (strcmp(name, "avx2") == 0)
        return &sk_kernels_avx2;
#endif
#ifdef SKEIN_HAVE_SCALAR
    if (strcmp(name, "scalar") == 0)
        return &sk_kernels_scalar;
#endif
    return NULL;
}

const sk_kernels *sk_batch_pick_kernels(const char *isa, sk_error *err)
{
    sk_isa_info list[8];
    int n = sk_isa_list(list, 8);
    bool automatic = !isa || strcmp(isa, "auto") == 0;
    for (int i = 0; i < n; i++) {
        if (!automatic && strcmp(isa, list[i].name) != 0)
            continue;
        if (!list[i].compiled) {
            if (automatic)
                continue;
            sk_fail(err, SK_EXIT_USAGE, "--isa %s: this build of skein has no %s kernels; use --isa auto", isa, isa);
            return NULL;
        }
        if (!list[i].usable) {
            if (automatic)
                continue;
            sk_fail(err, SK_EXIT_USAGE, "--isa %s: this CPU does not support %s; use --isa auto (skein info lists what it can run)",
                    isa, isa);
            return NULL;
        }
        const sk_kernels *k = compiled(list[i].name);
        if (k)
            return k;
    }
    if (automatic)
        sk_fail(err, SK_EXIT_FAILURE, "no kernel ISA of this build runs on this CPU");
    else
        sk_fail(err, SK_EXIT_USAGE, "--isa %s: unknown ISA (auto, avx512, avx2, scalar)", isa);
    return NULL;
}

