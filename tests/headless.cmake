# The headless batch run: HDF5 output read back with libhdf5, sweeps, --set, the summary, the progress
# bar, Ctrl-C and divergence, through the library (test_h5_output) and the command line (headless.sh).
skein_test(h5_output SOURCES test_h5_output.c CASES layout equals_csv params incomplete empty_selections
  param_units totals contacts)
# Frame checks through the engine seam: advance and check in one pass equals the two calls.
skein_test(frame_check SOURCES test_frame_check.c test_batch_common.c CASES fused_equals_separate
  fused_reference_groups run_reports start_value_overflow divergence_bounds checks_copy_nothing
  resume_replays)

# h5_probe: prints a skein HDF5 file as text (or as the CSV of the same frames) for the scripts.
add_executable(h5_probe h5_probe.c)
target_link_libraries(h5_probe PRIVATE skein_lib)

find_program(SKEIN_BASH bash REQUIRED)
foreach(c h5_equals_csv h5_equals_csv_reference sweeps_land set_from_command_line interrupt_h5 diverge
    diverge_reference summary_figures progress_not_terminal progress_terminal h5_unwritable h5_full
    h5_replaces memory_refused readme_example)
  add_test(NAME headless.${c}
    COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/headless/headless.sh $<TARGET_FILE:skein>
      ${PROJECT_SOURCE_DIR} ${c} $<TARGET_FILE:h5_probe> ${SKEIN_REAL})
endforeach()
# Without h5py (python3-h5py) the README example cannot run: the test says so and is skipped.
set_tests_properties(headless.readme_example PROPERTIES SKIP_RETURN_CODE 77)
