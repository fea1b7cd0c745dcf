/* skein: the command line. Parses, dispatches to a command, prints errors as one line. */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    cli_options o;
    sk_error err = {0};
    int rc = sk_exit_status(cli_parse(argc, argv, &o, &err));
    if (rc == 0) {
        switch (o.command) {
        case CLI_HELP:
            fputs(cli_usage, stdout);
            break;
        case CLI_VERSION:
            printf("skein %s\n", sk_version());
            break;
        case CLI_DEFAULT:
        case CLI_RUN:
            rc = cli_run(&o, &err);
            break;
        case CLI_VALIDATE:
            rc = cli_validate(&o, &err);
            break;
        case CLI_INFO:
            rc = cli_info(&o, &err);
            break;
        case CLI_COMPARE:
            rc = cli_compare(&o, &err);
            break;
        }
    }
    if (rc != 0 && err.message[0])
        fprintf(stderr, "skein: %s\n", err.message);
    cli_options_free(&o);
    return rc;
}
