# The validation suite (docs/validation.md, tests/validation/): skein against published measurements
# (MoorDyn's validation cases: the Lowe and Langley jumper, the quasi-static chain catenaries) and closed
# forms, with issue 28's tolerances; label `validation` (`ctest -L validation`). compare.py reads the HDF5
# output with h5py and numpy (.ci/setup installs python3-h5py and python3-numpy). Not in sanitizer builds:
# the batch engine's code they run is checked there against the reference engine bit for bit
# (batch_accuracy), and each case is minutes of simulated time.
execute_process(COMMAND ${SKEIN_PYTHON} -c "import h5py, numpy" RESULT_VARIABLE skein_validation_rc
  OUTPUT_QUIET ERROR_QUIET)
if(NOT SKEIN_SANITIZE AND skein_validation_rc EQUAL 0)
  foreach(c jumper_static jumper_case1 jumper_case2 jumper_case4 chain_0050_static chain_0050_heave
          chain_0200_static chain_0200_heave catenary_air terminal_velocity added_mass_period
          jumper_case1_bdf2 jumper_case2_bdf2 jumper_case4_bdf2 chain_0050_heave_bdf2 chain_0200_heave_bdf2
          jumper_static_solved chain_0050_static_solved chain_0200_static_solved)
    add_test(NAME validation.${c} COMMAND ${SKEIN_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/validation/compare.py ${c}
      $<TARGET_FILE:skein> ${CMAKE_CURRENT_BINARY_DIR}/validation/${c})
    set_tests_properties(validation.${c} PROPERTIES LABELS validation SKIP_RETURN_CODE 77 TIMEOUT 600
      ENVIRONMENT "OMP_NUM_THREADS=1;PYTHONDONTWRITEBYTECODE=1")
  endforeach()
  # The driven cases start from their static case's last frame: ordered after it (DEPENDS: whatever its
  # outcome; a float build skips the jumper's), compare.py takes the static test's output where it is newer
  # than skein and the scenario, and runs the static case itself otherwise.
  set_tests_properties(validation.jumper_case1 validation.jumper_case2 validation.jumper_case4
    validation.jumper_case1_bdf2 validation.jumper_case2_bdf2 validation.jumper_case4_bdf2 PROPERTIES
    DEPENDS validation.jumper_static)
  foreach(d 0050 0200)
    set_tests_properties(validation.chain_${d}_heave validation.chain_${d}_heave_bdf2 PROPERTIES
      DEPENDS validation.chain_${d}_static)
  endforeach()
elseif(NOT SKEIN_SANITIZE)
  message(WARNING "${SKEIN_PYTHON} lacks h5py or numpy (python3-h5py python3-numpy): no validation tests")
endif()
