# A run split across processes, without MPI: slices of a scenario and frames put end to end (test_slice.c).
skein_test(slice SOURCES test_slice.c CASES params equal_whole)
# skein run across processes under mpirun (tests/mpi/mpi.sh): built with SKEIN_MPI, and mpirun found.
if(SKEIN_MPI)
  find_program(SKEIN_MPIRUN NAMES mpirun mpiexec)
  find_program(SKEIN_BASH bash REQUIRED)
  if(SKEIN_MPIRUN)
    foreach(c w1 w2 deploying diverging failing_rank interrupted interrupted_mpirun collective memory
            checkpoint_ranks checkpoint_single checkpoint_collective refused vtk warm_start results
            results_checkpoint)
      add_test(NAME mpi.${c} COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi.sh $<TARGET_FILE:skein>
        ${PROJECT_SOURCE_DIR} ${SKEIN_MPIRUN} ${c})
      if(SKEIN_SANITIZE MATCHES "address")
        set_tests_properties(mpi.${c} PROPERTIES ENVIRONMENT
          "OMPI_MCA_mca_base_component_disable_dlclose=1;ASAN_OPTIONS=fast_unwind_on_malloc=0;LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/mpi/openmpi.supp:fast_unwind_on_malloc=0")
      endif()
    endforeach()
  endif()
endif()
