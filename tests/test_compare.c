/* skein compare's bookkeeping: largest deviation, where it was, bit differences, tolerance. */
#include <math.h>
#include <string.h>

#include "scenario/scenario.h"
#include "check.h"
#include "skein/output.h"
#include "engine/compare.h"

static int identical(void)
{
    const sk_real a[4] = {1, -2, (sk_real)0.1, 0};
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    sk_deviation_add(&g.position, a, a, 4, 3, 10);
    sk_deviation_add(&g.velocity, a, a, 4, 3, 10);
    CHECK(g.position.max == 0 && g.position.differing == 0 && g.position.compared == 4);
    CHECK(sk_group_deviation_within(&g, 0));
    return 0;
}

/* The largest |a - b| wins, with the rope and step where it was first reached. */
static int values(void)
{
    const sk_real a[3] = {1, 2, 3}, b[3] = {1, (sk_real)2.5, 2};
    const sk_real c[3] = {1, 2, (sk_real)3.25};
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    sk_deviation_add(&g.position, a, b, 3, 7, 100); /* 0, 0.5, 1 */
    sk_deviation_add(&g.position, a, c, 3, 8, 200); /* 0.25 < 1: location stays */
    sk_deviation_add(&g.position, b, a, 3, 9, 300); /* 1 again: the first stays */
    CHECK(g.position.max == 1 && g.position.rope == 7 && g.position.step == 100);
    CHECK(g.position.differing == 2 + 1 + 2 && g.position.compared == 9);
    CHECK(!sk_group_deviation_within(&g, 0));
    CHECK(!sk_group_deviation_within(&g, 0.99));
    CHECK(sk_group_deviation_within(&g, 1));
    return 0;
}

/* +0 and -0 are the same number but not the same bits: only tolerance 0 tells them apart. */
static int signed_zero(void)
{
    const sk_real a[1] = {0}, b[1] = {-(sk_real)0};
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    sk_deviation_add(&g.velocity, a, b, 1, 0, 0);
    CHECK(g.velocity.max == 0 && g.velocity.differing == 1);
    CHECK(!sk_group_deviation_within(&g, 0));
    CHECK(sk_group_deviation_within(&g, 1e-300));
    return 0;
}

/* A non-finite value against a different one is an infinite deviation; equal bits are none. */
static int non_finite(void)
{
    const sk_real nan_ = (sk_real)NAN, inf = (sk_real)INFINITY;
    const sk_real a[3] = {nan_, inf, 1}, same[3] = {nan_, inf, 1}, other[3] = {1, inf, nan_};
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    sk_deviation_add(&g.position, a, same, 3, 0, 0);
    CHECK(g.position.max == 0 && g.position.differing == 0);
    sk_deviation_add(&g.position, a, other, 3, 4, 5);
    CHECK(isinf(g.position.max) && g.position.rope == 4 && g.position.step == 5);
    CHECK(g.position.differing == 2);
    CHECK(!sk_group_deviation_within(&g, 1e300));
    return 0;
}

/* Ropes whose particle counts differ are beyond any tolerance. */
static int counts_differ(void)
{
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    CHECK(sk_group_deviation_within(&g, 0));
    g.count_mismatches = 1;
    CHECK(!sk_group_deviation_within(&g, 0));
    CHECK(!sk_group_deviation_within(&g, 1e300));
    return 0;
}

/* Different contacts or resolver iterations break identity, not a tolerance: positions within it may
 * generate other contacts. */
static int contacts_differ(void)
{
    sk_group_deviation g;
    memset(&g, 0, sizeof g);
    g.contact_compared = 3;
    g.contact_mismatches = 1;
    CHECK(!sk_group_deviation_within(&g, 0));
    CHECK(sk_group_deviation_within(&g, 1e-9));
    return 0;
}

CHECK_MAIN({"identical", identical}, {"values", values}, {"signed_zero", signed_zero},
           {"non_finite", non_finite}, {"counts_differ", counts_differ}, {"contacts_differ", contacts_differ})
