/* skein validate FILE: check a scenario and print it with every default filled in. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_validate(const cli_options *o, sk_error *err)
{
    sk_scenario s;
    memset(&s, 0, sizeof s);
    const int rc = cli_load(o, &s, err);
    if (rc)
        return rc;
    const size_t len = strlen(s.normalized_json);
    const bool newline = len > 0 && s.normalized_json[len - 1] == '\n';
    const bool ok = fputs(s.normalized_json, stdout) != EOF && (newline || putchar('\n') != EOF) &&
                    fflush(stdout) == 0;
    sk_scenario_free(&s);
    if (!ok)
        return sk_fail(err, SK_EXIT_FAILURE, "validate: cannot write to standard output");
    return 0;
}
