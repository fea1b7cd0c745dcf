# The installed package (cmake --install, find_package(skein), pkg-config) used by examples/ from outside.
find_program(SKEIN_BASH bash REQUIRED)
add_test(NAME install.package COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/install/install.sh
  ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
# It installs the build's own products: whatever ctest runs alongside must not rebuild them under it.
set_tests_properties(install.package PROPERTIES RUN_SERIAL TRUE TIMEOUT 300)
