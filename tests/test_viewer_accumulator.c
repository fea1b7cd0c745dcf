/* The viewer's fixed-step accumulator of real time (docs/model.md section 8), against values worked out
 * by hand. */
#include "accumulator.h"
#include "check.h"

static int accumulator(void)
{
    /* dt = 1/512 s = 0.001953125 */
    sk_accumulator acc = sk_accumulator_make((sk_real)(1.0 / 512));
    CHECK(sk_accumulator_add(&acc, 0.005) == 2); /* 2.56 steps: 2, keeps 0.56 dt */
    CHECK_NEAR(acc.remainder, 0.005 - 2.0 / 512, 1e-15);
    CHECK(sk_accumulator_add(&acc, 0.0008) == 0); /* 0.56 + 0.4096 = 0.9696 steps... */
    CHECK_NEAR(acc.remainder, 0.0058 - 2.0 / 512, 1e-15);
    CHECK(sk_accumulator_add(&acc, 0.0001) == 1); /* ...plus 0.0512: 1.0208 */
    CHECK(sk_accumulator_add(&acc, 0) == 0);      /* nothing added */
    CHECK(sk_accumulator_add(&acc, -1) == 0);
    CHECK_NEAR(acc.remainder, 0.0059 - 3.0 / 512, 1e-15);
    /* a 2 s frame counts as 0.01 s: 0.0208 + 5.12 steps -> 5 */
    CHECK(sk_accumulator_add(&acc, 2.0) == 5);
    CHECK_NEAR(acc.remainder, 0.0159 - 8.0 / 512, 1e-15);
    return 0;
}

CHECK_MAIN({"steps_and_remainder", accumulator})
