# Extremes over every step and the results table (skein run --results).
skein_test(extremes SOURCES test_extremes.c test_batch_common.c CASES
  springs rods_cyclone rods_direct deploying diverging static_chain pendulum frames_bound api compared)
foreach(c table paths interrupt diverging warm_start)
  skein_cli_test(results.${c} results.sh ${c})
endforeach()
