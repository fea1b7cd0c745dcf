# The mutation campaign (tests/mutation/run.sh BUILD_DIR, not run in CI: it rebuilds the library once per
# mutation): its list is checked here, cheaply, so that it does not rot: its syntax, every mutation's text
# still on exactly one line of its file, every tests regex selecting some test of this build.
add_test(NAME mutation.list COMMAND ${SKEIN_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/mutation/mutate.py check
  ${CMAKE_CURRENT_SOURCE_DIR}/mutation/mutations.txt ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
