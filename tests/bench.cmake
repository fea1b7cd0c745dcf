# skein-bench: the C shim over Google Benchmark, a smoke run of the whole suite on its small cases (so
# the benchmarks never rot), and bench/report on hand-made and on real JSON.
if(SKEIN_BUILD_BENCH)
  skein_test(bench_shim SOURCES test_bench_shim.c LIBS skein_bench_shim CASES
    reports fixed_iterations pause min_time ranges skip_with_error bad_argument no_match)

  # Every family on its smallest cases, with Google Benchmark's shortest runs: a few seconds even in a
  # Debug build with sanitizers (hence W3 without the reference engine, whose implicit window alone takes
  # 5 s there). The JSON feeds the checks below.
  string(CONCAT SKEIN_BENCH_SMOKE_FILTER "^("
    "roofline/(fma|sqrt|div)/[^/]+/double/threads:1/|roofline/triad_(l1|l2|dram)/threads:1/|"
    "w1/[^/]+/ropes:64/|handtuned/[^/]+/ropes:64/|w2(swept)?(direct)?/[^/]+/ropes:64/particles:32/steps:32/threads:1/|"
    "chain(direct)?/[^/]+/ropes:64/particles:32/steps:32/threads:1/|"
    "w3(explicit)?/(scalar|avx2|avx512)/ropes:256/particles:200/steps:100/threads:1/|"
    "w4/(scalar|avx2|avx512)/ropes:1024/particles:69/steps:100/threads:1/|kernel/|"
    "concurrent/seed003x16/processes:2/)")
  add_test(NAME bench.smoke COMMAND skein-bench --benchmark_min_time=0.001
    --benchmark_filter=${SKEIN_BENCH_SMOKE_FILTER}
    --benchmark_out=${PROJECT_BINARY_DIR}/bench-smoke.json --benchmark_out_format=json)
  set_tests_properties(bench.smoke PROPERTIES FIXTURES_SETUP bench_smoke TIMEOUT 120)

  skein_test(bench_smoke SOURCES test_bench_smoke.c CASES context families particle_steps resolver_counters
    handtuned_same_bits w4)
  set_tests_properties(bench_smoke.context bench_smoke.families bench_smoke.particle_steps
    bench_smoke.resolver_counters bench_smoke.handtuned_same_bits bench_smoke.w4
    PROPERTIES FIXTURES_REQUIRED bench_smoke)

  # skein-bench's own --set: every workload gets it (recorded in the context), a bad value is the case's error
  set(SKEIN_BENCH_SET_FILTER "^w2sweptdirect/[^/]+/ropes:64/particles:32/steps:32/threads:1/")
  add_test(NAME bench.set COMMAND skein-bench --set direct.tolerance=0 --benchmark_filter=${SKEIN_BENCH_SET_FILTER})
  set_tests_properties(bench.set PROPERTIES PASS_REGULAR_EXPRESSION "skein_sets: direct.tolerance=0.*w2sweptdirect/.*items_per_second")
  add_test(NAME bench.set_bad_value COMMAND skein-bench --set=direct.tolerance=5 --benchmark_filter=${SKEIN_BENCH_SET_FILTER})
  set_tests_properties(bench.set_bad_value PROPERTIES
    PASS_REGULAR_EXPRESSION "ERROR OCCURRED: 'override direct.tolerance=5: direct.tolerance: must be in \\[0, 1\\]'")
  add_test(NAME bench.set_missing COMMAND skein-bench --set)
  set_tests_properties(bench.set_missing PROPERTIES WILL_FAIL TRUE)

  find_program(SKEIN_BASH bash REQUIRED)
  set(SKEIN_REPORT_CHECK ${CMAKE_CURRENT_SOURCE_DIR}/bench/report_check.sh)
  set(SKEIN_REPORT ${PROJECT_SOURCE_DIR}/bench/report)
  add_test(NAME bench.report_table
    COMMAND ${SKEIN_BASH} ${SKEIN_REPORT_CHECK} table ${SKEIN_REPORT} ${PROJECT_BINARY_DIR}/bench-report-table)
  add_test(NAME bench.report_plots
    COMMAND ${SKEIN_BASH} ${SKEIN_REPORT_CHECK} plots ${SKEIN_REPORT} ${PROJECT_BINARY_DIR}/bench-report-plots)
  set_tests_properties(bench.report_plots PROPERTIES SKIP_RETURN_CODE 77)
  add_test(NAME bench.report_smoke
    COMMAND ${SKEIN_BASH} ${SKEIN_REPORT_CHECK} smoke ${SKEIN_REPORT} ${PROJECT_BINARY_DIR}/bench-report-smoke
            ${PROJECT_BINARY_DIR}/bench-smoke.json)
  set_tests_properties(bench.report_smoke PROPERTIES FIXTURES_REQUIRED bench_smoke)
endif()
