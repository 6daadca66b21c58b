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

enum mb_mutant_id {
	MB_MUT_NONE = 0,
	MB_MUT_WRONG_RANK,   /* point-to-point: send another rank's data (echo instead of own) */
	MB_MUT_NO_ROTATION,  /* Bcast/Reduce: the root does not rotate */
	MB_MUT_SHORT_REDUCE, /* reductions: one element short */
	MB_MUT_DISPL,        /* Allgatherv/Alltoallv: wrong displacement */
	MB_MUT_FIRST_ONLY,   /* every kernel: communicates in its first repetition only */
	MB_MUT_RMA_OFFSET,   /* Put/Get/Accumulate to the wrong target offset */
	MB_MUT_IO_OFFSET,    /* IMB-IO: write at the wrong file offset */
	MB_MUT_BEFF_PEER,    /* b_eff: wrong neighbour or wrong data */
	MB_MUT_BEFFIO_OFFSET,/* b_eff_io: write at the wrong file offset */
	MB_MUT_COUNT
};

#ifdef MB_MUTANTS
extern int mb_mutant;
#define MUTANT(m) (mb_mutant == (m))
#else
#define MUTANT(m) 0
#endif

#endif
