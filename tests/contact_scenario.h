/* The contact groups' test rope, shared by the two resolvers' accuracy tests: 21 ropes of 10 particles laid
 * from (0, 0.5, 0) to about (0.9, 0.45, 0) whose parameters all differ (random sweeps of mass, damping,
 * layout and starting velocity), so that every pack is ragged and every lane its own rope. */
#ifndef SKEIN_TESTS_CONTACT_SCENARIO_H
#define SKEIN_TESTS_CONTACT_SCENARIO_H

#define CONTACT_SWEEPS                                                             \
    "\"mass\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 2}},"          \
    "\"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 3}},"          \
    "\"verlet_damping\": {\"random\": {\"min\": 0, \"max\": 0.01, \"seed\": 4}},"  \
    "\"end[0]\": {\"random\": {\"min\": 0.8, \"max\": 1.0, \"seed\": 5}},"         \
    "\"end[1]\": {\"random\": {\"min\": 0.2, \"max\": 0.7, \"seed\": 9}},"         \
    "\"end[2]\": {\"random\": {\"min\": -0.3, \"max\": 0.3, \"seed\": 6}},"        \
    "\"velocity[1]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 7}}"

/* The group: EXTRA adds group keys (the link among them), MORE_SWEEPS sweep keys. */
#define CONTACT_GROUP(EXTRA, MORE_SWEEPS)                                                                      \
    " \"groups\": [{\"count\": 21, \"particles\": 10, \"start\": [0, 0.5, 0], \"end\": [0.9, 0.45, 0],"      \
    " \"mass\": 0.1, \"damping\": 0.9, \"verlet_damping\": 0.001, \"velocity\": [0.3, 0.2, -0.1], " EXTRA \
    " \"sweep\": {" CONTACT_SWEEPS MORE_SWEEPS "}}]}"

#endif
