/* skein validate FILE: check a scenario and print it with every default filled in. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_validate(const cli_options *o, sk_error *err)
{
    sk_scenario s;
    memset(&s, 0, sizeof s);
    const sk_status rc = cli_load(o, &s, err);
    if (rc)
        return sk_exit_status(rc);
    cli_stability_report(&s, true);
    const size_t len = strlen(s.normalized_json);
    const bool newline = len > 0 && s.normalized_json[len - 1] == '\n';
    const bool ok = fputs(s.normalized_json, stdout) != EOF && (newline || putchar('\n') != EOF) &&
                    fflush(stdout) == 0;
    sk_scenario_free(&s);
    if (!ok)
        return sk_exit_status(sk_fail(err, SK_ERR_IO, "validate: cannot write to standard output"));
    return SK_EXIT_OK;
}
