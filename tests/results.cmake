# Extremes over every step and the results table (skein run --results).
skein_test(extremes SOURCES test_extremes.c test_batch_common.c CASES
  springs rods_cyclone rods_direct deploying diverging static_chain pendulum frames_bound api compared held_ends
  support_pendulum)
skein_test(results SOURCES test_results.c test_batch_common.c CASES columns rows states)
foreach(c table paths interrupt diverging warm_start write_error)
  skein_cli_test(results.${c} results.sh ${c})
endforeach()
