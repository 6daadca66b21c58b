/* Messages of 2 GiB and more: counts beyond a C int.
 *
 * MPI-3 counts are int, so one call moves at most INT_MAX items. An
 * mb_big describes one message of n items (bytes, or floats for the
 * reductions) the way this library can pass it:
 *
 *   MB_BIG_INT    n fits in an int: the plain call (MPI_Send, MPI_Reduce).
 *   MB_BIG_LARGE  MPI-4's large-count calls (MPI_Send_c, ...; MPI_Count
 *                 counts), where mpi.h says MPI_VERSION >= 4 (MPICH 4.0).
 *   MB_BIG_DERIVED a derived datatype of large elements (Open MPI 4.1,
 *                 MPI 3.1): the count becomes the number of elements.
 *
 * The derived type, for bytes: n = q·B + rem with a block of B bytes
 * (MPI_Type_contiguous); rem = 0 sends q blocks, else one element of the
 * struct {q blocks at 0, rem MPI_BYTEs at q·B} (MPI_Type_create_struct,
 * the construction of BigMPI's MPIX_Type_contiguous_x). One message, one
 * call, as the benchmark defines it: a second message for the remainder
 * would add a message's latency (a second collective for Bcast) to every
 * repetition. Type signatures are bytes on both sides, so sender and
 * receiver match whatever the element boundaries.
 *
 * For the reductions the element type must be the reduction's: MPI's
 * predefined operations (MPI_SUM) are defined on predefined datatypes
 * only (MPI 3.1, section 5.9.2), so a contiguous type of B floats needs a
 * user-defined operation (MPI_Op_create, commutative, summing the
 * elements' floats), and a struct of blocks and loose floats would be a
 * single element the library cannot split into segments. So the q blocks
 * go in one call with the user operation, and the rem < B floats after
 * them in a second call with MPI_FLOAT and MPI_SUM. Up to 8 GiB of
 * floats (2^31 - 1 of them) the float count fits in an int and the
 * reductions stay plain calls: -msglog 32's 4 GiB never needs the split.
 */
#ifndef MB_BIGCOUNT_H
#define MB_BIGCOUNT_H

#include <mpi.h>

#if MPI_VERSION >= 4
#define MB_HAVE_LARGE_COUNT 1
#else
#define MB_HAVE_LARGE_COUNT 0
#endif

enum mb_big_mode { MB_BIG_INT = 0, MB_BIG_LARGE, MB_BIG_DERIVED };

typedef struct {
	int mode;           /* enum mb_big_mode */
	long long n;        /* items of the message */
	MPI_Datatype type;  /* the datatype passed: MPI_BYTE/MPI_FLOAT or the derived one */
	long long count;    /* the count passed with type */
	MPI_Op op;          /* reductions: MPI_SUM, or the user sum over type */
	long long rest;     /* reductions, derived: floats after the blocks, 0 if none */
	long long rest_off; /* their byte offset */
	int owned;          /* type and op were created here: mb_big_free frees them */
} mb_big;

/* Test hooks (the mutant build sets them from the environment, see
 * bigcount_mutant.go): items beyond which an int count is not used,
 * INT_MAX; the derived block in items, 2^20; force 1 takes the derived
 * type even where MPI-4 calls exist, so both MPIs test it. */
extern long long mb_big_limit;
extern long long mb_big_block;
extern int mb_big_force;

/* mb_big_mode_of is the mode n items (floats if floats) are passed in. */
int mb_big_mode_of(long long n, int floats);

/* mb_big_make describes n items; floats selects MPI_FLOAT/MPI_SUM. */
int mb_big_make(mb_big *m, long long n, int floats);
void mb_big_free(mb_big *m);

enum mb_big_kind { MB_BIG_PINGPONG = 0, MB_BIG_PINGPING, MB_BIG_SENDRECV, MB_BIG_EXCHANGE,
		   MB_BIG_BCAST, MB_BIG_REDUCE, MB_BIG_ALLREDUCE };

/* mb_bigkernel is mb_kernel (kernels.h) with a 64-bit count. PingPong and
 * Bcast use sbuf alone (a rank receives into what it sends from: one
 * buffer of n bytes per rank instead of two); the others as kernels.c. */
typedef struct {
	MPI_Comm comm;
	int kind;         /* enum mb_big_kind */
	void *sbuf, *rbuf;
	long long n;      /* items per process: bytes, or floats for reductions */
	int nrep, root0, nbarr;
	int t21;          /* IMB 2021.11's collectives (kernels.c, COLL) */
	int sync, root_shift;
} mb_bigkernel;

/* mb_big_run is mb_run (kernels.h) for mb_bigkernel; chk 1 is the check
 * mode of mb_run_check, counting wrong items into *bad. */
int mb_big_run(const mb_bigkernel *k, double *t, int chk, long long *bad);

/* mb_bigosu is OSU 7.4's osu_latency, osu_bw and osu_bibw (mpi/osu.h,
 * osu.c) at n bytes of MPI_CHAR through mb_big. osu_latency keeps one
 * buffer per rank (sbuf: each rank receives into what it sends from),
 * osu_bw one big buffer per rank (the sender's sbuf, the receiver's rbuf;
 * the one-byte ack goes through a byte of its own), osu_bibw two. */
enum mb_bigosu_kind { MB_BIGOSU_LATENCY = 0, MB_BIGOSU_BW, MB_BIGOSU_BIBW };

typedef struct {
	MPI_Comm comm;
	int kind;          /* enum mb_bigosu_kind */
	void *sbuf, *rbuf;
	long long n;       /* bytes of a message */
	int iters, skip;   /* OSU's iterations and warm-ups */
	int window;        /* osu_bw, osu_bibw: -W */
	int vwarm;         /* -u with -c: untimed repetitions before the timed one */
	MPI_Request *reqs; /* 2 * window */
	MPI_Status *stats; /* window: Waitall's statuses, as OSU's reqstat */
	double *samples;   /* iters seconds, each timed iteration's; NULL: none */
	double time;       /* seconds of the timed iterations on this rank */
	long long errors;  /* -c: iterations received wrong on this rank */
	int mode;          /* the enum mb_big_mode the messages went in */
} mb_bigosu;

/* mb_bigosu_run runs one size; chk 1 is OSU's -c (osu.h). */
int mb_bigosu_run(mb_bigosu *k, int chk);

/* mb_bigcoll is OSU 7.4's osu_bcast, osu_reduce and osu_allreduce
 * (osucoll.h has the loop: each repetition timed alone, the barrier
 * after the time, before it for Reduce) at n items through mb_big:
 * Bcast n bytes of MPI_CHAR from root 0 into rbuf, every rank's one
 * buffer; Reduce and Allreduce n floats of sbuf into rbuf with MPI_SUM
 * (rbuf only significant at Reduce's roots). */
enum mb_bigcoll_kind { MB_BIGCOLL_BCAST = 0, MB_BIGCOLL_REDUCE, MB_BIGCOLL_ALLREDUCE };

typedef struct {
	MPI_Comm comm;
	int kind;          /* enum mb_bigcoll_kind */
	void *sbuf, *rbuf;
	long long n;       /* bytes (Bcast) or floats (the reductions) */
	int iters, skip;   /* OSU's iterations and warm-ups */
	int vwarm;         /* -u with -c: untimed calls before each repetition */
	int root;          /* Reduce: the root; -1: rotate (i mod nprocs) */
	double *samples;   /* iters seconds, each timed repetition's; NULL: none */
	double time;       /* seconds of the timed repetitions on this rank */
	long long errors;  /* -c: items received wrong on this rank */
	int mode;          /* the enum mb_big_mode the messages went in */
} mb_bigcoll;

/* mb_bigcoll_run runs skip + iters repetitions; chk 1 is OSU's -c
 * (osucoll.h: -u calls, then this rank's content into poisoned buffers,
 * a barrier, the call, the check). */
int mb_bigcoll_run(mb_bigcoll *k, int chk);

#endif
