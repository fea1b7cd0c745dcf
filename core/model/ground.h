/* Which ground a scenario has: the rigid plane of contacts (docs/model.md section 4) or a compliant seabed
 * whose forces act on lines (section 3.7). */
#ifndef SKEIN_MODEL_GROUND_H
#define SKEIN_MODEL_GROUND_H

#include "scenario/scenario_types.h"

static inline bool sk_scenario_rigid_ground(const sk_scenario *s) { return s->has_ground && !s->ground_compliant; }

static inline bool sk_scenario_compliant_ground(const sk_scenario *s) { return s->has_ground && s->ground_compliant; }

/* Whether a group is a line that something acts on: the water, or a compliant seabed. */
static inline bool sk_group_line_in_medium(const sk_scenario *s, const sk_group *g)
{
    return g->has_line && (s->water.present || sk_scenario_compliant_ground(s));
}

#endif
