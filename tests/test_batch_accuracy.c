/* The batch engine against the scalar reference, bit for bit: every force, integrator, anchor, pinned set
 * and deployment mode, on 37 ropes (a ragged last pack for every width) whose parameters all differ
 * (random sweeps), 1000 steps, every ISA this machine runs, 1 and 2 threads, compared at 5 frames. */
#include <stdio.h>
#include <string.h>

#include "scenario/scenario.h"
#include "test_batch_common.h"

#define STEPS 1000
#define EVERY 250

/* The sweeps every group gets: each lane its own stiffness, mass, damping, layout and velocity. */
#define SWEEPS                                                                             \
    "\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}},"        \
    "\"mass\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 2}},"                  \
    "\"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 3}},"                  \
    "\"verlet_damping\": {\"random\": {\"min\": 0, \"max\": 0.01, \"seed\": 4}},"          \
    "\"end[0]\": {\"random\": {\"min\": 1.5, \"max\": 2.5, \"seed\": 5}},"                 \
    "\"end[2]\": {\"random\": {\"min\": -0.5, \"max\": 0.5, \"seed\": 6}},"                \
    "\"velocity[1]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 7}},"               \
    "\"link.length\": {\"random\": {\"min\": 0.08, \"max\": 0.14, \"seed\": 8}}"

/* One group of 37 ropes of 16 particles joined by LINK links; EXTRA adds keys to the group, MORE_SWEEPS
 * to its sweep, TOP to the scenario. The integrator is filled in per run. */
#define SCENARIO_LINK(LINK, TOP, EXTRA, MORE_SWEEPS)                                                               \
    "{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", " TOP                     \
    " \"groups\": [{\"count\": 37, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [2, 10, 0],"    \
    " \"mass\": 0.1, \"damping\": 0.9, \"verlet_damping\": 0.001, \"velocity\": [0.1, 0.2, -0.3],"   \
    " \"link\": {\"type\": \"" LINK "\", \"stiffness\": 400, \"length\": 0.1}, " EXTRA              \
    " \"sweep\": {" SWEEPS MORE_SWEEPS "}}]}"

#define SCENARIO(TOP, EXTRA, MORE_SWEEPS) SCENARIO_LINK("spring", TOP, EXTRA, MORE_SWEEPS)

static const char *const integrators[] = {"cyclone", "euler", "symplectic", "verlet", "implicit"};

/* Every integrator; the implicit one with one Newton iteration (its default) and with three. */
static const struct {
    const char *name, *top; /* top: keys added to the scenario */
} runs[] = {{"cyclone", ""},  {"euler", ""},    {"symplectic", ""},
            {"verlet", ""},   {"implicit", ""}, {"implicit", "\"implicit\": {\"iterations\": 3}, "}};

/* The scenario with each integrator in turn; the particle counts the reference ends with (over all
 * integrators) go to stats when not NULL. */
static int each_integrator_stats(const char *fmt, tb_stats *stats)
{
    static char json[1 << 15], text[1 << 15];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(text, sizeof text, fmt, runs[i].name);
        CHECK(text[0] == '{');
        snprintf(json, sizeof json, "{%s%s", runs[i].top, text + 1);
        tb_stats st;
        if (tb_against_reference(json, STEPS, EVERY, &st)) {
            fprintf(stderr, "integrator %s %s\n", runs[i].name, runs[i].top);
            return 1;
        }
        if (stats && i == 0)
            *stats = st;
        if (stats && st.min_count < stats->min_count)
            stats->min_count = st.min_count;
        if (stats && st.max_count > stats->max_count)
            stats->max_count = st.max_count;
    }
    return 0;
}

static int each_integrator(const char *fmt) { return each_integrator_stats(fmt, NULL); }

/* Properties along the rope: 37 ropes of 16 particles, MASS and LINK's stiffness and length as given, the
 * rope's usual sweeps (which move a linear profile's first end) and MORE_SWEEPS. */
#define PROFILES(TOP, MASS, STIFFNESS, LENGTH, EXTRA, MORE_SWEEPS)                                                \
    "{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", " TOP                            \
    " \"groups\": [{\"count\": 37, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [2, 10, 0],"               \
    " \"mass\": " MASS ", \"damping\": 0.9, \"verlet_damping\": 0.001, \"velocity\": [0.1, 0.2, -0.3],"         \
    " \"link\": {\"type\": \"spring\", \"stiffness\": " STIFFNESS ", \"length\": " LENGTH "}, " EXTRA            \
    " \"sweep\": {" MORE_SWEEPS "}}]}"

#define LIST15(a, b) "[" a ", " a ", " a ", " a ", " a ", " a ", " a ", " b ", " b ", " b ", " b ", " b ", " b ", " b ", " b "]"

/* Linear profiles of mass, stiffness and rest length, both ends swept per rope, and two payloads (one at the
 * tip by a negative index, one inside), their masses swept. */
static int profiles_linear(void)
{
    return each_integrator(PROFILES(
        "", "{\"from\": 0.05, \"to\": 0.2}", "{\"from\": 800, \"to\": 200}", "{\"from\": 0.08, \"to\": 0.14}",
        "\"pinned\": [0], \"payloads\": [{\"index\": -1, \"mass\": 0.5}, {\"index\": 6, \"mass\": 0.2}],",
        SWEEPS ", \"mass.last\": {\"random\": {\"min\": 0.02, \"max\": 0.3, \"seed\": 101}},"
        " \"link.stiffness.last\": {\"random\": {\"min\": 100, \"max\": 900, \"seed\": 102}},"
        " \"link.length.last\": {\"random\": {\"min\": 0.08, \"max\": 0.14, \"seed\": 103}},"
        " \"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 2, \"seed\": 104}},"
        " \"payloads[1].mass\": {\"from\": 0, \"to\": 1}"));
}

/* Lists (a two-material tether) with every per-particle force, gravity as a force (each particle's own
 * weight), a pinned set and an anchored spring. */
static int profiles_lists_forces(void)
{
    return each_integrator(PROFILES(
        "\"gravity_as\": \"force\",",
        "[0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05]",
        LIST15("600", "250"), LIST15("0.12", "0.09"),
        "\"pinned\": [3, 11], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},"
        " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"length\": 0.05},"
        " \"payloads\": [{\"index\": -1, \"mass\": 1}],",
        "\"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 3, \"seed\": 105}},"
        " \"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 3}},"
        " \"end[0]\": {\"random\": {\"min\": 1.5, \"max\": 2.5, \"seed\": 5}}"));
}

/* The fake spring scales its acceleration by the held particle's own mass (particle 0, with a payload), and
 * bungees take each link's own rest length; four payloads, two on one particle. */
static int profiles_fake_spring(void)
{
    return each_integrator(PROFILES(
        "", "{\"from\": 0.2, \"to\": 0.05}", "{\"from\": 300, \"to\": 700}", "0.1",
        "\"pinned\": [], \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"damping\": 2},"
        " \"payloads\": [{\"index\": 0, \"mass\": 0.3}, {\"index\": -16, \"mass\": 0.1}, {\"index\": 9, \"mass\": 0.2},"
        " {\"index\": -1, \"mass\": 0.4}],",
        "\"anchor.damping\": {\"random\": {\"min\": 0, \"max\": 80, \"seed\": 20}},"
        " \"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 106}},"
        " \"payloads[3].mass\": {\"values\": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3,"
        " 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9, 3, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6]}"));
}

/* Bungee links of a rest length profile: some start slack, some stretched, each by its own length. */
static int profiles_bungee(void)
{
    static char fmt[1 << 12];
    snprintf(fmt, sizeof fmt, "%s",
             PROFILES("", "0.1", "400", "{\"from\": 0.08, \"to\": 0.16}", "\"pinned\": [0], \"payloads\": [{\"index\": -1, \"mass\": 0.5}],",
                      "\"link.length.last\": {\"random\": {\"min\": 0.1, \"max\": 0.2, \"seed\": 107}}"));
    char *spring = strstr(fmt, "\"spring\"");
    CHECK(spring != NULL);
    memcpy(spring, "\"bungee\"", 8);
    return each_integrator(fmt);
}

/* Bending with properties along the rope: each hinge's k_b from the mean of its two links' rest lengths (a
 * linear length profile, its last value swept), per-particle masses and a tip payload; a clamp of two pins. */
static int profiles_bending(void)
{
    return each_integrator(PROFILES(
        "", "{\"from\": 0.15, \"to\": 0.05}", "{\"from\": 500, \"to\": 300}", "{\"from\": 0.1, \"to\": 0.15}",
        "\"pinned\": [0, 1], \"bending\": {\"stiffness\": 0.05}, \"payloads\": [{\"index\": -1, \"mass\": 0.2}],",
        "\"bending.stiffness\": {\"random\": {\"min\": 0.01, \"max\": 0.2, \"seed\": 108}},"
        " \"link.length.last\": {\"random\": {\"min\": 0.08, \"max\": 0.16, \"seed\": 109}}"));
}

/* Properties along the rope with contacts: rod chains and cables of per-link lengths and per-particle masses
 * (payloads swept) falling onto a ground with friction, a spring group on a rod anchor, every explicit
 * integrator, with Cyclone's resolver (RESOLVER "") or the direct solver. */
#define PROFILE_CONTACTS(RESOLVER, FRICTION)                                                                          \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", " RESOLVER                               \
    " \"ground\": {\"height\": 9.2, \"restitution\": 0.2" FRICTION "}, \"groups\": ["                                \
    " {\"count\": 19, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"                \
    "  \"mass\": {\"from\": 0.05, \"to\": 0.2}, \"payloads\": [{\"index\": -1, \"mass\": 0.5}],"                      \
    "  \"link\": {\"type\": \"rod\", \"length\": [0.12, 0.14, 0.16, 0.1, 0.12, 0.14, 0.15]},"                        \
    "  \"sweep\": {\"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 2, \"seed\": 111}},"                      \
    "   \"start[1]\": {\"random\": {\"min\": 9.3, \"max\": 10, \"seed\": 112}}}},"                                   \
    " {\"count\": 11, \"particles\": 7, \"start\": [0, 10, 0], \"end\": [0.6, 10, 0], \"pinned\": [0],"              \
    "  \"mass\": [0.1, 0.1, 0.1, 0.3, 0.3, 0.3, 0.3], \"payloads\": [{\"index\": 3, \"mass\": 0.2}],"                \
    "  \"link\": {\"type\": \"cable\", \"length\": {\"from\": 0.1, \"to\": 0.2}, \"restitution\": 0.3},"              \
    "  \"sweep\": {\"link.length.last\": {\"random\": {\"min\": 0.1, \"max\": 0.3, \"seed\": 113}}}},"                \
    " {\"count\": 7, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 9.5, 0],"                                 \
    "  \"mass\": {\"from\": 0.3, \"to\": 0.1}, \"payloads\": [{\"index\": 0, \"mass\": 0.2}],"                         \
    "  \"link\": {\"type\": \"spring\", \"stiffness\": [300, 600, 300, 600, 300]},"                                   \
    "  \"anchor\": {\"type\": \"rod\", \"point\": [0, 10.1, 0], \"length\": 0.1}}]}"

static int profiles_contacts(void) { return each_integrator(PROFILE_CONTACTS("", "")); }
static int profiles_friction(void)
{
    return each_integrator(PROFILE_CONTACTS("", ", \"friction\": {\"static\": 0.6, \"kinetic\": 0.4}"));
}
static int profiles_direct(void) { return each_integrator(PROFILE_CONTACTS("\"resolver\": \"direct\",", "")); }

/* Deployment cases must have lanes that inserted, lanes at different counts, and lanes at the cap. */
static int each_integrator_deploying(const char *fmt, int initial, int capacity)
{
    tb_stats st;
    CHECK_OK(each_integrator_stats(fmt, &st));
    CHECK(st.min_count > initial);
    CHECK(st.min_count < st.max_count);
    CHECK(st.max_count == capacity);
    return 0;
}

static int spring(void) { return each_integrator(SCENARIO("", "\"pinned\": [0],", "")); }

/* fmt with KEYS added at the start of every group's link object (the scenario macros write the link's keys
 * themselves): the links' axial damping. */
static const char *with_link_keys(const char *fmt, const char *keys)
{
    static char out[1 << 15];
    const char *tag = "\"link\": {";
    size_t used = 0;
    for (const char *at; (at = strstr(fmt, tag)) != NULL; fmt = at + strlen(tag)) {
        used += (size_t)snprintf(out + used, sizeof out - used, "%.*s%s %s, ", (int)(at - fmt), fmt, tag, keys);
        if (used >= sizeof out)
            return ""; /* refused by the caller's check that a scenario starts with '{' */
    }
    snprintf(out + used, sizeof out - used, "%s", fmt);
    return out;
}

/* Damped springs, each rope its own damping (N s) from 0 to a tenth of critical and beyond. */
static int link_damping(void)
{
    return each_integrator(with_link_keys(
        SCENARIO("", "\"pinned\": [0],", ", \"link.damping\": {\"random\": {\"min\": 0, \"max\": 0.5, \"seed\": 121}}"),
        "\"damping\": 0.2"));
}

/* Damped bungees (slack ones have no damping either) by damping ratio, with drag and an anchored spring. */
static int link_damping_ratio(void)
{
    return each_integrator(with_link_keys(
        SCENARIO_LINK("bungee", "",
                      "\"pinned\": [], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},"
                      " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"length\": 0.05},",
                      ", \"link.damping_ratio\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 122}}"),
        "\"damping_ratio\": 0.5"));
}

/* The damping ratio along a rope of linear profiles with payloads: each link its own coefficient (profile rows). */
static int link_damping_profiles(void)
{
    return each_integrator(with_link_keys(
        PROFILES("", "{\"from\": 0.05, \"to\": 0.2}", "{\"from\": 800, \"to\": 200}", "{\"from\": 0.08, \"to\": 0.14}",
                 "\"pinned\": [0], \"payloads\": [{\"index\": -1, \"mass\": 0.5}],",
                 SWEEPS ", \"mass.last\": {\"random\": {\"min\": 0.02, \"max\": 0.3, \"seed\": 101}},"
                 " \"link.damping_ratio\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 123}}"),
        "\"damping_ratio\": 0.3"));
}

static int spring_unpinned(void) { return each_integrator(SCENARIO("", "\"pinned\": [],", "")); }

static int pinned_set(void) { return each_integrator(SCENARIO("", "\"pinned\": [3, 11, 15],", "")); }

/* Rest lengths 0.08 .. 0.14 around the 0.1 .. 0.17 spacing: some links start slack, some stretched. */
static int bungee(void)
{
    return each_integrator(SCENARIO_LINK("bungee", "", "\"pinned\": [0],", ""));
}

static int gravity_force(void) { return each_integrator(SCENARIO("\"gravity_as\": \"force\",", "\"pinned\": [0],", "")); }

static int drag(void)
{
    return each_integrator(SCENARIO("", "\"pinned\": [0], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},",
                                    ", \"drag.k1\": {\"random\": {\"min\": 0, \"max\": 0.2, \"seed\": 11}},"
                                    " \"drag.k2\": {\"random\": {\"min\": 0, \"max\": 0.1, \"seed\": 12}}"));
}

/* Drag against a sheared flow, every rope its own: the relative velocity u(y) = velocity + gradient y. */
static int flow(void)
{
    return each_integrator(SCENARIO("\"flow\": {\"velocity\": [1.5, 0, -0.5], \"gradient\": [0.2, 0, 0.1]},",
                                    "\"pinned\": [0], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},",
                                    ", \"flow.velocity[0]\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 91}},"
                                    " \"flow.gradient[2]\": {\"random\": {\"min\": -0.5, \"max\": 0.5, \"seed\": 92}},"
                                    " \"drag.k2\": {\"random\": {\"min\": 0, \"max\": 0.1, \"seed\": 12}}"));
}

/* A flow swept without a top-level one: the sweep alone switches the relative velocity on. */
static int flow_swept_only(void)
{
    return each_integrator(SCENARIO("", "\"pinned\": [0], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},",
                                    ", \"flow.velocity[1]\": {\"from\": -2, \"to\": 2}"));
}

/* Bending stiffness swept per rope, from 0 (no hinge force) to stiff enough to hold the rope up against
 * gravity's sag; the first two particles pinned (a clamp), one more inside the rope (its hinges act on its
 * neighbours). */
static int bending(void)
{
    return each_integrator(SCENARIO("", "\"pinned\": [0, 1, 9], \"bending\": {\"stiffness\": 0.05},",
                                    ", \"bending.stiffness\": {\"random\": {\"min\": 0, \"max\": 0.2, \"seed\": 96}}"));
}

/* Bending with every other force, on the general kernel, and a driven fake spring. */
static int bending_all_forces(void)
{
    return each_integrator(SCENARIO(
        "\"gravity_as\": \"force\", \"flow\": {\"velocity\": [0.5, 0, 0]},",
        "\"pinned\": [5], \"drag\": {\"k1\": 0.05, \"k2\": 0.02}, \"bending\": {\"stiffness\": 0.1},"
        " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"length\": 0.05},",
        ", \"bending.stiffness\": {\"random\": {\"min\": 0.01, \"max\": 0.3, \"seed\": 97}}"));
}

/* Contact packs bend too: rods and cables (no link force) and springs on the ground, every integrator. */
static int bending_contacts(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","
        " \"ground\": {\"height\": 9.3, \"restitution\": 0.2}, \"groups\": ["
        " {\"count\": 11, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0, 1],"
        "  \"link\": {\"type\": \"rod\"}, \"bending\": {\"stiffness\": 0.05},"
        "  \"sweep\": {\"bending.stiffness\": {\"random\": {\"min\": 0, \"max\": 0.2, \"seed\": 99}}}},"
        " {\"count\": 9, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"link\": {\"type\": \"cable\", \"restitution\": 0.3}, \"bending\": {\"stiffness\": 0.02}},"
        " {\"count\": 13, \"particles\": 12, \"start\": [0, 9.6, 0], \"end\": [1.1, 9.6, 0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 800}, \"bending\": {\"stiffness\": 0.1},"
        "  \"anchor\": {\"type\": \"cable\", \"point\": [0, 9.7, 0], \"length\": 0.1, \"restitution\": 0.5}},"
        " {\"count\": 7, \"particles\": 12, \"start\": [0, 9.5, 0], \"end\": [0, 9.6, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 500, \"length\": 0.1}, \"bending\": {\"stiffness\": 0.01},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.1, 9.7, 0], \"stiffness\": 500, \"length\": 0.05},"
        "  \"deploy\": {\"velocity\": 2, \"initial_particles\": 2}}]}");
}

/* Anchors towed at their own velocities along a path shared by the group (no sine: no libm against SLEEF,
 * so every integrator agrees to the bit), one group deploying from the moving anchor. */
static int towed_path(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", \"groups\": ["
        " {\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [0, 8.9, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 800, \"length\": 0.1}, \"drag\": {\"k1\": 0.05, \"k2\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10.05, 0], \"stiffness\": 900, \"length\": 0.05,"
        "   \"motion\": {\"velocity\": [1, 0, 0], \"path\": {\"times\": [0.05, 0.2, 0.35],"
        "    \"points\": [[0, 0, 0], [0, 0.3, 0.1], [-0.2, 0.1, 0]]}}},"
        "  \"sweep\": {\"anchor.motion.velocity[0]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 93}},"
        "   \"anchor.motion.velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 94}}}},"
        " {\"count\": 19, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05,"
        "   \"motion\": {\"path\": {\"times\": [0, 0.5], \"points\": [[0, 0, 0], [0.3, -0.4, 0]]}}},"
        "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
        "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 95}}}}]}");
}

/* A pin anchor towed along a path at its own velocity (no sine, as towed_path): particle 0 follows it, held at
 * the path's point of each step; the implicit integrator's later iterations linearise with it where the first
 * took it (x0 + v0 dt). */
static int pin_towed(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", \"groups\": ["
        " {\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [0, 8.9, 0], \"mass\": 0.05,"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 800, \"length\": 0.1}, \"drag\": {\"k1\": 0.05, \"k2\": 0.1},"
        "  \"anchor\": {\"type\": \"pin\", \"point\": [0, 10, 0],"
        "   \"motion\": {\"velocity\": [1, 0, 0], \"path\": {\"times\": [0.05, 0.2, 0.35],"
        "    \"points\": [[0, 0, 0], [0, 0.3, 0.1], [-0.2, 0.1, 0]]}}},"
        "  \"sweep\": {\"anchor.motion.velocity[0]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 96}},"
        "   \"anchor.motion.velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 97}}}}]}");
}

/* Water around the rope's height: particles above, inside and below the band. */
static int buoyancy(void)
{
    return each_integrator(SCENARIO(
        "\"gravity_as\": \"force\",",
        "\"pinned\": [0], \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},",
        ", \"buoyancy.water_height\": {\"random\": {\"min\": 9.7, \"max\": 10.1, \"seed\": 13}},"
        " \"buoyancy.max_depth\": {\"random\": {\"min\": 0.05, \"max\": 0.3, \"seed\": 14}}"));
}

/* A force object ("wind": the same force on every particle), its components swept per rope: with gravity as
 * a force and as an acceleration, with drag and buoyancy before it in the sum, and alone on a free rope. */
static int wind(void)
{
    return each_integrator(SCENARIO(
               "\"gravity_as\": \"force\",",
               "\"pinned\": [0], \"drag\": {\"k1\": 0.05, \"k2\": 0.1}, \"wind\": {\"force\": [0.3, 0, -0.2]},"
               " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},",
               ", \"wind.force[0]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 141}},"
               " \"wind.force[1]\": {\"from\": -0.5, \"to\": 2}")) ||
           each_integrator(SCENARIO("", "\"pinned\": [], \"wind\": {\"force\": [0.3, 0.1, -0.2]},",
                                    ", \"wind.force[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 142}}"));
}

static int anchored_spring(void)
{
    return each_integrator(SCENARIO(
        "",
        "\"pinned\": [], \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 200, \"length\": 0.05},",
        ", \"anchor.stiffness\": {\"random\": {\"min\": 50, \"max\": 500, \"seed\": 15}},"
        " \"anchor.point[1]\": {\"random\": {\"min\": 9.8, \"max\": 10.2, \"seed\": 16}},"
        " \"anchor.length\": {\"random\": {\"min\": 0, \"max\": 0.2, \"seed\": 17}}"));
}

/* Rest lengths up to 0.5 from a point 0 .. 0.3 away: slack and taut lanes. */
static int anchored_bungee(void)
{
    return each_integrator(SCENARIO(
        "",
        "\"pinned\": [], \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0, 10, 0], \"stiffness\": 200, \"length\": 0.05},",
        ", \"anchor.point[1]\": {\"random\": {\"min\": 9.7, \"max\": 10.3, \"seed\": 18}},"
        " \"anchor.length\": {\"random\": {\"min\": 0, \"max\": 0.5, \"seed\": 19}}"));
}

/* Damping 0 .. 80 against stiffness 500: lanes with c^2 > 4k are overdamped, their fake spring inactive. */
static int fake_spring(void)
{
    return each_integrator(SCENARIO(
        "",
        "\"pinned\": [], \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"damping\": 2},",
        ", \"anchor.damping\": {\"random\": {\"min\": 0, \"max\": 80, \"seed\": 20}},"
        " \"anchor.point[0]\": {\"random\": {\"min\": -0.2, \"max\": 0.2, \"seed\": 21}}"));
}

/* The anchor holds particle 0, which is pinned: the anchor force is skipped. */
static int anchor_on_pinned(void)
{
    return each_integrator(SCENARIO(
        "", "\"pinned\": [0, 10], \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 9, 0], \"stiffness\": 200, \"length\": 0.05},",
        ""));
}

/* No damping (d = 1, so v * d^dt is v itself): the kernels' undamped specialisations, which skip that
 * multiplication, give the same bits. Springs, springs with an anchor, bungees. */
static int undamped(void)
{
#define UNDAMPED_GROUP(LINK, ANCHOR)                                                                         \
    " {\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1.2, 10, 0], \"mass\": 0.1,"        \
    " \"velocity\": [0.1, 0.2, -0.3], \"link\": {\"type\": \"" LINK "\", \"stiffness\": 400, \"length\": 0.1}," ANCHOR \
    " \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}},"             \
    " \"end[1]\": {\"random\": {\"min\": 9.5, \"max\": 10.5, \"seed\": 2}}}}"
    return each_integrator("{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", \"groups\": ["
                           UNDAMPED_GROUP("spring", " \"pinned\": [0],") ","
                           UNDAMPED_GROUP("spring", " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0],"
                                                    " \"stiffness\": 200, \"length\": 0.05},") ","
                           UNDAMPED_GROUP("bungee", " \"pinned\": [0],") "]}");
#undef UNDAMPED_GROUP
}

/* Everything at once, on the general (unspecialised) kernel. */
static int all_forces(void)
{
    return each_integrator(SCENARIO(
        "\"gravity_as\": \"force\",",
        "\"pinned\": [5], \"drag\": {\"k1\": 0.05, \"k2\": 0.02},"
        " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},"
        " \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 500, \"damping\": 2},",
        ", \"drag.k1\": {\"random\": {\"min\": 0, \"max\": 0.2, \"seed\": 11}}"));
}

/* A deploying group: capacity 24, two particles to start, deployment speeds 2 .. 6 m/s over 0.5 s, so
 * lanes insert at different steps and some reach the capacity. */
#define DEPLOY(INSERT, EXTRA, MORE_SWEEPS)                                                                 \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","                              \
    " \"groups\": [{\"count\": 37, \"particles\": 24, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0],"     \
    " \"mass\": 0.05, \"damping\": 0.9, \"velocity\": [0.3, 0, 0], " EXTRA                              \
    " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"                            \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05}," \
    " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2, \"insert_velocity\": \"" INSERT "\"},"   \
    " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 31}},"             \
    " \"mass\": {\"random\": {\"min\": 0.03, \"max\": 0.1, \"seed\": 32}},"                               \
    " \"link.stiffness\": {\"random\": {\"min\": 200, \"max\": 400, \"seed\": 33}},"                     \
    " \"anchor.point[1]\": {\"random\": {\"min\": 9.9, \"max\": 10.1, \"seed\": 34}}" MORE_SWEEPS "}}]}"

static int deploy_seed(void) { return each_integrator_deploying(DEPLOY("seed", "", ""), 2, 24); }

static int deploy_along(void) { return each_integrator_deploying(DEPLOY("along", "", ""), 2, 24); }

/* Deploying with damped links (the anchored segment is no link: undamped). */
static int link_damping_deploy(void)
{
    return each_integrator_deploying(
        with_link_keys(DEPLOY("seed", "\"pinned\": [0],", ", \"link.damping\": {\"random\": {\"min\": 0, \"max\": 0.1, \"seed\": 124}}"),
                       "\"damping\": 0.05"),
        2, 24);
}

/* Pinned indices 0 (the free tip) and 6 (a particle deployment inserts, which starts at rest). */
static int deploy_pinned(void) { return each_integrator_deploying(DEPLOY("seed", "\"pinned\": [0, 6],", ""), 2, 24); }

/* Deploying ropes bend among the particles present: hinges appear as particles are inserted. */
static int bending_deploy(void)
{
    return each_integrator_deploying(DEPLOY("seed", "\"pinned\": [0], \"bending\": {\"stiffness\": 0.02},",
                                            ", \"bending.stiffness\": {\"random\": {\"min\": 0.005, \"max\": 0.05, \"seed\": 98}}"),
                                     2, 24);
}

/* max_length with room to spare: lanes stop growing at 0.6 .. 1.5 m, before or after the capacity. */
static int deploy_max_length(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","
        " \"groups\": [{\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [0, 10, 0],"
        " \"mass\": 0.05, \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.05, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
        " \"deploy\": {\"velocity\": 3, \"initial_particles\": 1, \"max_length\": 1},"
        " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 41}},"
        " \"deploy.max_length\": {\"random\": {\"min\": 0.6, \"max\": 1.5, \"seed\": 42}}}}]}");
}

/* Seed 000's weightless segment rope: capacity 2, a single segment that keeps growing to max_length. */
static int deploy_weightless_segment(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","
        " \"groups\": [{\"count\": 37, \"particles\": 2, \"start\": [0, 10, 0], \"end\": [0, 10, 0],"
        " \"mass\": 0.05, \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.05, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
        " \"deploy\": {\"velocity\": 3, \"initial_particles\": 1, \"max_length\": 1},"
        " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 43}},"
        " \"deploy.max_length\": {\"random\": {\"min\": 0.3, \"max\": 1.5, \"seed\": 44}}}}]}");
}

/* Deployment speed tables (docs/model.md section 7), a group's table with knots inside steps: PROFILE's
 * first group pays out at the table's speed, each lane with its own link length (so its own insertion
 * steps), rest length, mass and stiffness; SECOND adds groups. */
#define PROFILE(TOP, TABLE, INSERT, EXTRA, SECOND)                                                                       \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", " TOP " \"groups\": ["                \
    " {\"count\": 37, \"particles\": 24, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0],"                        \
    "  \"mass\": 0.05, \"damping\": 0.9, \"velocity\": [0.3, 0, 0], " EXTRA                                      \
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"                                   \
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"  \
    "  \"deploy\": {\"velocity\": " TABLE ", \"initial_particles\": 2, \"insert_velocity\": \"" INSERT "\"},"     \
    "  \"sweep\": {\"link.length\": {\"random\": {\"min\": 0.06, \"max\": 0.14, \"seed\": 35}},"               \
    "   \"anchor.length\": {\"random\": {\"min\": 0, \"max\": 0.06, \"seed\": 36}},"                               \
    "   \"mass\": {\"random\": {\"min\": 0.03, \"max\": 0.1, \"seed\": 32}},"                                    \
    "   \"link.stiffness\": {\"random\": {\"min\": 200, \"max\": 400, \"seed\": 33}}}}" SECOND "]}"

/* A second group deploying at swept scalar speeds. */
#define SCALAR_GROUP                                                                                             \
    ", {\"count\": 13, \"particles\": 24, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"          \
    "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"                                   \
    "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"  \
    "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"                                                     \
    "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 37}}}}"

/* Paying out only: the speed rises, falls and rises again (1.1 m in 0.5 s), held after the last knot. */
static int deploy_profile(void)
{
    return each_integrator_deploying(
        PROFILE("", "{\"times\": [0, 0.12345, 0.3, 0.4], \"values\": [0.5, 4, 1, 3]}", "along", "", SCALAR_GROUP), 2, 24);
}

/* Out at 3 m/s for 0.2 s, in at 3 m/s from 0.26 s: by step 500 the lanes reel in at different counts; by
 * step 1000 every lane is back at its 2 initial particles with its anchored segment stopped at zero.
 * Pinned index 4 is inserted and wound in again. */
#define REEL_TABLE "{\"times\": [0, 0.2, 0.26, 0.5], \"values\": [3, 3, -3, -3]}"

static int reel_in_extra(const char *top, const char *extra)
{
    static char fmt[1 << 13], json[1 << 14];
    snprintf(fmt, sizeof fmt, PROFILE("%s", REEL_TABLE, "seed", "\"pinned\": [0, 4], %s", ""), "%s", top, extra);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char text[1 << 14];
        snprintf(text, sizeof text, fmt, runs[i].name);
        snprintf(json, sizeof json, "{%s%s", runs[i].top, text + 1);
        tb_stats mid, end;
        CHECK_OK(tb_against_reference(json, 500, 250, &mid));
        CHECK(mid.min_count > 2 && mid.min_count < mid.max_count);
        CHECK_OK(tb_against_reference(json, STEPS, EVERY, &end));
        CHECK(end.min_count == 2 && end.max_count == 2);
    }
    return 0;
}

static int reel_in_case(const char *top) { return reel_in_extra(top, ""); }

static int deploy_reel_in(void) { return reel_in_case(""); }

/* A deploying tether with a tip payload (particle 0, present from the start, swept 0.2 .. 1 kg), a linear
 * mass profile over the capacity and a payload at -3 (index 21, inserted late and only by the faster lanes):
 * each inserted particle takes its index's mass. */
static int deploy_payload(void)
{
    return each_integrator_deploying(
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","
        " \"groups\": [{\"count\": 37, \"particles\": 24, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0],"
        " \"mass\": {\"from\": 0.03, \"to\": 0.08}, \"damping\": 0.9, \"velocity\": [0.3, 0, 0],"
        " \"payloads\": [{\"index\": 0, \"mass\": 0.5}, {\"index\": -3, \"mass\": 0.2}],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
        " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
        " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 131}},"
        " \"payloads[0].mass\": {\"random\": {\"min\": 0.2, \"max\": 1, \"seed\": 132}},"
        " \"link.stiffness\": {\"random\": {\"min\": 200, \"max\": 400, \"seed\": 133}}}}]}",
        2, 24);
}

/* Reeling in with payloads: a tip payload and one at index 3, which is inserted and wound in again with its
 * own mass; the tip payload swept. */
#define PAYLOADS "\"payloads\": [{\"index\": 0, \"mass\": 0.4}, {\"index\": 3, \"mass\": 0.1}],"
static int deploy_payload_reel_in(void) { return reel_in_extra("", PAYLOADS); }

/* The same over the ground (the contact kernels' packs). */
static int deploy_payload_reel_in_ground(void)
{
    return reel_in_extra("\"ground\": {\"height\": 9.8, \"restitution\": 0.3},", PAYLOADS);
}
#undef PAYLOADS

/* The same with the ground just below the anchor: a contact group, whose packs take the contact kernels. */
static int deploy_reel_in_ground(void)
{
    return reel_in_case("\"ground\": {\"height\": 9.8, \"restitution\": 0.3},");
}

/* Ground friction on exact ties of the stick rule, |v_t| = mu_s dvn (tests/test_physics_friction.c,
 * stick_ties: gravity 8, dt = 2^-10, mass 0.5 make dvn = 2^-7 and every hold and speed exact): one lane
 * per tangential velocity on the tie, a relative 2^-20 above and below it, along the axes and (3, 4) / 5,
 * for mu_s = 1/4, 1/2, 5/8, 5/4, with Cyclone's resolver and the direct solver. Every lane of every ISA
 * equals the reference to the bit, and the tie lanes stop dead in the first step (the reference's rule). */
static int friction_ties(void)
{
    static const double mus[] = {0.25, 0.5, 0.625, 1.25};
    static const double dirs[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0.6, 0.8}, {-0.8, 0.6}, {0.8, -0.6}, {-0.6, -0.8}};
    static const double scales[] = {1, 1 + 0x1p-20, 1 - 0x1p-20};
    static const char *const resolvers[] = {"", "\"resolver\": \"direct\","};
    for (int k = 0; k < 4; k++)
        for (int res = 0; res < 2; res++) {
            const double hold = mus[k] * 0x1p-7;
            const int directions = mus[k] == 0.625 || mus[k] == 1.25 ? 8 : 4, count = 3 * directions;
            char vx[1024] = "", vz[1024] = "";
            size_t ux = 0, uz = 0;
            for (int d = 0; d < directions; d++)
                for (int j = 0; j < 3; j++) {
                    const double speed = hold * scales[j];
                    ux += (size_t)snprintf(vx + ux, sizeof vx - ux, "%s%.17g", ux ? ", " : "", speed * dirs[d][0]);
                    uz += (size_t)snprintf(vz + uz, sizeof vz - uz, "%s%.17g", uz ? ", " : "", speed * dirs[d][1]);
                }
            CHECK(ux < sizeof vx && uz < sizeof vz);
            static char json[4096];
            snprintf(json, sizeof json,
                     "{%s\"skein\": 1, \"dt\": 0.0009765625, \"steps\": 3, \"integrator\": \"symplectic\","
                     " \"gravity\": [0, -8, 0], \"ground\": {\"height\": 0, \"restitution\": 0,"
                     " \"friction\": {\"static\": %.17g, \"kinetic\": %.17g}},"
                     " \"groups\": [{\"count\": %d, \"particles\": 1, \"start\": [0, 0, 0], \"end\": [0, 0, 0],"
                     " \"mass\": 0.5, \"sweep\": {\"velocity[0]\": {\"values\": [%s]}, \"velocity[2]\": {\"values\": [%s]}}}]}",
                     resolvers[res], mus[k], mus[k] / 2, count, vx, vz);
            CHECK_OK(tb_against_reference(json, 3, 1, NULL));
            sk_scenario s;
            CHECK_OK(tb_load(&s, "%s", json));
            const char *isas[4];
            const int n = tb_isas(isas, 4);
            for (int i = 0; i < n; i++) {
                sk_engine *e = tb_engine(&s, "batch", isas[i], 1);
                CHECK(e);
                sk_engine_advance(e, 1);
                for (int r = 0; r < count; r++) {
                    sk_real p[3], v[3];
                    sk_engine_read_rope(e, (size_t)r, p, v);
                    const bool stuck = v[0] == 0 && v[1] == 0 && v[2] == 0;
                    if (stuck != (r % 3 != 1)) {
                        fprintf(stderr, "%s, mu_s %g, lane %d (%s the tie): v = (%g, %g, %g)\n", isas[i], mus[k], r,
                                r % 3 == 0 ? "on" : r % 3 == 1 ? "above" : "below", (double)v[0], (double)v[1],
                                (double)v[2]);
                        return 1;
                    }
                }
                sk_engine_destroy(e);
            }
            sk_scenario_free(&s);
        }
    return 0;
}

/* The insertion boundary hit exactly: dt = 2^-7 s and speeds 2, 4, 8, 16 m/s make every s a sum of exact
 * binary steps, so s reaches the segment length 0.5 m exactly (after 16, 8, 4, 2 steps) and again after
 * every insertion; a particle goes in only when s is strictly greater (docs/model.md section 7), the next
 * step. A kernel that inserted at s == L would run a step ahead of the reference. */
static int deploy_exact_ties(void)
{
    CHECK_OK(each_integrator(
        "{\"skein\": 1, \"dt\": 0.0078125, \"steps\": 400, \"integrator\": \"%s\", \"output\": {\"every\": 1},"
        " \"groups\": [{\"count\": 37, \"particles\": 40, \"start\": [0, 10, 0], \"end\": [0, 10, 0],"
        " \"mass\": 0.5, \"damping\": 0.5, \"link\": {\"type\": \"spring\", \"stiffness\": 30, \"length\": 0.5},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.25, 10, 0], \"stiffness\": 30, \"length\": 0.25},"
        " \"deploy\": {\"velocity\": 8, \"initial_particles\": 1},"
        " \"sweep\": {\"deploy.velocity\": {\"values\": [2, 4, 8, 16, 2, 4, 8, 16, 2, 4, 8, 16, 2, 4, 8, 16, 2, 4, 8,"
        " 16, 2, 4, 8, 16, 2, 4, 8, 16, 2, 4, 8, 16, 2, 4, 8, 16, 2]}}}]}"));
    /* and the ties are there: at 8 m/s (0.0625 m a step) s = 0.25 + 0.0625 k is 0.5 at step 4, the first
     * particle goes in at step 5 (s then 0.0625), the next at 13 (a tie at 12), then every 8 steps: by step 40
     * the particles inserted at 5, 13, 21, 29 and 37 */
    sk_scenario s;
    CHECK_OK(tb_load(&s,
                     "{\"skein\": 1, \"dt\": 0.0078125, \"steps\": 40, \"groups\": [{\"count\": 1, \"particles\": 40,"
                     " \"start\": [0, 10, 0], \"end\": [0, 10, 0], \"mass\": 0.5, \"damping\": 0.5,"
                     " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.5},"
                     " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.25, 10, 0], \"stiffness\": 30, \"length\": 0.25},"
                     " \"deploy\": {\"velocity\": 8, \"initial_particles\": 1}}]}"));
    const char *isas[4];
    const int n = tb_isas(isas, 4);
    for (int i = 0; i < n; i++) {
        sk_engine *e = tb_engine(&s, "batch", isas[i], 1);
        CHECK(e);
        sk_engine_advance(e, 4);
        CHECK(sk_engine_rope_particles(e, 0) == 1); /* s == L exactly: no insertion yet */
        sk_engine_advance(e, 1);
        CHECK(sk_engine_rope_particles(e, 0) == 2);
        sk_engine_advance(e, 7);
        CHECK(sk_engine_rope_particles(e, 0) == 2); /* step 12: the next tie */
        sk_engine_advance(e, 28);
        CHECK(sk_engine_rope_particles(e, 0) == 6);
        sk_engine_destroy(e);
    }
    sk_scenario_free(&s);
    return 0;
}

/* Ropes of one particle: a ball on an anchored spring with drag (seed 001). */
/* Signed zeros: the springs-only step sums u - u_prev where the model sums (0 - u_prev) + u, which differ in
 * the sign of a zero force only, and that changes no bit while the acceleration field has no -0. Here it has
 * (gravity -0 across the rope's plane) and the ropes lie flat with a velocity of -0 across it, so a zero
 * force's sign would reach v: the kernels must take the model's sum. Zero-length springs (particles on one
 * point) give zero forces of either sign too. */
static int signed_zeros(void)
{
    CHECK_OK(each_integrator(
        "{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", \"gravity\": [-0.0, -9.81, -0.0],"
        " \"groups\": [{\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1.1, 10, 0],"
        " \"mass\": 0.1, \"velocity\": [0, 0, -0.0], \"pinned\": [0],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": 0.1},"
        " \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}}}}]}"));
    /* all particles on one point, no gravity: every spring has zero length, every force is zero */
    return each_integrator(
        "{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", \"gravity\": [0, 0, 0],"
        " \"groups\": [{\"count\": 37, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [0, 10, 0],"
        " \"mass\": 0.1, \"velocity\": [-0.0, 0, -0.0],"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": 0.1},"
        " \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}}}}]}");
}

static int single_particle(void)
{
    return each_integrator(
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1000, \"integrator\": \"%s\", \"gravity_as\": \"force\","
        " \"groups\": [{\"count\": 37, \"particles\": 1, \"start\": [0, 9, 0], \"end\": [0, 9, 0], \"mass\": 0.5,"
        " \"velocity\": [1, 0, 0.5], \"drag\": {\"k1\": 0.1, \"k2\": 0.01},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 50, \"length\": 0.5},"
        " \"sweep\": {\"anchor.stiffness\": {\"random\": {\"min\": 10, \"max\": 100, \"seed\": 51}},"
        " \"velocity[2]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 52}}}}]}");
}

/* Several groups, one of them with rods and one on a cable constraint: every group runs the kernels
 * (contact groups included) and says so; all equal the reference. */
static int groups_with_contacts(void)
{
    static const char json[] =
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"cyclone\", \"groups\": ["
        " {\"count\": 5, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300}},"
        " {\"count\": 7, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
        "  \"link\": {\"type\": \"rod\"}},"
        " {\"count\": 3, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 9, 0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
        "  \"anchor\": {\"type\": \"cable\", \"point\": [0, 10, 0], \"length\": 0.1, \"restitution\": 0.5}}]}";
    CHECK_OK(tb_against_reference(json, STEPS, EVERY, NULL));

    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    const char *isas[4];
    int n = tb_isas(isas, 4);
    CHECK(n > 0);
    sk_error err = {0};
    sk_batch *b = sk_batch_create(&s, &(sk_batch_options){.isa = isas[0], .threads = 1}, &err);
    CHECK(b != NULL);
    CHECK(strcmp(sk_batch_isa(b), isas[0]) == 0);
    for (int g = 0; g < 3; g++)
        CHECK(strcmp(sk_batch_group_isa(b, g), isas[0]) == 0);
    sk_batch_destroy(b);
    sk_scenario_free(&s);
    return 0;
}

/* BDF2 (implicit.scheme): the extrapolated start, the first step's backward Euler, Newton with its line search
 * and each lane stopping on its own once converged, in each variant of the kernel: the hot case with no anchor
 * and with an anchored spring (every lane undamped), and the general one (damping swept per lane; bungees, every
 * per-particle force, bending, a towed anchored bungee; a pin anchor towed along a path), gravity as acceleration
 * and as a force. Steps of 2e-2 s on ropes whose w dt reaches 2.5: lanes
 * take different counts of solves, some refuse a full Newton step, and with 4 solves at most some stop
 * unconverged. */
#define BDF2_GROUP(N, LINK, EXTRA, SWEEP)                                                                                \
    " {\"count\": " #N ", \"particles\": 14, \"start\": [0, 10, 0], \"end\": [1.3, 10, 0], \"mass\": 0.1,"     \
    "  \"velocity\": [0.1, 0.2, -0.3], \"link\": {\"type\": \"" LINK "\", \"stiffness\": 400, \"length\": 0.1}, " EXTRA \
    "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 3000, \"seed\": 1}},"                 \
    "   \"mass\": {\"random\": {\"min\": 0.05, \"max\": 0.2, \"seed\": 2}},"                                        \
    "   \"velocity[1]\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 7}}" SWEEP "}}"

static int bdf2(void)
{
    static const char *const implicit[] = {"{\"scheme\": \"bdf2\", \"tolerance\": 1e-6}",
                                           "{\"scheme\": \"bdf2\", \"tolerance\": 1e-9, \"iterations\": 4}"};
    for (int i = 0; i < 2; i++) {
        static char json[1 << 13];
        snprintf(json, sizeof json,
                 "{\"skein\": 1, \"dt\": 2e-2, \"steps\": 400, \"integrator\": \"implicit\", \"implicit\": %s,"
                 " \"gravity_as\": \"%s\","
                 " \"groups\": [" BDF2_GROUP(37, "spring", "\"pinned\": [0],", "") ","
                 BDF2_GROUP(19, "spring", "\"pinned\": [], \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0],"
                                " \"stiffness\": 900, \"length\": 0.05},", "") ","
                 BDF2_GROUP(21, "bungee", "\"pinned\": [5], \"damping\": 0.9,"
                                " \"drag\": {\"k1\": 0.05, \"k2\": 0.1}, \"bending\": {\"stiffness\": 0.002},"
                                " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},"
                                " \"anchor\": {\"type\": \"anchored_bungee\", \"point\": [0, 10.05, 0], \"stiffness\": 900,"
                                " \"length\": 0.05, \"motion\": {\"velocity\": [1, 0, 0]}},",
                           ", \"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 3}},"
                           " \"anchor.motion.velocity[0]\": {\"random\": {\"min\": -2, \"max\": 2, \"seed\": 93}}") ","
                 BDF2_GROUP(13, "spring", "\"pinned\": [], \"anchor\": {\"type\": \"pin\", \"point\": [0, 10, 0],"
                                " \"motion\": {\"velocity\": [1, 0, 0], \"path\": {\"times\": [0.5, 2, 3.5],"
                                " \"points\": [[0, 0, 0], [0, 0.3, 0.1], [-0.2, 0.1, 0]]}}},",
                           ", \"anchor.motion.velocity[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 97}}") "]}",
                 implicit[i], i ? "force" : "acceleration");
        CHECK_OK(tb_against_reference(json, 400, 100, NULL));
    }
    return 0;
}

/* BDF2 with properties along the rope (model/profile.h): each row's diagonal, link blocks and damping for h, the
 * merit's and the energy's per-particle masses, per-link stiffnesses and rest lengths, link i's geometric share of
 * its own rest length. Linear profiles with payloads (energy judged), lists with gravity as a force, drag, buoyancy
 * and an anchored spring, bungees of a length profile, bending, and damped links by ratio: BDF2's step at 2e-2 s
 * on ropes whose w dt reaches about 2, each with a tolerance every lane meets and with 4 solves at most. */
#define BDF2_PROFILES(MASS, LINK, EXTRA, SWEEP)                                                                        \
    " {\"count\": 37, \"particles\": 14, \"start\": [0, 10, 0], \"end\": [1.3, 10, 0], \"mass\": " MASS ","             \
    "  \"velocity\": [0.1, 0.2, -0.3], \"link\": " LINK ", " EXTRA                                                    \
    "  \"sweep\": {\"velocity[1]\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 7}}" SWEEP "}}"

static int bdf2_profiles(void)
{
    static const char *const implicit[] = {"{\"scheme\": \"bdf2\", \"tolerance\": 1e-6}",
                                           "{\"scheme\": \"bdf2\", \"tolerance\": 1e-9, \"iterations\": 4}"};
    for (int i = 0; i < 2; i++) {
        static char json[1 << 14];
        snprintf(json, sizeof json,
                 "{\"skein\": 1, \"dt\": 2e-2, \"steps\": 400, \"integrator\": \"implicit\", \"implicit\": %s,"
                 " \"gravity_as\": \"%s\", \"groups\": ["
                 BDF2_PROFILES("{\"from\": 0.05, \"to\": 0.2}",
                               "{\"type\": \"spring\", \"stiffness\": {\"from\": 2000, \"to\": 300}, \"length\": {\"from\": 0.08, \"to\": 0.12}}",
                               "\"pinned\": [0], \"payloads\": [{\"index\": -1, \"mass\": 0.5}, {\"index\": 6, \"mass\": 0.2}],",
                               ", \"mass.last\": {\"random\": {\"min\": 0.02, \"max\": 0.3, \"seed\": 101}},"
                               " \"link.stiffness.last\": {\"random\": {\"min\": 100, \"max\": 3000, \"seed\": 102}},"
                               " \"link.length.last\": {\"random\": {\"min\": 0.08, \"max\": 0.14, \"seed\": 103}},"
                               " \"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 2, \"seed\": 104}}") ","
                 BDF2_PROFILES("[0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05]",
                               "{\"type\": \"spring\", \"stiffness\": [900, 900, 900, 900, 900, 900, 300, 300, 300, 300, 300, 300, 300],"
                               " \"length\": 0.1}",
                               "\"pinned\": [], \"damping\": 0.9, \"drag\": {\"k1\": 0.05, \"k2\": 0.1},"
                               " \"buoyancy\": {\"water_height\": 9.9, \"max_depth\": 0.1, \"density\": 1000, \"volume\": 0.0005},"
                               " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 900, \"length\": 0.05},"
                               " \"payloads\": [{\"index\": -1, \"mass\": 1}],",
                               ", \"payloads[0].mass\": {\"random\": {\"min\": 0, \"max\": 3, \"seed\": 105}},"
                               " \"damping\": {\"random\": {\"min\": 0.5, \"max\": 1, \"seed\": 3}}") ","
                 BDF2_PROFILES("0.1", "{\"type\": \"bungee\", \"stiffness\": 400, \"length\": {\"from\": 0.08, \"to\": 0.16}}",
                               "\"pinned\": [0], \"bending\": {\"stiffness\": 0.002}, \"payloads\": [{\"index\": -1, \"mass\": 0.5}],",
                               ", \"link.length.last\": {\"random\": {\"min\": 0.1, \"max\": 0.2, \"seed\": 107}}") ","
                 BDF2_PROFILES("{\"from\": 0.15, \"to\": 0.05}",
                               "{\"type\": \"spring\", \"damping_ratio\": 0.3, \"stiffness\": {\"from\": 800, \"to\": 200}, \"length\": 0.1}",
                               "\"pinned\": [0], \"payloads\": [{\"index\": -1, \"mass\": 0.3}],",
                               ", \"link.damping_ratio\": {\"random\": {\"min\": 0, \"max\": 1, \"seed\": 123}}") "]}",
                 implicit[i], i ? "force" : "acceleration");
        CHECK_OK(tb_against_reference(json, 400, 100, NULL));
    }
    return 0;
}

/* Wind on deploying ropes, on rods with the ground's contacts, with bending, and under BDF2. */
static int wind_everywhere(void)
{
    CHECK_OK(each_integrator_deploying(DEPLOY("along", "\"wind\": {\"force\": [0.1, 0.2, 0.05]},",
                                              ", \"wind.force[0]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 143}}"),
                                       2, 24));
    CHECK_OK(each_integrator("{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\","
                             " \"ground\": {\"height\": 9.6, \"restitution\": 0.2}, \"groups\": ["
                             " {\"count\": 7, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
                             "  \"link\": {\"type\": \"rod\"}, \"wind\": {\"force\": [0, 0.2, 0.3]},"
                             "  \"sweep\": {\"wind.force[1]\": {\"random\": {\"min\": -2, \"max\": 1, \"seed\": 144}}}},"
                             " {\"count\": 9, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1.1, 10, 0], \"pinned\": [0],"
                             "  \"link\": {\"type\": \"spring\", \"stiffness\": 800}, \"bending\": {\"stiffness\": 0.02},"
                             "  \"wind\": {\"force\": [0.2, 0, 0.4]}}]}"));
    static char json[1 << 13];
    snprintf(json, sizeof json,
             "{\"skein\": 1, \"dt\": 2e-2, \"steps\": 400, \"integrator\": \"implicit\","
             " \"implicit\": {\"scheme\": \"bdf2\", \"tolerance\": 1e-6}, \"groups\": ["
             BDF2_GROUP(37, "spring", "\"pinned\": [0], \"wind\": {\"force\": [0.5, 0, 0.3]},",
                        ", \"wind.force[2]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 145}}") "]}");
    CHECK_OK(tb_against_reference(json, 400, 100, NULL));
    return 0;
}

/* BDF2 with damped links (their blocks T; no energy judge), springs by ratio and bungees by damping. */
static int link_damping_bdf2(void)
{
    static char json[1 << 13];
    snprintf(json, sizeof json,
             "{\"skein\": 1, \"dt\": 2e-2, \"steps\": 400, \"integrator\": \"implicit\","
             " \"implicit\": {\"scheme\": \"bdf2\", \"tolerance\": 1e-9, \"iterations\": 4},"
             " \"groups\": [" BDF2_GROUP(37, "spring", "\"pinned\": [0],",
                                       ", \"link.damping_ratio\": {\"random\": {\"min\": 0, \"max\": 2, \"seed\": 125}}") ","
             BDF2_GROUP(21, "bungee", "\"pinned\": [5], \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0],"
                                      " \"stiffness\": 900, \"length\": 0.05},", "") "]}");
    const char *damped = with_link_keys(json, "\"damping_ratio\": 0.5");
    static char both[1 << 15];
    snprintf(both, sizeof both, "%s", damped);
    char *second = strstr(strstr(both, "\"damping_ratio\": 0.5") + 1, "\"damping_ratio\": 0.5");
    CHECK(second != NULL);
    memcpy(second, "\"damping\":       0.5", strlen("\"damping_ratio\": 0.5")); /* the bungees by damping (N s) */
    CHECK_OK(tb_against_reference(both, 400, 100, NULL));
    return 0;
}

/* The implicit integrator in contact groups: its solve, then the contact phase, as the explicit integrators
 * do; springs that hit the ground, deploying ropes that hit it, rods (no force, so a diagonal solve) and a
 * cable anchor; with 1 and 2 Newton iterations. */
static int implicit_contacts(void)
{
    for (int iterations = 1; iterations <= 2; iterations++) {
        char json[4096];
        snprintf(json, sizeof json,
            "{\"skein\": 1, \"dt\": 2e-3, \"steps\": 1000, \"integrator\": \"implicit\","
            " \"implicit\": {\"iterations\": %d}, \"ground\": {\"height\": 8.5, \"restitution\": 0.2}, \"groups\": ["
            " {\"count\": 11, \"particles\": 10, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 3000},"
            "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 500, \"max\": 5000, \"seed\": 81}},"
            "   \"start[1]\": {\"random\": {\"min\": 8.6, \"max\": 10, \"seed\": 82}}}},"
            " {\"count\": 9, \"particles\": 8, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0],"
            "  \"link\": {\"type\": \"rod\"}},"
            " {\"count\": 5, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 9, 0],"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
            "  \"anchor\": {\"type\": \"cable\", \"point\": [0, 10, 0], \"length\": 0.1, \"restitution\": 0.5}},"
            " {\"count\": 13, \"particles\": 12, \"start\": [0, 9.2, 0], \"end\": [0, 9.3, 0], \"mass\": 0.05,"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 2000, \"length\": 0.1},"
            "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 9.4, 0], \"stiffness\": 2000, \"length\": 0.05},"
            "  \"deploy\": {\"velocity\": 2, \"initial_particles\": 2},"
            "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 1, \"max\": 4, \"seed\": 83}}}}]}",
            iterations);
        tb_stats st;
        CHECK_OK(tb_against_reference(json, STEPS, EVERY, &st));
    }
    return 0;
}

/* The ground makes every group a contact group: the whole batch runs the contact kernels. */
static int ground_is_kernels(void)
{
    static const char json[] =
        "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1000, \"integrator\": \"cyclone\","
        " \"ground\": {\"height\": 9.5, \"restitution\": 0.3}, \"groups\": ["
        " {\"count\": 9, \"particles\": 6, \"start\": [0, 10, 0], \"end\": [1, 10, 0],"
        "  \"link\": {\"type\": \"spring\", \"stiffness\": 300},"
        "  \"sweep\": {\"start[1]\": {\"random\": {\"min\": 9.6, \"max\": 10.5, \"seed\": 61}}}}]}";
    CHECK_OK(tb_against_reference(json, STEPS, EVERY, NULL));
    sk_scenario s;
    CHECK_OK(tb_load(&s, "%s", json));
    const char *isas[4];
    CHECK(tb_isas(isas, 4) > 0);
    sk_engine *e = tb_engine(&s, "batch", "auto", 1);
    CHECK(e != NULL);
    CHECK(strcmp(sk_engine_isa(e), isas[0]) == 0);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

/* Driven anchors: the kernels take SLEEF's sine (u10: within 1 ulp), the reference libm's, so x(t) may
 * differ in the last bit and the ropes by what that grows into. The bounds below are about 4x the largest
 * deviations measured on this test's own scenario (37 ropes of 20 particles with random omega, phase and
 * amplitude, plus 37 deploying ropes with driven anchors, 1000 steps, compared every 50 steps) with
 * every ISA and integrator (all ISAs gave the same numbers: SLEEF's FMA group is bit-identical):
 *   double: cyclone/euler p 2.8e-14 v 1.5e-12, symplectic p 1.9e-14 v 8.5e-13, verlet p 2.5e-13 v 2.7e-11
 *   float:  cyclone/euler p 1.9e-5  v 1.2e-3,  symplectic p 4.3e-5  v 2.0e-3,  verlet p 5.5e-4  v 2.9e-2
 * (verlet's velocity is (p - q) / dt, which multiplies a position difference by 1/dt = 5000). The test
 * prints what it measures. implicit: double p 1.2e-13 v 9e-12, float p 6.3e-5 v 2.4e-3. Order: cyclone, euler,
 * symplectic, verlet, implicit. */
#ifdef SKEIN_REAL_FLOAT
static const double driven_bound_p[] = {8e-5, 8e-5, 1.8e-4, 2.2e-3, 2.5e-4};
static const double driven_bound_v[] = {5e-3, 5e-3, 8e-3, 0.12, 1e-2};
#else
static const double driven_bound_p[] = {1.2e-13, 1.2e-13, 8e-14, 1e-12, 5e-13};
static const double driven_bound_v[] = {6e-12, 6e-12, 3.5e-12, 1.1e-10, 4e-11};
#endif

static int driven_anchor(void)
{
    const char *isas[4];
    int n_isas = tb_isas(isas, 4);
    CHECK(n_isas > 0);
    for (int k = 0; k < 5; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
            "{\"skein\": 1, \"dt\": 2e-4, \"steps\": 1000, \"integrator\": \"%s\", \"groups\": ["
            " {\"count\": 37, \"particles\": 20, \"start\": [0, 10, 0], \"end\": [2, 10, 0], \"mass\": 0.1,"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 400, \"length\": 0.1},"
            "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0, 10, 0], \"stiffness\": 300, \"length\": 0.05,"
            "   \"motion\": {\"amplitude\": [0.1, 0.2, 0.05], \"omega\": 10, \"phase\": 0.3}},"
            "  \"sweep\": {\"anchor.motion.omega\": {\"random\": {\"min\": 1, \"max\": 60, \"seed\": 71}},"
            "   \"anchor.motion.phase\": {\"random\": {\"min\": -3, \"max\": 3, \"seed\": 72}},"
            "   \"anchor.motion.amplitude[1]\": {\"random\": {\"min\": 0.05, \"max\": 0.5, \"seed\": 73}},"
            "   \"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 800, \"seed\": 1}}}},"
            " {\"count\": 37, \"particles\": 16, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
            "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05,"
            "   \"motion\": {\"amplitude\": [0.05, 0.1, 0], \"omega\": 20, \"phase\": 0}},"
            "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
            "  \"sweep\": {\"anchor.motion.omega\": {\"random\": {\"min\": 1, \"max\": 60, \"seed\": 74}},"
            "   \"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 75}}}}]}",
            integrators[k]));
        /* the reference once, every ISA beside it */
        sk_engine *ref = tb_engine(&s, "reference", NULL, 0), *bat[4];
        CHECK(ref != NULL);
        double max_p[4] = {0}, max_v[4] = {0};
        for (int i = 0; i < n_isas; i++)
            CHECK((bat[i] = tb_engine(&s, "batch", isas[i], 1)) != NULL);
        for (int frame = 0; frame < 20; frame++) {
            sk_engine_advance(ref, 50);
            for (int i = 0; i < n_isas; i++) {
                sk_engine_advance(bat[i], 50);
                double dp, dv;
                tb_max_deviation(&s, bat[i], ref, &dp, &dv);
                CHECK(dp >= 0); /* the same particle counts */
                max_p[i] = dp > max_p[i] ? dp : max_p[i];
                max_v[i] = dv > max_v[i] ? dv : max_v[i];
            }
        }
        for (int i = 0; i < n_isas; i++) {
            fprintf(stderr, "driven anchor, %s, %s: position within %.3g (bound %.3g), velocity within %.3g (bound %.3g)\n",
                    integrators[k], isas[i], max_p[i], driven_bound_p[k], max_v[i], driven_bound_v[k]);
            CHECK(max_p[i] <= driven_bound_p[k]);
            CHECK(max_v[i] <= driven_bound_v[k]);
            sk_engine_destroy(bat[i]);
        }
        sk_engine_destroy(ref);
        sk_scenario_free(&s);
    }
    return 0;
}

/* The step as three separate kernels (deployment, forces into an array, integration) gives the fused
 * step's bits: the benchmark's stage kernels compute what the engine does. */
static int stages_unfused(void)
{
    const char *isas[4];
    int n_isas = tb_isas(isas, 4);
    for (int k = 0; k < 4; k++) {
        sk_scenario s;
        CHECK_OK(tb_load(&s,
            "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 400, \"integrator\": \"%s\", \"groups\": ["
            " {\"count\": 19, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [4],"
            "  \"link\": {\"type\": \"bungee\", \"stiffness\": 300, \"length\": 0.09}, \"drag\": {\"k1\": 0.1, \"k2\": 0.05},"
            "  \"anchor\": {\"type\": \"fake_spring\", \"point\": [0, 10, 0], \"stiffness\": 400, \"damping\": 5,"
            "   \"motion\": {\"amplitude\": [0.05, 0.1, 0], \"omega\": 20, \"phase\": 0}},"
            "  \"sweep\": {\"link.stiffness\": {\"random\": {\"min\": 100, \"max\": 500, \"seed\": 81}}}},"
            " {\"count\": 11, \"particles\": 14, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
            "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
            "  \"deploy\": {\"velocity\": 3, \"initial_particles\": 2},"
            "  \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 82}}}},"
            " {\"count\": 7, \"particles\": 14, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"mass\": 0.05,"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
            "  \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"stiffness\": 300, \"length\": 0.05},"
            "  \"deploy\": {\"velocity\": {\"times\": [0, 0.08, 0.1], \"values\": [3, 3, -4]}, \"initial_particles\": 2},"
            "  \"sweep\": {\"link.length\": {\"random\": {\"min\": 0.05, \"max\": 0.1, \"seed\": 83}}}},"
            " {\"count\": 7, \"particles\": 12, \"start\": [0, 10, 0], \"end\": [1, 10, 0], \"pinned\": [0, 1],"
            "  \"link\": {\"type\": \"spring\", \"stiffness\": 300}, \"bending\": {\"stiffness\": 0.05},"
            "  \"sweep\": {\"bending.stiffness\": {\"random\": {\"min\": 0, \"max\": 0.1, \"seed\": 83}}}}]}",
            integrators[k]));
        for (int i = 0; i < n_isas; i++) {
            sk_error err = {0};
            sk_batch_options opt = {.isa = isas[i], .threads = 1};
            sk_batch *fused = sk_batch_create(&s, &opt, &err), *unfused = sk_batch_create(&s, &opt, &err);
            CHECK(fused && unfused);
            uint64_t a = sk_batch_advance(fused, 400);
            uint64_t b = sk_batch_run_stage(unfused, SK_BATCH_STAGE_UNFUSED, 400);
            CHECK(a == b);
            CHECK(sk_batch_step(fused) == 400 && sk_batch_step(unfused) == 400);
            for (size_t r = 0; r < s.total_ropes; r++) {
                int n = sk_batch_rope_particles(fused, r);
                CHECK(n == sk_batch_rope_particles(unfused, r));
                sk_real p[2][14 * 3], v[2][14 * 3];
                sk_batch_read_rope(fused, r, p[0], v[0]);
                sk_batch_read_rope(unfused, r, p[1], v[1]);
                CHECK(memcmp(p[0], p[1], (size_t)n * 3 * sizeof(sk_real)) == 0);
                CHECK(memcmp(v[0], v[1], (size_t)n * 3 * sizeof(sk_real)) == 0);
            }
            /* the stages one by one, as the benchmarks time them: forces leave the state and the step
             * alone; integration moves the particles (with the last pack's forces: a timing, not a step) */
            uint64_t covered = sk_batch_run_stage(unfused, SK_BATCH_STAGE_FORCES, 3);
            CHECK(covered > 0);
            for (size_t r = 0; r < s.total_ropes; r++) {
                sk_real p[2][14 * 3];
                int n = sk_batch_rope_particles(unfused, r);
                sk_batch_read_rope(unfused, r, p[0], NULL);
                sk_batch_read_rope(fused, r, p[1], NULL);
                CHECK(memcmp(p[0], p[1], (size_t)n * 3 * sizeof(sk_real)) == 0);
            }
            CHECK(sk_batch_run_stage(unfused, SK_BATCH_STAGE_INTEGRATE, 3) == covered);
            CHECK(sk_batch_run_stage(unfused, SK_BATCH_STAGE_DEPLOY, 3) >= covered); /* may insert */
            CHECK(sk_batch_step(unfused) == 400);
            sk_batch_destroy(fused);
            sk_batch_destroy(unfused);
        }
        sk_scenario_free(&s);
    }
    return 0;
}

/* --isa: an unknown name and a name the build or CPU lacks are usage errors; auto is the widest usable. */
static int isa_choice(void)
{
    sk_scenario s;
    CHECK_OK(tb_load(&s, "{\"skein\": 1, \"dt\": 1e-3, \"steps\": 1, \"groups\": [{\"count\": 3, \"particles\": 4,"
                         " \"start\": [0, 0, 0], \"end\": [1, 0, 0], \"link\": {\"type\": \"spring\", \"stiffness\": 10}}]}"));
    sk_error err = {0};
    sk_engine_options opt = {.engine = "batch", .isa = "avx9"};
    CHECK(sk_engine_create(&s, &opt, &err) == NULL);
    CHECK(err.status == SK_ERR_INVALID);
    CHECK(strstr(err.message, "avx9") != NULL);

    sk_isa_info list[8];
    int n = sk_isa_list(list, 8);
    const char *widest = NULL;
    for (int i = 0; i < n; i++) {
        opt.isa = list[i].name;
        err = (sk_error){0};
        sk_engine *e = sk_engine_create(&s, &opt, &err);
        if (list[i].compiled && list[i].usable) {
            CHECK(e != NULL);
            CHECK(strcmp(sk_engine_isa(e), list[i].name) == 0);
            widest = widest ? widest : list[i].name;
        } else {
            CHECK(e == NULL);
            CHECK(err.status == SK_ERR_UNSUPPORTED);
        }
        sk_engine_destroy(e);
    }
    CHECK(widest != NULL);
    /* no engine named: the batch engine, and auto picks the widest */
    sk_engine *e = sk_engine_create(&s, &(sk_engine_options){0}, &err);
    CHECK(e != NULL);
    CHECK(strcmp(sk_engine_isa(e), widest) == 0);
    sk_engine_destroy(e);
    sk_scenario_free(&s);
    return 0;
}

/* Lines in water (docs/model.md 3.6-3.7) under every integrator: the explicit ones, backward Euler with one
 * and three Newton iterations and BDF2. */
static int each_line(const char *fmt)
{
    static const struct {
        const char *name, *top;
    } line_runs[] = {{"cyclone", ""},
                     {"euler", ""},
                     {"symplectic", ""},
                     {"verlet", ""},
                     {"implicit", ""},
                     {"implicit", "\"implicit\": {\"iterations\": 3}, "},
                     {"implicit", "\"implicit\": {\"scheme\": \"bdf2\", \"tolerance\": 1e-9, \"iterations\": 6}, "}};
    static char json[1 << 14], text[1 << 14];
    for (size_t i = 0; i < sizeof line_runs / sizeof line_runs[0]; i++) {
        snprintf(text, sizeof text, fmt, line_runs[i].name);
        CHECK(text[0] == '{');
        snprintf(json, sizeof json, "{%s%s", line_runs[i].top, text + 1);
        if (tb_against_reference(json, STEPS, EVERY, NULL)) {
            fprintf(stderr, "integrator %s %s\n", line_runs[i].name, line_runs[i].top);
            return 1;
        }
    }
    return 0;
}

/* Each explicit integrator, deploying: some lanes inserted, lanes at different counts, some at the capacity
 * (reel: every lane back at `initial` by the end). */
static int each_explicit_deploying(const char *fmt, int initial, int capacity, bool reel)
{
    static char json[1 << 14];
    for (int i = 0; i < 4; i++) {
        snprintf(json, sizeof json, fmt, integrators[i]);
        tb_stats mid, end;
        if (tb_against_reference(json, 500, 250, &mid) || tb_against_reference(json, STEPS, EVERY, &end)) {
            fprintf(stderr, "integrator %s\n", integrators[i]);
            return 1;
        }
        CHECK(mid.min_count > initial && mid.min_count < mid.max_count);
        CHECK(reel ? end.max_count == initial : end.max_count == capacity);
    }
    return 0;
}

/* A deploying line given by EA (docs/model.md section 7.1): 24 segments of 0.1 m (the capacity), each lane
 * its own EA, mass per length and speed, so its own anchored stiffness EA / max(s, L/4), strain-continuous
 * insertions and insertion steps; damped links. */
#define DEPLOY_LINE(VELOCITY, SWEEPS) DEPLOY_LINE_TOP("", VELOCITY, SWEEPS)
#define DEPLOY_LINE_TOP(TOP, VELOCITY, SWEEPS) DEPLOY_LINE_LINK(TOP, ", \"damping_ratio\": 0.3", VELOCITY, SWEEPS)
#define DEPLOY_LINE_LINK(TOP, LINK, VELOCITY, SWEEPS)                                                             \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", " TOP                                  \
    " \"groups\": [{\"count\": 37, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0], \"damping\": 0.9,"                  \
    " \"velocity\": [0.3, 0, 0], \"pinned\": [0],"                                                                 \
    " \"line\": {\"diameter\": 0.01, \"mass_per_length\": 0.5, \"EA\": 30, \"length\": 2.4, \"segments\": 24},"     \
    " \"link\": {\"type\": \"spring\"" LINK "},"                                                                  \
    " \"anchor\": {\"type\": \"anchored_spring\", \"point\": [0.2, 10, 0], \"length\": 0.05},"                     \
    " \"deploy\": {\"velocity\": " VELOCITY ", \"initial_particles\": 2, \"insert_velocity\": \"along\"},"         \
    " \"sweep\": {\"line.EA\": {\"random\": {\"min\": 10, \"max\": 60, \"seed\": 141}},"                            \
    "  \"line.mass_per_length\": {\"random\": {\"min\": 0.3, \"max\": 1, \"seed\": 142}}" SWEEPS "}}]}"

static int deploy_line(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE("3", ", \"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 143}}"), 2, 24, false);
}

/* Out and in again (a speed table), each lane its own segment length (line.length), so its own insertions and
 * absorptions: the anchored segment's stiffness follows s both ways. */
static int deploy_line_reel_in(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE(REEL_TABLE, ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 144}}"), 2, 24, true);
}

/* The implicit integrator, deploying (one Newton iteration and three): lanes inserted at different steps
 * and counts, some at the capacity (reel: every lane back at `initial` by the end). */
static int each_implicit_deploying(const char *fmt, int initial, int capacity, bool reel)
{
    static char json[1 << 14], text[1 << 14];
    static const char *const tops[] = {"", "\"implicit\": {\"iterations\": 3}, "};
    for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++) {
        snprintf(text, sizeof text, fmt, "implicit");
        CHECK(text[0] == '{');
        snprintf(json, sizeof json, "{%s%s", tops[i], text + 1);
        tb_stats mid, end;
        if (tb_against_reference(json, 500, 250, &mid) || tb_against_reference(json, STEPS, EVERY, &end)) {
            fprintf(stderr, "implicit %s\n", tops[i]);
            return 1;
        }
        CHECK(mid.min_count > initial && mid.min_count < mid.max_count);
        CHECK(reel ? end.max_count == initial : end.max_count == capacity);
    }
    return 0;
}

/* deploy_line and deploy_line_reel_in under the implicit integrator: each lane's anchor block holds its own
 * EA / max(s, L/4) at its own s, both ways across s_min. */
static int deploy_line_implicit(void)
{
    return each_implicit_deploying(
        DEPLOY_LINE("3", ", \"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 143}}"), 2, 24, false);
}

static int deploy_line_reel_in_implicit(void)
{
    return each_implicit_deploying(
        DEPLOY_LINE(REEL_TABLE, ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 144}}"), 2, 24, true);
}

/* Out and in with undamped links (the implicit step's variant without the links' damping blocks). */
static int deploy_line_undamped_implicit(void)
{
    return each_implicit_deploying(
        DEPLOY_LINE_LINK("", "", REEL_TABLE, ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 146}}"),
        2, 24, true);
}

/* The same over a rigid ground with friction that the line reaches (the contact step: deployment, forces,
 * contacts). */
static int deploy_line_ground(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE_TOP("\"ground\": {\"height\": 9.8, \"friction\": {\"static\": 0.6, \"kinetic\": 0.4}},", REEL_TABLE,
                        ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 145}}"),
        2, 24, true);
}

/* A deploying line in water and on a compliant seabed (docs/model.md section 7.2): the line of deploy_line,
 * its loop (tip pinned beside the anchor) crossing the surface into a sheared current under waves, each lane
 * its own diameter too. The surface is at the anchor's height, so that the newest particle, at about the
 * anchored segment's length from the anchor point, is partly submerged (its tangent, toward the anchor point,
 * counts). */
#define DEPLOY_SEA                                                                                                  \
    "\"water\": {\"density\": 1025, \"surface\": 10, \"current\": {\"heights\": [7, 8.8, 10],"                  \
    " \"velocities\": [[0, 0, 0], [0.3, 0, 0.1], [0.6, 0, -0.3]]},"                                               \
    " \"waves\": {\"amplitude\": 0.05, \"period\": 0.7, \"heading\": 30, \"phase\": 40, \"depth\": 3, \"ramp\": 0.1}},"
/* The same over a compliant seabed at 9.7 m (reached from the 400th step on), the waves' depth the water's
 * over it. */
#define DEPLOY_SEA_BED                                                                                              \
    "\"water\": {\"density\": 1025, \"surface\": 10, \"current\": {\"heights\": [9.7, 9.85, 10],"                 \
    " \"velocities\": [[0, 0, 0], [0.3, 0, 0.1], [0.6, 0, -0.3]]},"                                               \
    " \"waves\": {\"amplitude\": 0.02, \"period\": 0.7, \"heading\": 30, \"phase\": 40, \"depth\": 0.3, \"ramp\": 0.1}},"
#define DEPLOY_SEA_SWEEP ", \"line.diameter\": {\"random\": {\"min\": 0.005, \"max\": 0.03, \"seed\": 146}}"

/* Paying out at a speed swept per lane, every lane up to the capacity. */
static int deploy_line_water(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE_TOP(DEPLOY_SEA, "3",
                        ", \"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 143}}" DEPLOY_SEA_SWEEP),
        2, 24, false);
}

/* Out and in again through the surface (a speed table), each lane its own segment length. */
static int deploy_line_water_reel_in(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE_TOP(DEPLOY_SEA, REEL_TABLE,
                        ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 144}}" DEPLOY_SEA_SWEEP),
        2, 24, true);
}

/* Onto a compliant seabed with friction under the water, paid out and reeled in. */
static int deploy_line_seabed(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE_TOP(DEPLOY_SEA_BED " \"ground\": {\"height\": 9.7, \"stiffness\": 3e4, \"damping\": 300,"
                        " \"friction\": {\"static\": 0.6, \"kinetic\": 0.5}, \"slip_speed\": 0.02},",
                        REEL_TABLE,
                        ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 147}}" DEPLOY_SEA_SWEEP),
        2, 24, true);
}

/* The same lines under the implicit integrator: its blocks take the added mass and the Morison drag's Jacobian
 * of the deploying line's shares and tangents, the newest particle's toward the anchor point (7.2). */
static int deploy_line_water_implicit(void)
{
    return each_implicit_deploying(
        DEPLOY_LINE_TOP(DEPLOY_SEA, REEL_TABLE,
                        ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 148}}" DEPLOY_SEA_SWEEP),
        2, 24, true);
}

static int deploy_line_seabed_implicit(void)
{
    return each_implicit_deploying(
        DEPLOY_LINE_TOP(DEPLOY_SEA_BED " \"ground\": {\"height\": 9.7, \"stiffness\": 3e4, \"damping\": 300,"
                        " \"friction\": {\"static\": 0.6, \"kinetic\": 0.5}, \"slip_speed\": 0.02},",
                        REEL_TABLE,
                        ", \"line.length\": {\"random\": {\"min\": 2, \"max\": 3, \"seed\": 149}}" DEPLOY_SEA_SWEEP),
        2, 24, true);
}

/* On a compliant seabed in air (no water): the seabed's terms alone. */
static int deploy_line_seabed_dry(void)
{
    return each_explicit_deploying(
        DEPLOY_LINE_TOP("\"ground\": {\"height\": 9.7, \"stiffness\": 3e4, \"damping\": 300,"
                        " \"friction\": {\"static\": 0.6, \"kinetic\": 0.5}},",
                        "3", ", \"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 148}}"),
        2, 24, false);
}

/* A deploying line given by its diameter and particle masses (no profiles: the shares from the particle's
 * index, the newest at the capacity taking a whole segment), with bending and a drag of its own, in water. */
static int deploy_particles_water(void)
{
    static const char fmt[] =
        "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", " DEPLOY_SEA
        " \"groups\": [{\"count\": 37, \"particles\": 20, \"mass\": 0.05, \"start\": [0, 10, 0], \"end\": [0.1, 10, 0],"
        " \"damping\": 0.9, \"velocity\": [0.3, 0, 0], \"pinned\": [0], \"bending\": {\"stiffness\": 0.001},"
        " \"line\": {\"diameter\": 0.01, \"drag\": {\"normal\": 1.2, \"tangential\": 0.3},"
        "  \"added_mass\": {\"normal\": 1, \"tangential\": 0.2}},"
        " \"link\": {\"type\": \"spring\", \"stiffness\": 300, \"length\": 0.1},"
        " \"anchor\": {\"type\": \"anchored_spring\", \"stiffness\": 600, \"point\": [0.2, 10, 0], \"length\": 0.05},"
        " \"deploy\": {\"velocity\": 3, \"initial_particles\": 2, \"insert_velocity\": \"along\"},"
        " \"sweep\": {\"deploy.velocity\": {\"random\": {\"min\": 2, \"max\": 6, \"seed\": 149}}" DEPLOY_SEA_SWEEP
        "}}]}";
    return each_explicit_deploying(fmt, 2, 20, false);
}

/* A line given by EA (profiles: its ends carry half a segment) crossing the surface, falling onto a compliant
 * seabed with friction, in a sheared current... each lane its own diameter, coefficients, EA and mass. */
#define LINE_WATER(TOP, LINE_EXTRA, GROUP_EXTRA) LINE_SEA("{\"density\": 1025, \"surface\": 0.2}", TOP, LINE_EXTRA, GROUP_EXTRA)
#define LINE_SEA(SEA, TOP, LINE_EXTRA, GROUP_EXTRA)                                                               \
    "{\"skein\": 1, \"dt\": 5e-4, \"steps\": 1000, \"integrator\": \"%s\", " TOP                                                 \
    " \"water\": " SEA ","                                                                                     \
    " \"ground\": {\"height\": -1.5, \"stiffness\": 3e4, \"damping\": 300, \"friction\": {\"static\": 0.6, \"kinetic\": 0.5}},"\
    " \"groups\": [{\"count\": 37, \"start\": [0, 1, 0], \"end\": [4, -1.2, 0.5], \"pinned\": [0],"              \
    " \"velocity\": [0.3, -0.4, 0.2], \"damping\": 0.95, \"verlet_damping\": 0.001, " GROUP_EXTRA               \
    " \"line\": {\"diameter\": 0.02, \"drag\": {\"normal\": 1.2, \"tangential\": 0.3},"                            \
    "  \"added_mass\": {\"normal\": 1, \"tangential\": 0.2}" LINE_EXTRA "},"                                          \
    " \"sweep\": {\"line.diameter\": {\"random\": {\"min\": 0.01, \"max\": 0.05, \"seed\": 1}},"                 \
    "  \"line.drag.normal\": {\"random\": {\"min\": 0.5, \"max\": 2, \"seed\": 2}},"                               \
    "  \"line.added_mass.normal\": {\"random\": {\"min\": 0, \"max\": 1.5, \"seed\": 3}},"                         \
    "  \"end[2]\": {\"random\": {\"min\": -0.5, \"max\": 0.5, \"seed\": 4}},"                                      \
    "  \"velocity[1]\": {\"random\": {\"min\": -1, \"max\": 1, \"seed\": 5}}}}]}"

static int line_water(void)
{
    return each_line(LINE_WATER("", ", \"mass_per_length\": 0.8, \"EA\": 200, \"length\": 4.6, \"segments\": 15", ""));
}

/* The same with particles, masses and link given (no profiles), bending and the old drag beside Morison's. */
static int line_water_particles(void)
{
    return each_line(LINE_WATER("\"gravity_as\": \"force\",", "",
                                "\"particles\": 16, \"mass\": 0.25, \"link\": {\"type\": \"spring\", \"stiffness\": 600, "
                                "\"length\": 0.3}, \"bending\": {\"stiffness\": 0.02}, \"drag\": {\"k1\": 0.01, \"k2\": 0.02},"));
}

/* A line given by EA with bending and axial damping (a ratio of critical, as MoorDyn's negative BA). */
static int line_water_bending(void)
{
    return each_line(LINE_WATER("", ", \"mass_per_length\": 0.8, \"EA\": 200, \"length\": 4.6, \"segments\": 15",
                                "\"bending\": {\"stiffness\": 0.05}, \"link\": {\"type\": \"bungee\", \"damping_ratio\": 0.5},"));
}

/* Waves (ramped in) over a sheared current: the water's velocity and acceleration at every particle. */
static int line_waves(void)
{
    return each_line(LINE_SEA("{\"density\": 1025, \"surface\": 0.2, \"current\": {\"heights\": [-1.5, -0.5, 0.2],"
                                  " \"velocities\": [[0, 0, 0], [0.2, 0, 0.1], [0.5, 0, -0.2]]},"
                                  " \"waves\": {\"amplitude\": 0.1, \"period\": 2, \"heading\": 30, \"phase\": 40,"
                                  " \"depth\": 1.6, \"ramp\": 0.2}}",
                                  "", ", \"mass_per_length\": 0.8, \"EA\": 200, \"length\": 4.6, \"segments\": 15",
                                  "\"link\": {\"type\": \"bungee\", \"damping_ratio\": 0.3},"));
}

/* BDF2 at the large steps it is for on a line given by EA (profiles: its ends carry half a segment) in waves over a
 * sheared current, its links damped bungees, falling onto the compliant seabed: steps of 1e-2 s, 200 of them. */
static int bdf2_line_water(void)
{
    static char json[1 << 14];
    snprintf(json, sizeof json,
             LINE_SEA("{\"density\": 1025, \"surface\": 0.2, \"current\": {\"heights\": [-1.5, -0.5, 0.2],"
                      " \"velocities\": [[0, 0, 0], [0.2, 0, 0.1], [0.5, 0, -0.2]]},"
                      " \"waves\": {\"amplitude\": 0.1, \"period\": 2, \"heading\": 30, \"phase\": 40,"
                      " \"depth\": 1.6, \"ramp\": 0.2}}",
                      "\"implicit\": {\"scheme\": \"bdf2\", \"tolerance\": 1e-9, \"iterations\": 6},",
                      ", \"mass_per_length\": 0.8, \"EA\": 200, \"length\": 4.6, \"segments\": 15",
                      "\"link\": {\"type\": \"bungee\", \"damping_ratio\": 0.3},"),
             "implicit");
    char *dt = strstr(json, "\"dt\": 5e-4, \"steps\": 1000");
    CHECK(dt != NULL);
    memcpy(dt, "\"dt\": 1e-2, \"steps\":  200", strlen("\"dt\": 5e-4, \"steps\": 1000"));
    CHECK_OK(tb_against_reference(json, 200, 50, NULL));
    return 0;
}

CHECK_MAIN({"line_water", line_water}, {"line_waves", line_waves}, {"line_water_particles", line_water_particles},
           {"line_water_bending", line_water_bending}, {"profiles_linear", profiles_linear}, {"profiles_lists_forces", profiles_lists_forces},
           {"profiles_fake_spring", profiles_fake_spring}, {"profiles_bungee", profiles_bungee},
           {"profiles_contacts", profiles_contacts}, {"profiles_friction", profiles_friction},
           {"profiles_direct", profiles_direct}, {"profiles_bending", profiles_bending},
           {"bending", bending}, {"bending_all_forces", bending_all_forces}, {"bending_deploy", bending_deploy},
           {"bending_contacts", bending_contacts}, {"implicit_contacts", implicit_contacts}, {"bdf2", bdf2}, {"bdf2_profiles", bdf2_profiles}, {"bdf2_line_water", bdf2_line_water}, {"link_damping", link_damping}, {"link_damping_ratio", link_damping_ratio},
           {"link_damping_profiles", link_damping_profiles}, {"link_damping_deploy", link_damping_deploy},
           {"link_damping_bdf2", link_damping_bdf2}, {"flow", flow}, {"flow_swept_only", flow_swept_only}, {"towed_path", towed_path}, {"spring", spring}, {"spring_unpinned", spring_unpinned}, {"pinned_set", pinned_set},
           {"bungee", bungee}, {"gravity_force", gravity_force}, {"drag", drag}, {"buoyancy", buoyancy}, {"wind", wind}, {"wind_everywhere", wind_everywhere},
           {"anchored_spring", anchored_spring}, {"anchored_bungee", anchored_bungee},
           {"fake_spring", fake_spring}, {"anchor_on_pinned", anchor_on_pinned}, {"undamped", undamped}, {"all_forces", all_forces},
           {"deploy_seed", deploy_seed}, {"deploy_along", deploy_along}, {"deploy_pinned", deploy_pinned},
           {"deploy_max_length", deploy_max_length}, {"deploy_weightless_segment", deploy_weightless_segment},
           {"deploy_exact_ties", deploy_exact_ties}, {"friction_ties", friction_ties},
           {"deploy_profile", deploy_profile}, {"deploy_reel_in", deploy_reel_in},
           {"deploy_line", deploy_line}, {"deploy_line_reel_in", deploy_line_reel_in}, {"deploy_line_ground", deploy_line_ground}, {"deploy_line_water", deploy_line_water},
           {"deploy_line_water_reel_in", deploy_line_water_reel_in}, {"deploy_line_seabed", deploy_line_seabed},
           {"deploy_line_seabed_dry", deploy_line_seabed_dry}, {"deploy_particles_water", deploy_particles_water},
           {"deploy_line_implicit", deploy_line_implicit}, {"deploy_line_reel_in_implicit", deploy_line_reel_in_implicit},
           {"deploy_line_undamped_implicit", deploy_line_undamped_implicit},
           {"deploy_line_water_implicit", deploy_line_water_implicit}, {"deploy_line_seabed_implicit", deploy_line_seabed_implicit},
           {"deploy_reel_in_ground", deploy_reel_in_ground},
           {"deploy_payload", deploy_payload}, {"deploy_payload_reel_in", deploy_payload_reel_in},
           {"deploy_payload_reel_in_ground", deploy_payload_reel_in_ground},
           {"single_particle", single_particle}, {"signed_zeros", signed_zeros}, {"groups_with_contacts", groups_with_contacts},
           {"ground_is_kernels", ground_is_kernels},
           {"driven_anchor", driven_anchor}, {"pin_towed", pin_towed}, {"stages_unfused", stages_unfused}, {"isa_choice", isa_choice})
