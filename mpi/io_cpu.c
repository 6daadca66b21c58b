/* CPU_Exploit of IMB-IO (section 4.2.5.1): a 100x100 float matrix-vector
 * multiply repeated a calibrated number of times.
 *
 * Every repetition multiplies the matrix with the previous repetition's
 * result (y = A x + b, then x = y), so no repetition can be skipped or
 * hoisted out of the loop; the matrix has row sums of 1/2, so the vectors
 * stay near 2b and never reach denormal or infinite values, which would
 * change the speed. The column-wise (axpy) loop order vectorises without
 * reordering floating-point sums. The arrays have external linkage and the
 * result goes to a volatile sink, so the compiler must compute it. */
#include <math.h>
#include "io.h"

#define CPU_N 100

float mb_cpu_a[CPU_N][CPU_N]; /* column j of A is mb_cpu_a[j] */
float mb_cpu_b[CPU_N];
float mb_cpu_v[2][CPU_N];
volatile float mb_cpu_sink;

static long long cpu_reps; /* the calibrated count; 0 before calibration */

static void cpu_init(void)
{
	int i, j;
	for (j = 0; j < CPU_N; j++) {
		for (i = 0; i < CPU_N; i++)
			mb_cpu_a[j][i] = 0.5f / CPU_N;
		mb_cpu_b[j] = 1.0f;
		mb_cpu_v[0][j] = 0.0f;
	}
}

static void cpu_kernel(long long reps)
{
	long long r;
	int i, j, cur = 0;
	for (r = 0; r < reps; r++) {
		float *x = mb_cpu_v[cur], *y = mb_cpu_v[1 - cur];
		for (i = 0; i < CPU_N; i++)
			y[i] = mb_cpu_b[i];
		for (j = 0; j < CPU_N; j++) {
			float xj = x[j];
			for (i = 0; i < CPU_N; i++)
				y[i] += mb_cpu_a[j][i] * xj;
		}
		cur = 1 - cur;
	}
	mb_cpu_sink = mb_cpu_v[cur][0] + mb_cpu_v[cur][CPU_N - 1];
}

static double cpu_time(long long reps)
{
	double t0 = MPI_Wtime();
	cpu_kernel(reps);
	return MPI_Wtime() - t0;
}

/* cpu_best is the shortest of n runs of reps repetitions: the
 * undisturbed time, as far as one can see it on a busy node. */
static double cpu_best(long long reps, int n)
{
	double t = cpu_time(reps), u;
	int i;
	for (i = 1; i < n; i++)
		if ((u = cpu_time(reps)) < t)
			t = u;
	return t;
}

/* The undisturbed speed is that of the fastest of 25 short blocks (2 ms
 * or more each), so that other processes on the node, which may slow any
 * one run, hardly bias the count; t_CPU is the shortest of three runs of
 * the count. */
double mb_cpu_calibrate(double target, double *mflops)
{
	long long block = 1, reps;
	double t;
	cpu_init();
	if (target <= 0) {
		cpu_reps = 0;
		*mflops = 0;
		return 0;
	}
	while (cpu_time(block) < 0.002 && block < (1LL << 40))
		block *= 2;
	t = cpu_best(block, 25);
	reps = (long long)llround(target * (double)block / fmax(t, 1e-9));
	if (reps < 1)
		reps = 1;
	t = cpu_best(reps, 3);
	cpu_reps = reps;
	*mflops = t > 0 ? 2.0 * CPU_N * CPU_N * (double)reps / t * 1e-6 : 0;
	return t;
}

void mb_cpu_exploit(void) { cpu_kernel(cpu_reps); }
