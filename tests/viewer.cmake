# skein-view: its logic without a window (camera, colours, grid, keys, ropes, options, scene, PNG), its
# command line, and the window itself under Xvfb (registered only when xvfb-run is found).
if(TARGET skein-view)
  skein_test(viewer_camera SOURCES test_viewer_camera.c LIBS skein_view_logic CASES by_hand clip_planes
    target_at_centre view_matrix orbit_keeps_distance zoom_and_pan frame_keeps_box_inside frame_bad_box)
  skein_test(viewer_accumulator SOURCES test_viewer_accumulator.c LIBS skein_view_logic CASES
    steps_and_remainder)
  skein_test(viewer_colormap SOURCES test_viewer_colormap.c LIBS skein_view_logic CASES endpoints
    between_stops nice_scale grid_fit grid_outgrown)
  skein_test(viewer_controls SOURCES test_viewer_controls.c LIBS skein_view_logic CASES pause_then_step
    speed step_budget reset_and_next_rope window_keys strain_and_energy diverged_rope_stops warm_start)
  add_dependencies(test_viewer_controls skein) # the warm start case makes its HDF5 file with skein run --h5
  skein_test(viewer_options SOURCES test_viewer_options.c LIBS skein_view_logic CASES all_options errors
    ropes hdf5_files)
  skein_test(viewer_scene SOURCES test_viewer_scene.c LIBS skein_view_logic CASES build particle_size
    legend_rect png_round_trip png_unwritable next_name)
  skein_test(viewer_replay SOURCES test_viewer_replay.c LIBS skein_view_logic CASES csv_positions navigation
    rope_not_held not_skein crafted_extents crafted_values)
  add_dependencies(test_viewer_replay skein)

  find_program(SKEIN_BASH bash REQUIRED)
  set(SKEIN_VIEWER_TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/viewer)
  # Command-line cases that need no display (cases of tests/viewer/cli.sh).
  foreach(c help no_display no_display_interactive hdf5_not_skein hdf5_rope_missing bad_scenario missing_file unknown_option
      rope_out_of_range group_out_of_range)
    add_test(NAME viewer.cli.${c} COMMAND ${SKEIN_BASH} ${SKEIN_VIEWER_TEST_DIR}/cli.sh
      $<TARGET_FILE:skein-view> ${PROJECT_SOURCE_DIR} ${c})
  endforeach()
  add_dependencies(skein-view skein) # the replay cases make their HDF5 files with skein run --h5

  find_program(SKEIN_XVFB_RUN xvfb-run)
  if(SKEIN_XVFB_RUN)
    # Under AddressSanitizer, leak checks are off for the window's tests: Mesa's driver is unloaded at exit
    # and leaves allocations LeakSanitizer cannot attribute (frames in an unloaded module). The viewer's
    # own memory handling (ropes, scene, options, PNG) is leak-checked by the tests above, without GL.
    set(SKEIN_VIEWER_ENV "ASAN_OPTIONS=detect_leaks=0")
    set(SKEIN_XVFB ${SKEIN_XVFB_RUN} -a -s "-screen 0 1024x768x24")
    skein_test(viewer_shot SOURCES test_viewer_shot.c LIBS skein_view_logic)
    add_dependencies(test_viewer_shot skein) # the replay case makes its HDF5 file with skein run --h5
    foreach(c pinned anchored replay)
      add_test(NAME viewer.screenshot.${c} COMMAND ${SKEIN_XVFB} $<TARGET_FILE:test_viewer_shot>
        $<TARGET_FILE:skein-view> ${SKEIN_VIEWER_TEST_DIR}/short_ropes.json ${c})
    endforeach()
    foreach(c screenshot_replaces screenshot_unwritable screenshot_initial screenshot_paths)
      add_test(NAME viewer.cli.${c} COMMAND ${SKEIN_XVFB} ${SKEIN_BASH} ${SKEIN_VIEWER_TEST_DIR}/cli.sh
        $<TARGET_FILE:skein-view> ${PROJECT_SOURCE_DIR} ${c})
    endforeach()
    # xvfb-run -a picks a free display number, but two starting at once can pick the same one.
    set_tests_properties(viewer.screenshot.pinned viewer.screenshot.anchored viewer.screenshot.replay
      viewer.cli.screenshot_replaces
      viewer.cli.screenshot_unwritable viewer.cli.screenshot_initial viewer.cli.screenshot_paths PROPERTIES RESOURCE_LOCK xvfb
      ENVIRONMENT "${SKEIN_VIEWER_ENV}")
  endif()
endif()
