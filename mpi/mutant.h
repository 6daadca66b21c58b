/* Test-only broken kernels ("mutants") that prove the data checks.
 *
 * A normal build defines MUTANT(m) as 0, so every mutant branch is dead
 * code the compiler removes: no mutant is reachable in a release binary.
 * Only a build with the Go tag "mutant" (mpi/mutant.go) defines MB_MUTANTS
 * and reads the mutant to play from MPIBENCH_MUTANT at start-up. The
 * mutation tests build such a binary and require -check (and b_eff's and
 * b_eff_io's own data checks) to report defects for every mutant at every
 * length, and none for the real kernels.
 */
#ifndef MB_MUTANT_H
#define MB_MUTANT_H

#include <mpi.h>

enum mb_mutant_id {
	MB_MUT_NONE = 0,
	MB_MUT_WRONG_RANK,   /* point-to-point: send another rank's data (echo instead of own) */
	MB_MUT_NO_ROTATION,  /* rooted collectives: the root does not rotate (IMB Bcast/Reduce; IMB-NBC's -root_shift on; OSU's -k rotate): it stays at 0 */
	MB_MUT_SHORT_REDUCE, /* reductions: one element short */
	MB_MUT_DISPL,        /* Allgatherv/Alltoallv: wrong displacement */
	MB_MUT_FIRST_ONLY,   /* every kernel: communicates in its first repetition only */
	MB_MUT_RMA_OFFSET,   /* Put/Get/Accumulate to the wrong target offset */
	MB_MUT_IO_OFFSET,    /* IMB-IO: write at the wrong file offset */
	MB_MUT_BEFF_PEER,    /* b_eff: wrong neighbour or wrong data */
	MB_MUT_BEFFIO_OFFSET,/* b_eff_io: write at the wrong file offset */
	MB_MUT_MPI_ERROR,    /* every timed loop: rank 1 makes an MPI call that fails */
	MB_MUT_OSU_SHORT,    /* OSU point-to-point: the sender sends one element too few */
	MB_MUT_OSU_COLL_SHORT, /* OSU collectives: every call carries one element fewer */
	MB_MUT_NO_OFFSET,    /* -off_cache: the MPI calls use slot 0 in every repetition */
	MB_MUT_CLOCK,        /* the window clock (MB_WTIME) of world rank 1 has an offset and a drift */
	MB_MUT_OSU_STALE,    /* OSU point-to-point: in every repeat but the last of -c's u+1, the sender sends the previous iteration's content */
	MB_MUT_FIXED_ROOT,   /* OSU rooted collectives: -k fixed:N ignored, the root is 0 */
	MB_MUT_SKEW,         /* collectives (window, IMB 2021 loops: before each call; IMB 3.0, SKaMPI: before each loop, repetition) rank 1 sleeps */
	MB_MUT_OSU_PERSIST_BUF, /* OSU _persistent tests: every request of a window made on buffer 0 (-b multiple lost) */
	MB_MUT_OSU_NBR_REVERSE, /* OSU neighbourhood tests: the graph made with the sources and destinations in reverse order */
	MB_MUT_OSU_W_DISPL,     /* OSU alltoallw kinds: displacements in elements, not bytes */
	MB_MUT_OSU_PCOLL_BUF,   /* OSU _persistent collectives: the request made on a scratch receive buffer, not the one the repetitions use */
	MB_MUT_OSU_ACC_OP,      /* OSU atomics: MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op with MPI_REPLACE for MPI_SUM */
	MB_MUT_OSU_ACC_SHORT,   /* OSU atomics: MPI_Accumulate and MPI_Get_accumulate carry one element fewer */
	MB_MUT_OSU_CAS_SWAP,    /* OSU atomics: MPI_Compare_and_swap with its origin and compare buffers swapped */
	MB_MUT_MT_SWAP_COMM,    /* IMB-MT: on odd world ranks every thread runs on the next thread's communicator */
	MB_MUT_RMA_HALF,        /* IMB-RMA Exchange: the second block moved where the first goes (the arithmetic timed and checked runs share) */
	MB_MUT_COUNT
};

#ifdef MB_MUTANTS
extern int mb_mutant;
#define MUTANT(m) (mb_mutant == (m))
int mb_mutant_mpi_error(MPI_Comm comm);
#else
#define MUTANT(m) 0
#endif

/* MB_WTIME() is the clock of clock synchronisation and of the window loop
 * (clocksync.c, window.c; mpi.Wtime in Go): MPI_Wtime, and under the clock
 * mutant on world rank 1 MPI_Wtime + mb_clock_offset + mb_clock_drift
 * times the seconds since its first reading (MPIBENCH_CLOCK_OFFSET_S,
 * MPIBENCH_CLOCK_DRIFT): a clock far off and running at another rate, for
 * the test that the synchronisation recovers it. */
#ifdef MB_MUTANTS
extern double mb_clock_offset, mb_clock_drift;
double mb_mutant_wtime(void);
double mb_mutant_clock_truth(double local, double *rate);
#define MB_WTIME() mb_mutant_wtime()
#else
#define MB_WTIME() MPI_Wtime()
#endif

/* mb_wtime is MB_WTIME for Go (mpi.Wtime). */
double mb_wtime(void);

/* MUTANT_MPI_ERROR(comm) is MPI_SUCCESS, or under the mpi-error mutant
 * the error of a real MPI call that rank 1 of comm makes with an invalid
 * argument: the entry of every timed loop returns it as it would any
 * failed call (CHK), so a test can prove that such a failure reaches the
 * user with its case (suite, benchmark, length, processes, rank). */
#ifdef MB_MUTANTS
#define MUTANT_MPI_ERROR(comm) mb_mutant_mpi_error(comm)
#else
#define MUTANT_MPI_ERROR(comm) MPI_SUCCESS
#endif

/* MUTANT_SKEW(comm): under the skew mutant, rank 1 of comm sleeps
 * mb_skew_delay seconds (MPIBENCH_SKEW_US) before a collective call of a
 * loop with a start per repetition, before IMB 3.0's loop of back-to-back
 * calls and before SKaMPI's collective pattern (its barrier): a
 * deliberately skewed rank, for the tests that barrier, none and window
 * timing react to it as they should. */
#ifdef MB_MUTANTS
extern double mb_skew_delay;
void mb_mutant_skew(MPI_Comm comm);
#define MUTANT_SKEW(comm) mb_mutant_skew(comm)
#else
#define MUTANT_SKEW(comm) ((void)0)
#endif

#endif
