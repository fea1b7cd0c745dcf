# The harness itself: check.h must report failures (a test that cannot fail is no test).
skein_test(harness SOURCES test_harness.c CASES passes near_fails bits_fail)
set_tests_properties(harness.near_fails harness.bits_fail PROPERTIES WILL_FAIL TRUE)
