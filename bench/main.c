/* skein-bench: the whole suite (roofline, end to end, the hand-tuned yardstick, kernels, contacts) as one Google Benchmark binary;
 * every --benchmark_* flag of Google Benchmark 1.7.1 applies (see bench/README.md), and skein's own --set. */
#include "bench.h"

int main(int argc, char **argv)
{
    sk_bm_record_context();
    if (sk_bm_take_sets(&argc, argv))
        return 2;
    sk_bm_register_roofline();
    sk_bm_register_end_to_end();
    sk_bm_register_handtuned();
    sk_bm_register_kernels();
    sk_bm_register_contacts();
    sk_bm_register_concurrent();
    return sk_bench_run(&argc, argv);
}
