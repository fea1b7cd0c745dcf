# The Python package (python/): pytest files of python/tests, each a ctest test, run by SKEIN_PYTHON against
# the build's copy of the package (BUILD/python) and the build's libskein and skein. Not in sanitizer builds:
# Python would have to preload the sanitizers' runtime to load an instrumented libskein.
if(SKEIN_BUILD_PYTHON AND NOT SKEIN_SANITIZE)
  execute_process(COMMAND ${SKEIN_PYTHON} -c "import pytest, h5py" RESULT_VARIABLE skein_pytest_rc
    OUTPUT_QUIET ERROR_QUIET)
  if(NOT skein_pytest_rc EQUAL 0)
    message(WARNING "${SKEIN_PYTHON} lacks pytest or h5py (python3-pytest python3-h5py): no Python tests")
  else()
    file(GLOB SKEIN_PY_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python/tests/test_*.py)
    foreach(t ${SKEIN_PY_TESTS})
      get_filename_component(name ${t} NAME_WE)
      string(REGEX REPLACE "^test_" "" name ${name})
      add_test(NAME python.${name} COMMAND ${SKEIN_PYTHON} -m pytest -q -p no:cacheprovider ${t})
      set_tests_properties(python.${name} PROPERTIES TIMEOUT 120 ENVIRONMENT
        "PYTHONPATH=${PROJECT_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1;OMP_NUM_THREADS=2;SKEIN_CLI=$<TARGET_FILE:skein>;SKEIN_ABI_PROBE=$<TARGET_FILE:skein_abi_probe>;SKEIN_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
    endforeach()
  endif()
endif()
# examples/sweep.py runs, checks its ropes against the closed form (exit 1 beyond 1e-4) and writes its figure.
if(SKEIN_BUILD_PYTHON AND NOT SKEIN_SANITIZE)
  execute_process(COMMAND ${SKEIN_PYTHON} -c "import matplotlib" RESULT_VARIABLE skein_mpl_rc OUTPUT_QUIET ERROR_QUIET)
  if(skein_mpl_rc EQUAL 0)
    add_test(NAME python.example_sweep COMMAND ${SKEIN_PYTHON} ${PROJECT_SOURCE_DIR}/examples/sweep.py
      --out ${CMAKE_CURRENT_BINARY_DIR}/sweep.png)
    set_tests_properties(python.example_sweep PROPERTIES TIMEOUT 120 ENVIRONMENT
      "PYTHONPATH=${PROJECT_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1;OMP_NUM_THREADS=2;MPLCONFIGDIR=${CMAKE_CURRENT_BINARY_DIR}/mplconfig")
  endif()
endif()
