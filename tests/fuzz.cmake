# The scenario loader under fuzzing: its corpus replayed as ctest tests in every build, and with SKEIN_FUZZ
# (clang) the libFuzzer binary fuzz_scenario and a target that runs it.
skein_test(fuzz_replay SOURCES fuzz_replay.c fuzz_scenario.c CASES scenarios bad seeds regressions)

if(SKEIN_FUZZ)
  add_executable(fuzz_scenario fuzz_scenario.c)
  target_link_libraries(fuzz_scenario PRIVATE skein_lib)
  target_include_directories(fuzz_scenario PRIVATE ${PROJECT_SOURCE_DIR}/core)
  target_link_options(fuzz_scenario PRIVATE -fsanitize=fuzzer)
  set_target_properties(fuzz_scenario PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

  # `cmake --build B --target fuzz`: SKEIN_FUZZ_SECONDS of fuzzing. New inputs go to B/fuzz_corpus (the
  # first directory, the only one libFuzzer writes to), so the seed directories stay as they are; crashes
  # go to B/fuzz_artifacts.
  set(SKEIN_FUZZ_SECONDS 60 CACHE STRING "Seconds the fuzz target runs the fuzzer")
  add_custom_target(fuzz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/fuzz_corpus
            ${PROJECT_BINARY_DIR}/fuzz_artifacts
    COMMAND $<TARGET_FILE:fuzz_scenario> -max_total_time=${SKEIN_FUZZ_SECONDS} -max_len=4096 -timeout=10
            -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_scenario.dict
            -artifact_prefix=${PROJECT_BINARY_DIR}/fuzz_artifacts/
            ${PROJECT_BINARY_DIR}/fuzz_corpus ${PROJECT_SOURCE_DIR}/scenarios ${CMAKE_CURRENT_SOURCE_DIR}/bad
            ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_regressions
    DEPENDS fuzz_scenario
    USES_TERMINAL
    COMMENT "Fuzzing the scenario loader for ${SKEIN_FUZZ_SECONDS} s")
endif()

# The readers of files someone else may have made, under fuzzing: the checkpoint and its frame journal
# (fuzz_checkpoint.c) and skein-view's HDF5 replay reader (fuzz_h5_replay.c, viewer/replay.c: no window, so
# built with or without the viewer). Their seeds (real checkpoints and outputs, tests/fuzz_make_seeds.sh)
# and regressions are replayed as ctest tests in every build, files named on the command line (none at all
# fails, so a moved corpus cannot pass unseen). With SKEIN_FUZZ the libFuzzer binaries, whose mutations are
# edits through HDF5 (fuzz_h5_edit.c, libFuzzer's only: it calls LLVMFuzzerMutate), and the targets
# fuzz_checkpoint_run and fuzz_h5_replay_run (SKEIN_FUZZ_SECONDS each, as `fuzz`).
set(SKEIN_FILE_FUZZERS checkpoint h5_replay)
set(SKEIN_FUZZ_checkpoint_SOURCES fuzz_checkpoint.c)
set(SKEIN_FUZZ_h5_replay_SOURCES fuzz_h5_replay.c ${PROJECT_SOURCE_DIR}/viewer/replay.c ${PROJECT_SOURCE_DIR}/viewer/sim.c)
foreach(f ${SKEIN_FILE_FUZZERS})
  file(GLOB seeds CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_${f}_seeds/*)
  file(GLOB regressions CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_${f}_regressions/*)
  add_executable(test_fuzz_${f} fuzz_replay.c ${SKEIN_FUZZ_${f}_SOURCES})
  target_link_libraries(test_fuzz_${f} PRIVATE skein_lib)
  target_include_directories(test_fuzz_${f} PRIVATE ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/viewer)
  target_compile_definitions(test_fuzz_${f} PRIVATE SKEIN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_test(NAME fuzz_${f}.seeds COMMAND test_fuzz_${f} ${seeds})
  add_test(NAME fuzz_${f}.regressions COMMAND test_fuzz_${f} ${regressions})
  # libhdf5 1.10 leaks on its own error paths when a file is damaged: those leaks only (fuzz_hdf5.supp)
  set_tests_properties(fuzz_${f}.seeds fuzz_${f}.regressions PROPERTIES
    ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_hdf5.supp")

  if(SKEIN_FUZZ)
    add_executable(fuzz_${f} ${SKEIN_FUZZ_${f}_SOURCES} fuzz_h5_edit.c)
    target_link_libraries(fuzz_${f} PRIVATE skein_lib)
    target_include_directories(fuzz_${f} PRIVATE ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/viewer)
    target_compile_definitions(fuzz_${f} PRIVATE SKEIN_LIBFUZZER=1)
    target_link_options(fuzz_${f} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz_${f} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
    add_custom_target(fuzz_${f}_run
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/fuzz_${f}_corpus
              ${PROJECT_BINARY_DIR}/fuzz_artifacts
      COMMAND ${CMAKE_COMMAND} -E env LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/fuzz_hdf5.supp
              $<TARGET_FILE:fuzz_${f}> -max_total_time=${SKEIN_FUZZ_SECONDS} -max_len=262144 -timeout=10
              -artifact_prefix=${PROJECT_BINARY_DIR}/fuzz_artifacts/ ${PROJECT_BINARY_DIR}/fuzz_${f}_corpus
              ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_${f}_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_${f}_regressions
      DEPENDS fuzz_${f}
      USES_TERMINAL
      COMMENT "Fuzzing the ${f} reader for ${SKEIN_FUZZ_SECONDS} s")
  endif()
endforeach()
