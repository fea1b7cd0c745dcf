# The per-lane banded solves against a dense LAPACK solve (LAPACKE_dgesv) of the same system: the implicit
# integrator's block-tridiagonal one and the direct chain solver's pentadiagonal one. LAPACKE is Debian's
# liblapacke-dev (.ci/setup installs it); without it the cases are still registered, and fail saying so,
# rather than vanish from the suite.
set(SKEIN_IMPLICIT_SOLVE_CASES spring_free spring_pinned bungee_pinned drag anchored_spring anchored_bungee
  fake_spring gravity_acceleration residual_stiff very_stiff bdf2_blocks)
set(SKEIN_DIRECT_SOLVE_CASES rods_ground cables_ground pinned_ends)
pkg_check_modules(LAPACKE QUIET IMPORTED_TARGET lapacke lapack)
if(NOT LAPACKE_FOUND)
  find_path(SKEIN_LAPACKE_INCLUDE lapacke.h PATH_SUFFIXES lapacke)
  find_library(SKEIN_LAPACKE_LIB lapacke)
  find_library(SKEIN_LAPACK_LIB lapack)
endif()

# skein_lapack_test(NAME SOURCES... CASES...): a skein_test linked with LAPACKE, or failing cases without it.
function(skein_lapack_test name)
  cmake_parse_arguments(T "" "" "SOURCES;CASES" ${ARGN})
  if(LAPACKE_FOUND)
    skein_test(${name} SOURCES ${T_SOURCES} CASES ${T_CASES} LIBS PkgConfig::LAPACKE)
  elseif(SKEIN_LAPACKE_INCLUDE AND SKEIN_LAPACKE_LIB AND SKEIN_LAPACK_LIB)
    skein_test(${name} SOURCES ${T_SOURCES} CASES ${T_CASES} LIBS ${SKEIN_LAPACKE_LIB} ${SKEIN_LAPACK_LIB})
    target_include_directories(test_${name} PRIVATE ${SKEIN_LAPACKE_INCLUDE})
  else()
    set(msg "LAPACKE not found (install liblapacke-dev, as .ci/setup does): the ${name} tests cannot run")
    message(WARNING "${msg}")
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/${name}_lapacke_missing.cmake "message(FATAL_ERROR \"${msg}\")\n")
    foreach(c ${T_CASES})
      add_test(NAME ${name}.${c} COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_BINARY_DIR}/${name}_lapacke_missing.cmake)
    endforeach()
  endif()
endfunction()

skein_lapack_test(implicit_solve SOURCES test_implicit_solve.c test_batch_common.c CASES ${SKEIN_IMPLICIT_SOLVE_CASES})
skein_lapack_test(direct_solve SOURCES test_direct_solve.c CASES ${SKEIN_DIRECT_SOLVE_CASES})
