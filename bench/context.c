/* The context recorded with every run (Google Benchmark's "context" in JSON): what was measured, with
 * what, so that figures from different builds and machines can be told apart and merged. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_config.h"
#include "skein/engine.h"
#include "skein/types.h"

void sk_bm_record_context(void)
{
    sk_isa_info isas[8];
    int n = sk_isa_list(isas, 8);
    char compiled[128] = "", usable[128] = "";
    for (int i = 0; i < n; i++) {
        if (isas[i].compiled)
            snprintf(compiled + strlen(compiled), sizeof compiled - strlen(compiled), "%s%s",
                     compiled[0] ? " " : "", isas[i].name);
        if (isas[i].compiled && isas[i].usable)
            snprintf(usable + strlen(usable), sizeof usable - strlen(usable), "%s%s", usable[0] ? " " : "",
                     isas[i].name);
    }
    sk_bench_context("skein_commit", SKEIN_BENCH_COMMIT);
    sk_bench_context("skein_real", SK_REAL_NAME);
    sk_bench_context("skein_isas_compiled", compiled);
    sk_bench_context("skein_isas_usable", usable);
    sk_bench_context("skein_build_type", SKEIN_BENCH_BUILD_TYPE);
    sk_bench_context("skein_sanitize", SKEIN_BENCH_SANITIZE[0] ? SKEIN_BENCH_SANITIZE : "none");
    sk_bench_context("skein_compiler", SKEIN_BENCH_COMPILER);
    sk_bench_context("skein_c_flags", SKEIN_BENCH_C_FLAGS);
    sk_bench_context("skein_kernel_flags", SKEIN_BENCH_KERNEL_FLAGS);
}
