/* A PMPI library for LD_PRELOAD (lab/growth.sh): it times the MPI calls
 * the runs of lab/growth.sh make (point to point, the collectives, the
 * waits and tests, MPI_Init_thread, MPI_Comm_split) and prints, at
 * MPI_Finalize on rank 0, the wall and CPU time since the library was
 * loaded, the wall and CPU time inside those calls and the rank's peak
 * resident memory (VmHWM).
 * Calls it does not wrap count as outside: "outside" is an upper bound of
 * the time mpibench spends outside MPI. Not part of mpibench. */
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <stdio.h>
#include <time.h>
static double t0, inside, cpu_inside;
static long ncalls;
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }
static double cpu(void) { struct timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }
__attribute__((constructor)) static void start(void) { t0 = now(); }
/* hwm is VmHWM of /proc/self/status in KiB, -1 where unreadable. */
static long hwm(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	fclose(f);
	return kib;
}
/* The process's CPU time is taken too: on oversubscribed cores a rank's
 * wall time outside MPI also counts the time it waited for a core. */
#define TIMED(call) do { double t_ = now(), c_ = cpu(); int rc_ = call; inside += now() - t_; cpu_inside += cpu() - c_; \
	ncalls++; return rc_; } while (0)
int MPI_Init_thread(int *c, char ***v, int r, int *p) { TIMED(PMPI_Init_thread(c, v, r, p)); }
int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c) { TIMED(PMPI_Send(b, n, t, d, g, c)); }
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status *st) { TIMED(PMPI_Recv(b, n, t, s, g, c, st)); }
int MPI_Barrier(MPI_Comm c) { TIMED(PMPI_Barrier(c)); }
int MPI_Bcast(void *b, int n, MPI_Datatype t, int r, MPI_Comm c) { TIMED(PMPI_Bcast(b, n, t, r, c)); }
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c) { TIMED(PMPI_Allreduce(s, r, n, t, o, c)); }
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c) { TIMED(PMPI_Reduce(s, r, n, t, o, root, c)); }
int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c) { TIMED(PMPI_Gather(s, sn, st, r, rn, rt, root, c)); }
int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *d, MPI_Datatype rt, int root, MPI_Comm c) { TIMED(PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c)); }
int MPI_Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c) { TIMED(PMPI_Allgather(s, sn, st, r, rn, rt, c)); }
int MPI_Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c) { TIMED(PMPI_Alltoall(s, sn, st, r, rn, rt, c)); }
int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int stag, void *rb, int rc, MPI_Datatype rt, int s, int rtag, MPI_Comm c, MPI_Status *status) { TIMED(PMPI_Sendrecv(sb, sc, st, d, stag, rb, rc, rt, s, rtag, c, status)); }
int MPI_Isend(const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request *q) { TIMED(PMPI_Isend(b, n, t, d, g, c, q)); }
int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *q) { TIMED(PMPI_Irecv(b, n, t, s, g, c, q)); }
int MPI_Wait(MPI_Request *q, MPI_Status *s) { TIMED(PMPI_Wait(q, s)); }
int MPI_Waitall(int n, MPI_Request *q, MPI_Status *s) { TIMED(PMPI_Waitall(n, q, s)); }
int MPI_Testall(int n, MPI_Request *q, int *f, MPI_Status *s) { TIMED(PMPI_Testall(n, q, f, s)); }
int MPI_Comm_split(MPI_Comm c, int col, int key, MPI_Comm *o) { TIMED(PMPI_Comm_split(c, col, key, o)); }
int MPI_Finalize(void)
{
	int r;
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	if (r == 0)
		fprintf(stderr, "growth-pmpi rank 0: wall %.6f inside %.6f cpu %.6f cpu_inside %.6f calls %ld hwm_kib %ld\n",
			now() - t0, inside, cpu(), cpu_inside, ncalls, hwm());
	return PMPI_Finalize();
}
