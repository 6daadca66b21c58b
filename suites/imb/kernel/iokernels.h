/* MPI-IO kernels of mpibench (IMB-IO, IMB 3.0 section 4.2.4 and 4.2.5).
 *
 * Like kernels.h, every timed region is one C call: the N_BARR barriers on
 * the active communicator, MPI_Wtime, the transfers, the completion
 * (MPI_File_sync for writes) and MPI_Wtime again. The MPI-IO function of a
 * benchmark is chosen before the timer starts. Files are opened and their
 * views set by package mpi (mpi/io.h).
 */
#ifndef MPIBENCH_IOKERNELS_H
#define MPIBENCH_IOKERNELS_H

#include <mpi.h>
#include "io.h"

/* How a transfer positions itself in the file (section 4.1). */
enum mb_io_access {
	MB_IO_INDV = 0, /* individual file pointer: _indv and _priv */
	MB_IO_EXPL,     /* explicit offsets: _at */
	MB_IO_SHARED    /* shared file pointer: _shared, _ordered for collectives */
};

typedef struct {
	MPI_File fh;
	MPI_Comm comm;      /* active communicator: the barriers */
	int access;         /* enum mb_io_access */
	int collective;     /* C_ benchmarks: _all, _at_all, _ordered (split forms) */
	int write;          /* 1 write, 0 read */
	int aggregate;      /* writes: 1 one MPI_File_sync after all transfers, 0 after each */
	void *buf;
	int count;          /* bytes per transfer */
	long long bufstep;  /* bytes buf advances per transfer (0: the same buffer) */
	MPI_Offset offset;  /* explicit offsets: the first transfer's offset */
	MPI_Offset stride;  /* explicit offsets: offset step per transfer */
	int nrep;
	int nbarr;
	int short_ok;       /* -check reads: a short read is left to the check, which counts the bytes missing */
	/* check runs only: */
	int chk_rank;       /* the rank whose content (check.h) a write sends */
	void *save;         /* reads: nrep*count bytes, where read i's data is kept */
} mb_io;

/* mb_io_run times nrep blocking transfers and stores the time per transfer
 * in *t. mb_io_irun does the same with the non-blocking (i- or split
 * collective) form, running CPU_Exploit between the start and the end of
 * every transfer. Both return MPI_SUCCESS or the first error code, naming
 * the failed call in *call. */
int mb_io_run(const mb_io *k, double *t, const char **call);
int mb_io_irun(const mb_io *k, double *t, const char **call);

/* A transfer that moved fewer bytes than asked makes mb_io_run and
 * mb_io_irun return MB_IO_SHORT; after it or a failed transfer
 * mb_io_failure gives the bytes moved (-1 for a failed call) and the byte
 * offset where it started (explicit offsets) or of the file pointer after
 * it (-1 unknown). */
enum { MB_IO_SHORT = -1 };
void mb_io_failure(long long *got, long long *pos);

/* mb_io_check and mb_io_icheck run the same loops with results checking
 * (their time is no benchmark data): before transfer i a write buffer is
 * filled with chk_rank's content of repetition i (check.h), a read buffer
 * poisoned; after transfer i a read buffer is copied to save + i*count.
 * The caller verifies the file or the saved reads. */
int mb_io_check(const mb_io *k, double *t, const char **call);
int mb_io_icheck(const mb_io *k, double *t, const char **call);

/* mb_io_open_close times nrep MPI_File_open / 1-byte MPI_File_write /
 * MPI_File_close rounds on comm (Open_Close, section 4.2.4.10). */
int mb_io_open_close(MPI_Comm comm, const char *name, int nrep, int nbarr, double *t, const char **call);

/* CPU_Exploit (section 4.2.5.1): mb_cpu_calibrate finds the repetition
 * count of the matrix-vector kernel that runs target seconds of CPU time
 * (within 1 % where the node lets it), and returns the time that count
 * takes undisturbed (t_CPU, the calling thread's CPU time) and its Mflop/s;
 * mb_cpu_exploit runs that count. */
double mb_cpu_calibrate(double target, double *mflops);
void mb_cpu_exploit(void);

#endif
