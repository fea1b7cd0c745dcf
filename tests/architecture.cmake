# The library's shape (docs/architecture.md), read from its object files: calls go down the layers, no
# circles between files, OpenMP in core/base/parallel.c alone.
set(SKEIN_KERNEL_OBJECT_DIRS "")
foreach(t ${SKEIN_KERNEL_TARGETS})
  list(APPEND SKEIN_KERNEL_OBJECT_DIRS ${PROJECT_BINARY_DIR}/kernels/CMakeFiles/${t}.dir)
endforeach()
add_test(NAME architecture.layers COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/architecture/layers.py
  "${PROJECT_BINARY_DIR}/core/CMakeFiles/skein_objects.dir:${PROJECT_BINARY_DIR}/core/CMakeFiles/skein_h5_objects.dir:${PROJECT_BINARY_DIR}/core/CMakeFiles/skein_util_objects.dir"
  ${SKEIN_KERNEL_OBJECT_DIRS})

# The contracts (SK_ASSERT) stop a program that hands the library an index out of range: only where they are
# compiled in (Debug and sanitizer builds).
if(SKEIN_ASSERTS)
  skein_test(contracts SOURCES test_contracts.c CASES rope_index_batch rope_index_reference group_index)
endif()

# Every program's includes: public headers only for skein-view, the examples and Python; the internal headers
# docs/architecture.md lists for the skein program and skein-bench. includes_refused: a viewer file that
# includes the reference engine's header fails the check.
add_test(NAME architecture.includes COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/architecture/includes.py
  ${PROJECT_SOURCE_DIR})
add_test(NAME architecture.includes_refused COMMAND /usr/bin/python3
  ${CMAKE_CURRENT_SOURCE_DIR}/architecture/includes.py ${PROJECT_SOURCE_DIR}
  --as skein-view ${CMAKE_CURRENT_SOURCE_DIR}/architecture/viewer_reaches_in.c)
set_tests_properties(architecture.includes_refused PROPERTIES WILL_FAIL TRUE)
