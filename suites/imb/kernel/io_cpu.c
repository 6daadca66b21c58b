//go:build cgo && !nompi

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
#include <time.h>
#include "iokernels.h"

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

/* now is the calling thread's CPU time in seconds. Section 4.2.5.2
 * defines t_CPU as the time the CPU_Exploit periods "would use when
 * running dedicated": on a dedicated core that is the wall time, and on a
 * shared node (this 2-core machine ran 0.1 s of kernel in 0.25-0.8 s of
 * wall time while the CPU time stayed within 0.098-0.114 s) the CPU time
 * still is, where MPI_Wtime adds whatever preempted the process. It needs
 * no MPI_Init, so the calibration can be tested on its own. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_time(long long reps)
{
	double t0 = now();
	cpu_kernel(reps);
	return now() - t0;
}

/* cpu_best is the shortest of n runs of reps repetitions: the
 * undisturbed time (cache misses, frequency changes, interrupts and the
 * preemption CPU time does not quite hide stay out of it). */
static double cpu_best(long long reps, int n)
{
	double t = cpu_time(reps), u;
	int i;
	for (i = 1; i < n; i++)
		if ((u = cpu_time(reps)) < t)
			t = u;
	return t;
}

/* Calibration rounds at most; each runs the count three times. */
#define CAL_ROUNDS 8

static long long scaled(long long reps, double target, double t)
{
	long long r = llround((double)reps * target / fmax(t, 1e-9));
	return r < 1 ? 1 : r;
}

/* mb_cpu_calibrate finds the count whose undisturbed time, the shortest of
 * three runs of the whole count, is within 1 % of target, and returns that
 * time as t_CPU. A first estimate comes from short blocks (2 ms or more);
 * then the count is rescaled by target / t_CPU until it fits. The count is
 * fitted on the same whole-count runs that t_CPU is measured on: an
 * earlier version took the count from the fastest 2 ms block of wall time
 * alone and measured t_CPU as wall time, and on a loaded or
 * frequency-scaling node short blocks run at another speed than 0.1 s runs
 * and the wall time of a run includes preemption (an audit found t_CPU
 * 19 % above target; this machine showed -33 % to +20 %). After
 * CAL_ROUNDS rounds the count closest to target is kept. */
double mb_cpu_calibrate(double target, double *mflops)
{
	long long block = 1, reps, best_reps = 1;
	double t, best_t = 0, best_err = INFINITY;
	int k;
	cpu_init();
	if (target <= 0) {
		cpu_reps = 0;
		*mflops = 0;
		return 0;
	}
	while (cpu_time(block) < 0.002 && block < (1LL << 40))
		block *= 2;
	reps = scaled(block, target, cpu_best(block, 5));
	for (k = 0; k < CAL_ROUNDS; k++) {
		double err;
		t = cpu_best(reps, 3);
		err = fabs(t / target - 1);
		if (err < best_err) {
			best_err = err;
			best_reps = reps;
			best_t = t;
		}
		if (err <= 0.01)
			break;
		reps = scaled(reps, target, t);
	}
	cpu_reps = best_reps;
	*mflops = best_t > 0 ? 2.0 * CPU_N * CPU_N * (double)best_reps / best_t * 1e-6 : 0;
	return best_t;
}

void mb_cpu_exploit(void) { cpu_kernel(cpu_reps); }
