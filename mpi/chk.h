#ifndef MB_CHK_H
#define MB_CHK_H

#include <mpi.h>

/* CHK returns an MPI call's error code from the calling function: MPI's
 * errors return (MPI_ERRORS_RETURN) and Go turns the code into an error. */
#define CHK(call)                       \
	do {                            \
		int rc_ = (call);       \
		if (rc_ != MPI_SUCCESS) \
			return rc_;     \
	} while (0)

#endif
