# VTK output (--vtk DIR, for ParaView): the writer's bytes and directory rules (test_vtk), the files read back
# by VTK itself against the HDF5 output of the same run, a frame rendered off-screen under Xvfb, and the
# command line's path rules and Ctrl-C (tests/vtk/cli.sh), and ParaView reading it where installed.
skein_test(vtk SOURCES test_vtk.c CASES arrays_links arrays_polylines replaces_own_output refuses_other_files
  abort_keeps_target keep_incomplete bad_input write_error)

# Read back with Debian's python3-vtk9 (skipped, exit 77, without it).
foreach(c springs deploy rods polylines diverge)
  add_test(NAME vtk.readback.${c} COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/vtk/readback.py
    $<TARGET_FILE:skein> ${PROJECT_SOURCE_DIR} ${c} ${SKEIN_REAL})
  set_tests_properties(vtk.readback.${c} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

find_program(SKEIN_BASH bash REQUIRED)
foreach(c refused replaces interrupt)
  add_test(NAME vtk.cli.${c} COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/vtk/cli.sh $<TARGET_FILE:skein>
    ${PROJECT_SOURCE_DIR} ${c})
endforeach()

find_program(SKEIN_XVFB_RUN xvfb-run)
if(SKEIN_XVFB_RUN)
  # Mesa under LeakSanitizer: see tests/viewer.cmake (the render is Python's, but skein runs under it first)
  add_test(NAME vtk.render COMMAND ${SKEIN_XVFB_RUN} -a -s "-screen 0 1024x768x24" /usr/bin/python3
    ${CMAKE_CURRENT_SOURCE_DIR}/vtk/render.py $<TARGET_FILE:skein> ${PROJECT_SOURCE_DIR})
  # xvfb-run -a picks a free display number, but two starting at once can pick the same one.
  set_tests_properties(vtk.render PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK xvfb)
endif()

# ParaView itself reading the collection: only where Debian's paraview and python3-paraview are installed (not
# in .ci/setup: over 400 MB for one check that VTK's own reader above already makes).
# pvbatch alone is not enough: its Python modules come with python3-paraview, which apt removes when it
# installs python3-vtk9 (the two conflict), so the check is that pvbatch can import them.
find_program(SKEIN_PVBATCH pvbatch)
if(SKEIN_PVBATCH)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/paraview_probe.py "from paraview import servermanager\n")
  execute_process(COMMAND ${SKEIN_PVBATCH} ${CMAKE_CURRENT_BINARY_DIR}/paraview_probe.py
    RESULT_VARIABLE skein_pvbatch_rc OUTPUT_QUIET ERROR_QUIET TIMEOUT 60)
endif()
if(SKEIN_PVBATCH AND skein_pvbatch_rc EQUAL 0)
  add_test(NAME vtk.paraview COMMAND ${SKEIN_PVBATCH} ${CMAKE_CURRENT_SOURCE_DIR}/vtk/paraview_reads.py
    $<TARGET_FILE:skein> ${PROJECT_SOURCE_DIR})
endif()
