# The installed package (cmake --install, find_package(skein), pkg-config) used by examples/ from outside. Not
# in sanitizer builds: a program outside the build would need the sanitizers' runtime and flags too.
if(NOT SKEIN_SANITIZE)
  find_program(SKEIN_BASH bash REQUIRED)
  add_test(NAME install.package COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/install.sh
    ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  # It installs the build's own products: nothing that ctest runs beside it may be rebuilding them.
  set_tests_properties(install.package PROPERTIES RUN_SERIAL TRUE TIMEOUT 300)
endif()
