# skein-view and files planted by someone else: links at the screenshot's names.
if(TARGET skein-view)
  skein_test(viewer_files SOURCES test_viewer_files.c LIBS skein_view_logic CASES screenshot_symlink
    next_name_link)
endif()
