# A run split across processes, without MPI: slices of a scenario and frames put end to end (test_slice.c).
skein_test(slice SOURCES test_slice.c CASES params equal_whole)
# skein run across processes under mpirun (tests/mpi/mpi.sh): built with SKEIN_MPI, and mpirun found.
if(SKEIN_MPI)
  find_program(SKEIN_MPIRUN NAMES mpirun mpiexec)
  find_program(SKEIN_BASH bash REQUIRED)
  if(SKEIN_MPIRUN)
    set(SKEIN_MPI_CASES w1 w2 deploying diverging failing_rank interrupted interrupted_mpirun collective memory
        checkpoint_ranks checkpoint_single checkpoint_collective refused vtk warm_start results
        results_checkpoint checkpoint_bdf2)
    if(SKEIN_SANITIZE)
      # Two of them (frames gathered to rank 0, checkpoints streamed to it) hold the buffers the others use;
      # the rest (mpirun's start under ASan takes 10 to 20 s each) run in the other builds.
      set(SKEIN_MPI_CASES w1 checkpoint_ranks)
    endif()
    foreach(c ${SKEIN_MPI_CASES})
      add_test(NAME mpi.${c} COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi.sh $<TARGET_FILE:skein>
        ${PROJECT_SOURCE_DIR} ${SKEIN_MPIRUN} ${c})
      if(SKEIN_SANITIZE MATCHES "address")
        # COST: the longest test of that build (a minute, several mpirun starts); started first, it runs beside
        # the others instead of after them.
        set_tests_properties(mpi.${c} PROPERTIES COST 1000 ENVIRONMENT
          "OMPI_MCA_mca_base_component_disable_dlclose=1;ASAN_OPTIONS=fast_unwind_on_malloc=0;LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/mpi/openmpi.supp:fast_unwind_on_malloc=0")
      endif()
    endforeach()
  endif()
endif()
