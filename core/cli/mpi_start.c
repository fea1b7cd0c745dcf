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
    /* Open MPI's launcher sets this in every process it starts. */
    if (!getenv("OMPI_COMM_WORLD_SIZE"))
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
        /* The worst status wins: a failure anywhere is every process's. The message is printed once: by rank
         * 0 when it has one of its own (the same everywhere: a bad option, an invalid scenario), else by
         * each process whose failure it is, naming its rank. */
        int worst = status, first = status;
        MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
        const bool mine = err->message[0] && (world_rank == 0 || (status != 0 && first == 0));
        if (!mine) {
            err->message[0] = '\0';
        } else if (status == SK_EXIT_FAILURE || status == SK_EXIT_USAGE) {
            char line[sizeof err->message];
            snprintf(line, sizeof line, "rank %d: %.740s", world_rank, err->message);
            memcpy(err->message, line, sizeof line);
        }
        status = worst;
    }
    MPI_Finalize();
    return status;
}
