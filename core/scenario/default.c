/* The built-in default batch: a stiffness sweep of hanging ropes, big enough to show the speed. */
#include "scenario/scenario.h"

/* 2048 ropes of 32 particles, 3.1 m long, pinned at one end, released horizontally at rest under
 * gravity; the spring stiffness goes from 100 to 2000 N/m across the batch, so rope 0 sags and
 * swings slowly while rope 2047 barely stretches. dt = 5e-4 s keeps the stiffest rope's fastest
 * mode (2 sqrt(k/m) = 400 rad/s) well inside symplectic Euler's limit (omega dt < 2); 2000 steps
 * are one simulated second, 131 M particle-steps. */
const char sk_default_scenario_json[] =
    "{\n"
    "  \"skein\": 1,\n"
    "  \"dt\": 5e-4,\n"
    "  \"steps\": 2000,\n"
    "  \"integrator\": \"symplectic\",\n"
    "  \"gravity\": [0, -9.81, 0],\n"
    "  \"groups\": [\n"
    "    {\n"
    "      \"count\": 2048,\n"
    "      \"particles\": 32,\n"
    "      \"start\": [0, 10, 0], \"end\": [3.1, 10, 0],\n"
    "      \"mass\": 0.05,\n"
    "      \"pinned\": [0],\n"
    "      \"link\": { \"type\": \"spring\", \"stiffness\": 100, \"length\": \"auto\" },\n"
    "      \"sweep\": { \"link.stiffness\": { \"from\": 100, \"to\": 2000 } }\n"
    "    }\n"
    "  ],\n"
    "  \"output\": { \"every\": 500 }\n"
    "}\n";

sk_status sk_scenario_load_default(const sk_load_options *opt, sk_scenario *out, sk_error *err)
{
    return sk_scenario_load_string(sk_default_scenario_json, SK_DEFAULT_SCENARIO_NAME, opt, out,
                                   err);
}
