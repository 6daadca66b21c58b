//go:build cgo && !nompi

#include "mutant.h"

#ifdef MB_MUTANTS
/* Set once from MPIBENCH_MUTANT before MPI_Init (mpi/mutant.go). */
int mb_mutant = MB_MUT_NONE;
#endif
