/* skein: the command line. Parses, dispatches to a command, prints errors as one line. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

/* OpenMP's threads wait for the next parallel pass by spinning, unless told otherwise: side by side with
 * other runs (a parameter study's many small jobs) that spinning takes the cores from them (bench
 * concurrent: small runs side by side). Between passes a skein run has nothing for them to
 * spin for, so it asks them to sleep. libgomp reads the policy when it loads, before main: skein sets it and
 * starts itself again, once, unless the user chose a policy. */
static void wait_passively(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    /* not re-executed (no /proc): go on, spinning */
}

int main(int argc, char **argv)
{
    wait_passively(argv);
#ifdef SKEIN_MPI
    const int ranks = cli_mpi_start(&argc, &argv);
    const int rank = cli_mpi_rank();
#else
    const int rank = 0;
#endif
    cli_options o;
    sk_error err = {0};
    int rc = sk_exit_status(cli_parse(argc, argv, &o, &err));
#ifdef SKEIN_MPI
    if (rc == 0 && ranks > 1 && (o.command == CLI_RUN || o.command == CLI_DEFAULT))
        rc = cli_run_ranks(&o, &err);
    else
#endif
    /* Under mpirun the other commands run once, on rank 0. */
    if (rc == 0 && rank == 0) {
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
#ifdef SKEIN_MPI
    rc = cli_mpi_finish(rc, &err);
#endif
    if (rc != 0 && err.message[0])
        fprintf(stderr, "skein: %s\n", err.message);
    cli_options_free(&o);
    return rc;
}
