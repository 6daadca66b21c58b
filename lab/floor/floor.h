/* The body both floor programs run (lab/floor): MPI_Init, one 4-byte
 * Allreduce, a second's sleep for the sampler, MPI_Finalize. */
#include <mpi.h>
#include <unistd.h>

static inline int floor_run(void)
{
	int in = 1, out = 0;
	MPI_Init(NULL, NULL);
	MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	sleep(1);
	MPI_Finalize();
	return out > 0 ? 0 : 1;
}
