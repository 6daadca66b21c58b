//go:build cgo && !nompi

#include <math.h>
#include <string.h>
#include "check.h"
#include "pattern.h"

/* The loops here run at memcpy and memcmp speed, from two small tables.
 *
 * Bytes: within an aligned run of 256 positions mb_pat_byte only adds 7
 * per position (its other position terms change at multiples of 256), so
 * a run that starts with byte b is b, b+7, b+14, ... Since 7·183 = 1 mod
 * 256, that is steps[s], steps[s+1], ... with steps[m] = 7m mod 256 and
 * s = 183·b mod 256.
 *
 * Floats: mb_pat_float(r, it, j) = (r+1) + 16·g, g = (5·it + 11·j) mod
 * 1024. Since 11·931 = 1 mod 1024, g = 11·(t + j) mod 1024 with
 * t = 931·5·it mod 1024, so 16·g is sixteens[(t + j) mod 1024], and a
 * stretch of up to 1024 positions is one slice of the table. */

static unsigned char steps[512]; /* steps[m] = 7m mod 256 */
static float sixteens[2048];     /* sixteens[m] = 16·(11m mod 1024) */

static void init_tables(void)
{
	int m;
	if (steps[1] != 0)
		return;
	for (m = 0; m < 2048; m++)
		sixteens[m] = (float)(16 * ((11 * m) % 1024));
	for (m = 0; m < 512; m++)
		steps[m] = (unsigned char)(7 * m);
}

/* byte_run returns the expected bytes from position off on, up to the
 * next multiple of 256, and stores their number in *len (at most n). */
static const unsigned char *byte_run(int rank, long long rep, long long off, long long n, long long *len)
{
	long long room = 256 - (off & 255);
	unsigned char b = mb_pat_byte(rank, rep, off);
	*len = room < n ? room : n;
	return steps + ((183 * b) & 255);
}

void mb_fill_bytes(void *buf, long long n, int rank, long long rep, long long off)
{
	unsigned char *p = buf;
	long long j, len;
	init_tables();
	for (j = 0; j < n; j += len) {
		const unsigned char *run = byte_run(rank, rep, off + j, n - j, &len);
		memcpy(p + j, run, (size_t)len);
	}
}

long long mb_bad_bytes(const void *buf, long long n, int rank, long long rep, long long off)
{
	const unsigned char *p = buf;
	long long j, k, len, bad = 0;
	init_tables();
	for (j = 0; j < n; j += len) {
		const unsigned char *want = byte_run(rank, rep, off + j, n - j, &len);
		if (memcmp(p + j, want, (size_t)len) != 0)
			for (k = 0; k < len; k++)
				bad += p[j + k] != want[k];
	}
	return bad;
}

/* float_run returns 16·g for position off on, at most 1024 positions, and
 * stores their number in *len (at most n). */
static const float *float_run(long long rep, long long off, long long n, long long *len)
{
	long long t = 931 * (5 * (rep & 1023)) % 1024;
	*len = n < 1024 ? n : 1024;
	return sixteens + ((t + off) & 1023);
}

void mb_fill_floats(float *buf, long long n, int rank, long long rep, long long off)
{
	long long j, k, len;
	float base = (float)(rank + 1);
	init_tables();
	for (j = 0; j < n; j += len) {
		const float *g16 = float_run(rep, off + j, n - j, &len);
		for (k = 0; k < len; k++)
			buf[j + k] = base + g16[k];
	}
}

/* bad_sums_rounded is mb_bad_sums where a sum may reach 2^24. */
static long long bad_sums_rounded(const float *buf, long long n, int np, long long rep, long long off)
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

long long mb_bad_sums(const float *buf, long long n, int np, long long rep, long long off)
{
	long long j, k, len, bad = 0;
	float base = (float)((double)np * (np + 1) / 2), fnp = (float)np;
	if ((double)np * (np + 1) / 2 + 16.0 * 1023 * np >= 16777216.0)
		return bad_sums_rounded(buf, n, np, rep, off);
	init_tables();
	/* Every sum is an integer below 2^24, exact as a float: the sum over
	 * ranks of (r+1) + 16·g is np(np+1)/2 + np·16·g. A NaN compares
	 * unequal. */
	for (j = 0; j < n; j += len) {
		const float *g16 = float_run(rep, off + j, n - j, &len);
		for (k = 0; k < len; k++)
			bad += buf[j + k] != base + fnp * g16[k];
	}
	return bad;
}

void mb_poison(void *buf, long long n)
{
	if (n > 0)
		memset(buf, 0xff, (size_t)n);
}

int mb_type_size(int type, int red)
{
	switch (type) {
	case MB_T_CHAR:
	case MB_T_BYTE: return 1;
	case MB_T_INT: return (int)sizeof(int);
	case MB_T_FLOAT: return (int)sizeof(float);
	case MB_T_DOUBLE: return (int)sizeof(double);
	}
	return red ? (int)sizeof(float) : 1;
}

void mb_fill_red(void *buf, long long n, int type, int rank, long long rep, long long off)
{
	long long j;
	for (j = 0; j < n && type == MB_T_DOUBLE; j++)
		((double *)buf)[j] = (double)mb_pat_int(rank, rep, off + j);
	for (j = 0; j < n && type == MB_T_INT; j++)
		((int *)buf)[j] = (int)mb_pat_int(rank, rep, off + j);
	for (j = 0; j < n && type == MB_T_CHAR; j++)
		((unsigned char *)buf)[j] = (unsigned char)mb_pat_char(rank, rep, off + j);
	if (type == MB_T_FLOAT || type == MB_T_DEFAULT)
		mb_fill_floats(buf, n, rank, rep, off);
}

/* The sums of char (up to 63 ranks), int and double are exact
 * (pattern.h); poison (a NaN, -1, 0xff) equals none. */
long long mb_bad_red(const void *buf, long long n, int type, int np, long long rep, long long off)
{
	long long j, bad = 0;
	for (j = 0; j < n && type == MB_T_DOUBLE; j++)
		bad += !(((const double *)buf)[j] == (double)mb_pat_isum(np, rep, off + j));
	for (j = 0; j < n && type == MB_T_INT; j++)
		bad += ((const int *)buf)[j] != (int)mb_pat_isum(np, rep, off + j);
	for (j = 0; j < n && type == MB_T_CHAR; j++)
		bad += ((const unsigned char *)buf)[j] != mb_pat_csum(np, rep, off + j);
	if (type == MB_T_FLOAT || type == MB_T_DEFAULT)
		bad = mb_bad_sums(buf, n, np, rep, off);
	return bad;
}
