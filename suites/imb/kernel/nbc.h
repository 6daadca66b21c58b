/* Timed loops of IMB-NBC (Intel MPI Benchmarks 2021.11, src_c/IMB_bcast.c
 * IMB_ibcast and IMB_ibcast_pure, and the same pair in IMB_allgather.c ...
 * IMB_barrier.c).
 *
 * A pure loop times, per repetition, the non-blocking call and its
 * MPI_Wait. An overlapped loop times, per repetition, the call, the CPU
 * work (a calibrated 10x10 matrix-vector product, IMB_cpu_exploit.c) and
 * the MPI_Wait as t_ovrl, and the CPU work alone as t_CPU. Ibarrier times
 * its whole loop at once and has no barrier between repetitions, as IMB
 * does; the others run `sync` MPI_Barrier calls after every repetition,
 * outside the timed region (IMB 2021's -sync on). The root starts at 0
 * and moves by root_shift after every repetition (-root_shift on: 1). */
#ifndef MB_NBC_H
#define MB_NBC_H
#include <mpi.h>

enum mb_nbc_kind {
	MB_IBCAST = 0,
	MB_IALLGATHER,
	MB_IALLGATHERV,
	MB_IGATHER,
	MB_IGATHERV,
	MB_ISCATTER,
	MB_ISCATTERV,
	MB_IALLTOALL,
	MB_IALLTOALLV,
	MB_IREDUCE,
	MB_IREDUCE_SCATTER,
	MB_IALLREDUCE,
	MB_IBARRIER,
	MB_NBC_NKINDS
};

typedef struct {
	MPI_Comm comm;
	int kind;
	void *sbuf;     /* send buffer (root's buffer for Ibcast) */
	void *rbuf;     /* receive buffer */
	int count;      /* items per process: bytes, or floats for reductions */
	int *counts;    /* per-rank counts: v-variants and Ireduce_scatter */
	int *displs;    /* per-rank displacements: v-variants */
	int nrep;       /* repetitions */
	int nbarr;      /* barriers before the loop (N_BARR) */
	int sync;       /* barriers after every repetition (not Ibarrier) */
	int imb_barrier; /* IMB's barrier for nbarr and sync (imbbarrier.h) */
	long long cpu;  /* CPU work per repetition in kernel passes; < 0: pure loop */
	int root_shift; /* ranks the root moves after every repetition (not persist) */
	int persist;    /* IMB-MPI4: one persistent request (*_init) started every repetition */
	int s_iter, r_iter;       /* -off_cache: slots of the send and receive buffers (0: off) */
	long long s_offs, r_offs; /* -off_cache: bytes from one slot to the next */
} mb_nbc;

/* mb_nbc_run runs the loop of k and stores the time per repetition (t_pure,
 * or t_ovrl when k->cpu >= 0) in *t and the CPU work's time per repetition
 * in *t_cpu (0 in a pure loop). With chk = 1 every repetition carries this
 * rank's content of that repetition (pattern.h) into poisoned receive
 * buffers and *bad counts the wrong items; its times are not benchmark
 * data. It returns MPI_SUCCESS or the first MPI error code. */
int mb_nbc_run(const mb_nbc *k, int chk, double *t, double *t_cpu, long long *bad);

/* mb_nbc_cpu_rate calibrates the CPU work once: kernel passes per second
 * of undisturbed CPU time, and the Mflop/s that gives. */
double mb_nbc_cpu_rate(double *mflops);
void mb_nbc_cpu_forget(void);

/* mb_nbc_persist_api names the persistent collectives this build calls:
 * "MPI" (MPI 4.0's MPI_Bcast_init ...), "MPIX" (Open MPI's pcollreq
 * extension, MPIX_Bcast_init ...) or "" (none: a persistent loop fails). */
const char *mb_nbc_persist_api(void);

/* mb_nbc_cpu runs n passes of the CPU work (tests and calibration). */
void mb_nbc_cpu(long long n);
#endif
