#include <math.h>
#include <string.h>
#include "check.h"
#include "pattern.h"

/* Within an aligned run of 256 positions, mb_pat_byte only adds 7 per
 * position (its other position terms change at multiples of 256), so the
 * loops compute one byte per run and step from there. */

static long long run_end(long long j, long long n, long long off)
{
	long long end = j + 256 - ((off + j) & 255);
	return end < n ? end : n;
}

void mb_fill_bytes(void *buf, long long n, int rank, long long rep, long long off)
{
	unsigned char *p = buf;
	long long j = 0;
	while (j < n) {
		long long end = run_end(j, n, off);
		unsigned char b = mb_pat_byte(rank, rep, off + j);
		for (; j < end; j++, b += 7)
			p[j] = b;
	}
}

long long mb_bad_bytes(const void *buf, long long n, int rank, long long rep, long long off)
{
	const unsigned char *p = buf;
	long long j = 0, bad = 0;
	while (j < n) {
		long long end = run_end(j, n, off);
		unsigned char b = mb_pat_byte(rank, rep, off + j);
		for (; j < end; j++, b += 7)
			bad += p[j] != b;
	}
	return bad;
}

void mb_fill_floats(float *buf, long long n, int rank, long long rep, long long off)
{
	long long j;
	for (j = 0; j < n; j++)
		buf[j] = mb_pat_float(rank, rep, off + j);
}

long long mb_bad_sums(const float *buf, long long n, int np, long long rep, long long off)
{
	long long j, bad = 0;
	for (j = 0; j < n; j++) {
		double want = mb_pat_sum(np, rep, off + j);
		double tol = want < 16777216.0 ? 0 : want * np * 0x1p-24;
		/* written so that a NaN (poison) counts as wrong */
		bad += !(fabs((double)buf[j] - want) <= tol);
	}
	return bad;
}

void mb_poison(void *buf, long long n)
{
	if (n > 0)
		memset(buf, 0xff, (size_t)n);
}
