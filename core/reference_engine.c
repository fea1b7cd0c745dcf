/* Temporary: replaced by the reference engine. */
#include "engine_impl.h"

sk_engine *sk_reference_engine_create(const sk_scenario *s, const sk_engine_options *opt,
                                      sk_error *err)
{
    (void)s;
    (void)opt;
    sk_fail(err, SK_EXIT_FAILURE, "reference engine not built yet");
    return NULL;
}
