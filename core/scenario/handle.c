/* The scenario programs hold: an sk_scenario the library allocates, filled by the loaders, freed as one. */
#include <stdlib.h>

#include "scenario/scenario.h"

/* s when its loader returned SK_OK; else freed (the loader left it empty and filled err). */
static sk_scenario *allocated(sk_scenario *s, sk_status st)
{
    if (st == SK_OK)
        return s;
    free(s);
    return NULL;
}

static sk_scenario *blank(sk_error *err)
{
    sk_scenario *s = calloc(1, sizeof *s);
    if (!s)
        sk_fail(err, SK_ERR_NO_MEMORY, "out of memory for a scenario");
    return s;
}

sk_scenario *sk_scenario_open(const char *path, const sk_load_options *opt, sk_error *err)
{
    sk_scenario *s = blank(err);
    return s ? allocated(s, sk_scenario_load_file(path, opt, s, err)) : NULL;
}

sk_scenario *sk_scenario_parse(const char *text, const char *name, const sk_load_options *opt, sk_error *err)
{
    sk_scenario *s = blank(err);
    return s ? allocated(s, sk_scenario_load_string(text, name, opt, s, err)) : NULL;
}

sk_scenario *sk_scenario_slice_new(const sk_scenario *whole, size_t first, size_t count, sk_error *err)
{
    sk_scenario *s = blank(err);
    return s ? allocated(s, sk_scenario_slice(whole, first, count, s, err)) : NULL;
}

sk_scenario *sk_builder_build(sk_scenario_builder *b, const char *name, sk_error *err)
{
    sk_scenario *s = blank(err);
    if (!s) {
        sk_builder_destroy(b);
        return NULL;
    }
    return allocated(s, sk_builder_finish(b, name, s, err));
}

void sk_scenario_destroy(sk_scenario *s)
{
    if (!s)
        return;
    sk_scenario_free(s);
    free(s);
}
