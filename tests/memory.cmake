# The true peak of a large run per particle (tests/memory/peak.py). Not in sanitizer builds, whose shadow
# memory is most of the peak.
if(NOT SKEIN_SANITIZE)
  add_test(NAME memory.peak COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/memory/peak.py
    $<TARGET_FILE:skein> ${PROJECT_SOURCE_DIR}/scenarios/w1_springs.json)
  set_tests_properties(memory.peak PROPERTIES RUN_SERIAL TRUE TIMEOUT 120)
endif()
