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
