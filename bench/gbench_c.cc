// The C++ side of gbench_c.h: each C call forwards to Google Benchmark 1.7.1.
#include "gbench_c.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

benchmark::internal::Benchmark *bm(sk_bench *b) { return reinterpret_cast<benchmark::internal::Benchmark *>(b); }
benchmark::State &state(sk_bench_state *st) { return *reinterpret_cast<benchmark::State *>(st); }
const benchmark::State &state(const sk_bench_state *st) { return *reinterpret_cast<const benchmark::State *>(st); }

}  // namespace

extern "C" {

sk_bench *sk_bench_register(const char *name, sk_bench_fn fn, void *user)
{
    benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
        name, [fn, user](benchmark::State &s) { fn(reinterpret_cast<sk_bench_state *>(&s), user); });
    return reinterpret_cast<sk_bench *>(b);
}

void sk_bench_arg_names(sk_bench *b, const char *const *names, int n)
{
    bm(b)->ArgNames(std::vector<std::string>(names, names + n));
}

void sk_bench_args(sk_bench *b, const int64_t *values, int n)
{
    bm(b)->Args(std::vector<int64_t>(values, values + n));
}

void sk_bench_range_multiplier(sk_bench *b, int multiplier) { bm(b)->RangeMultiplier(multiplier); }

void sk_bench_ranges(sk_bench *b, const int64_t *lo, const int64_t *hi, int n)
{
    std::vector<std::pair<int64_t, int64_t>> r;
    for (int i = 0; i < n; i++)
        r.emplace_back(lo[i], hi[i]);
    bm(b)->Ranges(r);
}

void sk_bench_use_real_time(sk_bench *b) { bm(b)->UseRealTime(); }

void sk_bench_min_time(sk_bench *b, double seconds) { bm(b)->MinTime(seconds); }

void sk_bench_iterations(sk_bench *b, int64_t n) { bm(b)->Iterations(n); }

void sk_bench_time_unit(sk_bench *b, char unit)
{
    switch (unit) {
    case 'n': bm(b)->Unit(benchmark::kNanosecond); break;
    case 'u': bm(b)->Unit(benchmark::kMicrosecond); break;
    case 'm': bm(b)->Unit(benchmark::kMillisecond); break;
    default: bm(b)->Unit(benchmark::kSecond); break;
    }
}

bool sk_bench_keep_running(sk_bench_state *st) { return state(st).KeepRunning(); }

void sk_bench_pause(sk_bench_state *st) { state(st).PauseTiming(); }

void sk_bench_resume(sk_bench_state *st) { state(st).ResumeTiming(); }

int64_t sk_bench_arg(const sk_bench_state *st, int i) { return state(st).range(static_cast<std::size_t>(i)); }

int64_t sk_bench_iterations_done(const sk_bench_state *st) { return state(st).iterations(); }

void sk_bench_set_items_processed(sk_bench_state *st, int64_t items) { state(st).SetItemsProcessed(items); }

void sk_bench_set_bytes_processed(sk_bench_state *st, int64_t bytes) { state(st).SetBytesProcessed(bytes); }

void sk_bench_counter(sk_bench_state *st, const char *name, double value, sk_bench_counter_kind kind)
{
    benchmark::Counter::Flags flags = benchmark::Counter::kDefaults;
    if (kind == SK_BENCH_RATE)
        flags = benchmark::Counter::kIsRate;
    else if (kind == SK_BENCH_PER_ITERATION)
        flags = benchmark::Counter::kAvgIterations;
    state(st).counters[name] = benchmark::Counter(value, flags);
}

void sk_bench_set_label(sk_bench_state *st, const char *label) { state(st).SetLabel(label); }

void sk_bench_skip_with_error(sk_bench_state *st, const char *message) { state(st).SkipWithError(message); }

void sk_bench_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

int sk_bench_run(int *argc, char **argv)
{
    benchmark::Initialize(argc, argv);
    if (benchmark::ReportUnrecognizedArguments(*argc, argv))
        return 2;
    // 1.7.1's default display reporter is a static that its first RunSpecifiedBenchmarks deletes, so a
    // second run in the same process (the shim's tests) gets a console reporter of its own; the first
    // keeps the default, which honours --benchmark_format, --benchmark_color and friends.
    static int runs = 0;
    std::size_t ran;
    if (runs++ == 0) {
        ran = benchmark::RunSpecifiedBenchmarks();
    } else {
        benchmark::ConsoleReporter display;
        ran = benchmark::RunSpecifiedBenchmarks(&display);
    }
    // 1.7.1 only prints a line when the filter matches nothing; a caller (the smoke test) wants to know.
    // No benchmark::Shutdown(): all it frees is the context map, which the process exit frees anyway.
    return ran > 0 ? 0 : 1;
}

}  // extern "C"
