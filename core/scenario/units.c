/* The SI units of every sweepable parameter (the keys of docs/scenario-format.md). */
#include <string.h>

#include "skein/scenario.h"

static const struct {
    const char *key; /* a vector's name stands for each of its components */
    const char *units;
} table[] = {
    {"mass", "kg"},
    {"damping", "1"}, /* fraction of velocity kept after one second */
    {"verlet_damping", "1"},
    {"start", "m"},
    {"end", "m"},
    {"velocity", "m/s"},
    {"link.stiffness", "N/m"},
    {"link.length", "m"},
    {"link.restitution", "1"},
    {"anchor.point", "m"},
    {"anchor.stiffness", "N/m"},
    {"anchor.length", "m"},
    {"anchor.damping", "1/s"},
    {"anchor.restitution", "1"},
    {"anchor.motion.amplitude", "m"},
    {"anchor.motion.omega", "rad/s"},
    {"anchor.motion.phase", "rad"},
    {"drag.k1", "N s/m"},
    {"drag.k2", "N s^2/m^2"},
    {"buoyancy.water_height", "m"},
    {"buoyancy.max_depth", "m"},
    {"buoyancy.density", "kg/m^3"},
    {"buoyancy.volume", "m^3"},
    {"deploy.velocity", "m/s"},
    {"deploy.max_length", "m"},
};

const char *sk_param_units(const char *key)
{
    const char *bracket = strchr(key, '[');
    const size_t len = bracket ? (size_t)(bracket - key) : strlen(key);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].key) == len && strncmp(table[i].key, key, len) == 0)
            return table[i].units;
    return NULL;
}
