# The implicit integrator's per-lane block-tridiagonal solve against a dense LAPACK solve (LAPACKE_dgesv) of
# the same system. LAPACKE is Debian's liblapacke-dev (.ci/setup installs it); without it the cases are still
# registered, and fail saying so, rather than vanish from the suite.
set(SKEIN_IMPLICIT_SOLVE_CASES spring_free spring_pinned bungee_pinned drag anchored_spring anchored_bungee
  fake_spring gravity_acceleration residual_stiff very_stiff)
pkg_check_modules(LAPACKE QUIET IMPORTED_TARGET lapacke lapack)
if(LAPACKE_FOUND)
  skein_test(implicit_solve SOURCES test_implicit_solve.c test_batch_common.c CASES ${SKEIN_IMPLICIT_SOLVE_CASES}
    LIBS PkgConfig::LAPACKE)
else()
  find_path(SKEIN_LAPACKE_INCLUDE lapacke.h PATH_SUFFIXES lapacke)
  find_library(SKEIN_LAPACKE_LIB lapacke)
  find_library(SKEIN_LAPACK_LIB lapack)
  if(SKEIN_LAPACKE_INCLUDE AND SKEIN_LAPACKE_LIB AND SKEIN_LAPACK_LIB)
    skein_test(implicit_solve SOURCES test_implicit_solve.c test_batch_common.c CASES ${SKEIN_IMPLICIT_SOLVE_CASES}
      LIBS ${SKEIN_LAPACKE_LIB} ${SKEIN_LAPACK_LIB})
    target_include_directories(test_implicit_solve PRIVATE ${SKEIN_LAPACKE_INCLUDE})
  else()
    set(msg "LAPACKE not found (install liblapacke-dev, as .ci/setup does): the implicit_solve tests cannot run")
    message(WARNING "${msg}")
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/lapacke_missing.cmake "message(FATAL_ERROR \"${msg}\")\n")
    foreach(c ${SKEIN_IMPLICIT_SOLVE_CASES})
      add_test(NAME implicit_solve.${c} COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_BINARY_DIR}/lapacke_missing.cmake)
    endforeach()
  endif()
endif()
