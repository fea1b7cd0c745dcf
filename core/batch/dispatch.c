/* Which kernels run: the widest ISA this build compiled and this CPU supports, or the one asked for (an ISA
 * the build or the CPU lacks is refused, said in words a user can act on). */
#include <string.h>

#include "batch/batch_impl.h"

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
            sk_fail(err, SK_ERR_UNSUPPORTED, "isa %s: this build of skein has no %s kernels; \"auto\" picks the widest it has",
                    isa, isa);
            return NULL;
        }
        if (!list[i].usable) {
            if (automatic)
                continue;
            sk_fail(err, SK_ERR_UNSUPPORTED, "isa %s: this CPU does not support %s; \"auto\" picks the widest it runs",
                    isa, isa);
            return NULL;
        }
        const sk_kernels *k = compiled(list[i].name);
        if (k)
            return k;
    }
    if (automatic)
        sk_fail(err, SK_ERR_UNSUPPORTED, "no kernel ISA of this build runs on this CPU");
    else
        sk_fail(err, SK_ERR_INVALID, "isa %s: unknown (auto, avx512, avx2, scalar)", isa);
    return NULL;
}

