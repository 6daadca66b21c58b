#ifndef MB_CHK_H
#define MB_CHK_H

#include <mpi.h>

/* mb_chk_call names the first call CHK saw fail since Go last read it
 * (mpi.go's kernelError), NULL when none did: the innermost call, as a
 * kernel that fails inside a helper returns through two CHKs. */
extern const char *mb_chk_call;

/* CHK returns an MPI call's error code from the calling function: MPI's
 * errors return (MPI_ERRORS_RETURN) and Go turns the code into an error
 * that names the call. Only the failure path touches mb_chk_call. */
#define CHK(call)                                 \
	do {                                      \
		int rc_ = (call);                 \
		if (rc_ != MPI_SUCCESS) {         \
			if (!mb_chk_call)         \
				mb_chk_call = #call; \
			return rc_;               \
		}                                 \
	} while (0)

#endif
