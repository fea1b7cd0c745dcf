/* The SI units of every sweepable parameter, from SK_ROPE_PARAMS (model/params.h). */
#include <string.h>

#include "model/params.h"
#include "scenario/scenario.h"

static const struct {
    const char *key; /* a vector's name stands for each of its components */
    const char *units;
} table[] = {
#define UNITS(kind, member, key, units, range, need) {key, units},
    SK_ROPE_PARAMS(UNITS)
#undef UNITS
};

const char *sk_param_units(const char *key)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) /* a key with an index of its own */
        if (strcmp(table[i].key, key) == 0)
            return table[i].units;
    const char *bracket = strchr(key, '[');
    const size_t len = bracket ? (size_t)(bracket - key) : strlen(key);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].key) == len && strncmp(table[i].key, key, len) == 0)
            return table[i].units;
    return NULL;
}
