/* Checks that the harness macros fail when they should (registered WILL_FAIL in ctest). */
#include "check.h"

static int passes(void)
{
    CHECK_NEAR(0.1 + 0.2, 0.3, 1e-15);
    CHECK_SAME_BITS(1.5, 1.5);
    return 0;
}

static int near_fails(void)
{
    CHECK_NEAR(1.0, 1.1, 1e-3);
    return 0;
}

static int bits_fail(void)
{
    CHECK_SAME_BITS(0.0, -0.0);
    return 0;
}

CHECK_MAIN({"passes", passes}, {"near_fails", near_fails}, {"bits_fail", bits_fail})
