/* MPI's start and end for the skein program: started only under mpirun, so that skein alone never touches
 * it; at the end every process leaves with the same exit status. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int world_rank;
static bool started;

int cli_mpi_start(int *argc, char ***argv)
{
    /* Open MPI's mpirun sets these in every process it starts (and Slurm's srun --mpi=pmix the second). */
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK"))
        return 1;
    int provided, size = 1;
    /* Only the main thread calls MPI: the OpenMP threads step packs between the calls. */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return 1;
    started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

int cli_mpi_rank(void) { return world_rank; }

int cli_mpi_finish(int status, sk_error *err)
{
    if (!started)
        return status;
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) {
        /* The worst status wins: a failure anywhere is every process's. The message is printed once, by the
         * lowest rank that has one (rank 0 for what every rank finds alike: a bad option, an invalid
         * scenario; the failing rank for its own failure), naming the rank of a failure. */
        int worst = status, has = err->message[0] ? world_rank : size, speaker = size;
        MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(&has, &speaker, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (speaker != world_rank) {
            err->message[0] = '\0';
        } else if (status == SK_EXIT_FAILURE || status == SK_EXIT_USAGE) {
            char line[sizeof err->message];
            snprintf(line, sizeof line, "rank %d: %.740s", world_rank, err->message);
            memcpy(err->message, line, sizeof line);
        }
        status = worst;
        /* printed before any process leaves: mpirun ends the others as soon as one exits with a failure */
        if (err->message[0]) {
            fprintf(stderr, "skein: %s\n", err->message);
            fflush(stderr);
            err->message[0] = '\0';
        }
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return status;
}
