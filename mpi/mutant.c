//go:build cgo && !nompi

#include "mutant.h"
#include "chk.h"

#ifdef MB_MUTANTS
/* Set once from MPIBENCH_MUTANT before MPI_Init (mpi/mutant.go). */
int mb_mutant = MB_MUT_NONE;

/* mb_mutant_mpi_error: rank 1 of comm sends to rank size, which comm does
 * not have; MPI_ERRORS_RETURN (inherited from MPI_COMM_WORLD) makes it
 * return MPI_ERR_RANK. It names the call for CHK, whose own text would be
 * the macro's. */
int mb_mutant_mpi_error(MPI_Comm comm)
{
	int rank, size;
	char b = 0;
	if (!MUTANT(MB_MUT_MPI_ERROR) || comm == MPI_COMM_NULL)
		return MPI_SUCCESS;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (rank != 1)
		return MPI_SUCCESS;
	if (!mb_chk_call)
		mb_chk_call = "MPI_Send";
	return MPI_Send(&b, 1, MPI_BYTE, size, 0, comm);
}
#endif

#ifdef MB_MUTANTS
#include <time.h>

/* Set from MPIBENCH_SKEW_US (mpi/mutant.go); seconds. */
double mb_skew_delay = 0;

/* mb_mutant_skew: rank 1 of comm sleeps mb_skew_delay seconds, giving
 * the CPU to the other ranks of an oversubscribed test run. */
void mb_mutant_skew(MPI_Comm comm)
{
	int rank;
	struct timespec d;
	if (!MUTANT(MB_MUT_SKEW) || comm == MPI_COMM_NULL)
		return;
	MPI_Comm_rank(comm, &rank);
	if (rank != 1)
		return;
	d.tv_sec = (time_t)mb_skew_delay;
	d.tv_nsec = (long)((mb_skew_delay - (double)d.tv_sec) * 1e9);
	nanosleep(&d, NULL);
}
#endif

#ifdef MB_MUTANTS
/* Set from MPIBENCH_CLOCK_OFFSET_S and MPIBENCH_CLOCK_DRIFT (mpi/mutant.go). */
double mb_clock_offset = 0, mb_clock_drift = 0;

static int clock_rank = -1;
static double clock_t0;

/* monotonic is CLOCK_MONOTONIC in seconds: under the clock mutant the
 * true clock of every rank, the same on all the ranks of a node (Open
 * MPI's MPI_Wtime counts from each process's MPI_Init), so that the test
 * knows the true offset. */
static double monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mb_mutant_wtime: MPI_Wtime, and under the clock mutant the monotonic
 * clock, on world rank 1 with the offset and the drift since its first
 * call. */
double mb_mutant_wtime(void)
{
	double t;
	if (!MUTANT(MB_MUT_CLOCK))
		return MPI_Wtime();
	t = monotonic();
	if (clock_rank < 0) {
		MPI_Comm_rank(MPI_COMM_WORLD, &clock_rank);
		clock_t0 = t;
	}
	return clock_rank == 1 ? t + mb_clock_offset + mb_clock_drift * (t - clock_t0) : t;
}

/* mb_mutant_clock_truth is the true (monotonic) time of this rank's
 * reading local of mb_mutant_wtime, and *rate its derivative: local
 * itself and 1 but on world rank 1. */
double mb_mutant_clock_truth(double local, double *rate)
{
	*rate = 1;
	if (clock_rank != 1)
		return local;
	*rate = 1 / (1 + mb_clock_drift);
	return (local - mb_clock_offset + mb_clock_drift * clock_t0) / (1 + mb_clock_drift);
}
#endif

double mb_wtime(void) { return MB_WTIME(); }
