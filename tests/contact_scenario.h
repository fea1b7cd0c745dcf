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

/* Ropes deploying from an anchor near the ground (0.04 below to 0.04 above it): particles are inserted under
 * the plane or fall onto it while others are paid out, and lanes hold different particle counts. The ground
 * and the group, after a scenario's first keys. */
#define CONTACT_DEPLOY_GROUND \
    " \"ground\": {\"height\": 0.1, \"restitution\": 0.4}," \
    " \"groups\": [{\"count\": 21, \"particles\": 16, \"start\": [0, 0.12, 0], \"end\": [0.1, 0.12, 0]," \
    " \"mass\": 0.05, \"damping\": 0.9, \"velocity\": [0.3, 0, 0], \"pinned\": [9]," \
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1}," \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 0.1, 0], \"stiffness\": 300, \"length\": 0.05}," \
    " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2}," \
    " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 31}}," \
    " \"mass\": {\"random\": {\"min\": 0.03, \"max\": 0.1, \"seed\": 32}}," \
    " \"anchor.point[1]\": {\"random\": {\"min\": 0.06, \"max\": 0.14, \"seed\": 34}}}}]}"

#endif
