/* b_eff_io kernels of mpibench: opening and closing the benchmark files,
 * the file views of the five pattern types, and the repeated MPI-IO call
 * of one pattern with its time check and MPI_File_sync, all in C. */
#ifndef MPIBENCH_BEFFIO_H
#define MPIBENCH_BEFFIO_H

#include <mpi.h>

enum { MB_BEFFIO_WRITE = 0, MB_BEFFIO_REWRITE, MB_BEFFIO_READ };
enum { MB_BEFFIO_SCATTER = 0, MB_BEFFIO_SHARED, MB_BEFFIO_SEPARATED,
	MB_BEFFIO_SEGMENTED, MB_BEFFIO_SEGCOLL };

/* mb_beffio_open opens name on MPI_COMM_SELF (self != 0, the separated
 * files of type 2) or on comm, between two barriers of comm; *t is the
 * time from the first barrier to the second. */
int mb_beffio_open(MPI_Comm comm, int self, const char *name, int access,
	MPI_File *fh, double *t);

/* mb_beffio_close closes the file and waits for comm; *t as above. */
int mb_beffio_close(MPI_Comm comm, MPI_File *fh, double *t);

/* mb_beffio_view sets the view of one pattern: for type 0 a filetype in
 * which this rank owns l bytes at rank*l of every n*l bytes from disp;
 * for the other types plain bytes from disp. */
int mb_beffio_view(MPI_File fh, int type, int n, int rank, int l,
	MPI_Offset disp);

typedef struct {
	MPI_File fh;
	MPI_Comm comm;   /* the partition */
	int type;        /* MB_BEFFIO_SCATTER ... */
	int write;       /* 1 write (and sync), 0 read */
	char *buf;
	int len;         /* L: bytes per call */
	long long reps;  /* > 0: exactly reps calls (size-driven) */
	double sched;    /* reps == 0: the pattern's scheduled seconds */
	long long maxreps; /* reps == 0: at most this many calls (the -disk bound); 0: no bound */
	int l;           /* l: the chunk on disk, the unit of the data check's marks */
	int rank;        /* rank in comm, and the pattern number: the marks' content */
	int pattern;
	const char *dir; /* writes: the directory whose file system is watched */
	long long room;  /* writes: bytes one call moves on the partition */
} mb_beffio_pat;

/* What a pattern's loop reports. On a failure the loop stops at once: a
 * failed MPI call (its code returned), a transfer of fewer bytes than
 * asked (MB_BEFFIO_SHORT) or a file system with less than room bytes free
 * after writes (MB_BEFFIO_FULL); call, pos, got and free say where. */
typedef struct {
	long long done;    /* calls made */
	double t;          /* time from the first barrier to the last */
	long long defects; /* reads: chunks whose marks differ from the writer's */
	const char *call;  /* failure: the MPI call */
	long long pos;     /* failure: byte offset of the file pointer after the call, -1 unknown */
	long long got;     /* short transfer: bytes moved */
	long long free;    /* full: bytes free */
} mb_beffio_out;

enum { MB_BEFFIO_SHORT = -1, MB_BEFFIO_FULL = -2 };

/* mb_beffio_pattern: barrier, the calls, for writes a barrier and
 * MPI_File_sync, a barrier. Writes put rank- and call-dependent marks
 * (mpi/pattern.h) at both ends of every chunk of l bytes; reads verify
 * them against what the writer of the same call put there. */
int mb_beffio_pattern(const mb_beffio_pat *p, mb_beffio_out *o);

#endif
