/* How scenario files spell the enumerations: integrators, resolvers, gravity modes, link, anchor and insertion types. */
#include "scenario/scenario_impl.h"

const char *const sk_scn_integrator_names[] = {"cyclone", "euler", "symplectic", "verlet", "implicit", NULL};
const char *const sk_scn_implicit_scheme_names[] = {"euler", "bdf2", NULL};
const char *const sk_scn_resolver_names[] = {"cyclone", "direct", NULL};
const char *const sk_scn_gravity_as_names[] = {"acceleration", "force", NULL};
const char *const sk_scn_link_names[] = {"spring", "bungee", "rod", "cable", NULL};
const char *const sk_scn_anchor_names[] = {"anchored_spring", "anchored_bungee", "fake_spring", "rod",
                                           "cable",           "pin",             NULL};
const char *const sk_scn_insert_names[] = {"seed", "along", NULL};
