/* Check-mode buffer content, shared by every suite's data checks.
 *
 * Byte j of rank r's data in repetition it. The rank enters as a plain
 * addend, so two ranks whose numbers differ modulo 256 differ in every byte
 * (with more than 256 ranks, ranks r and r+256 share their bytes); the
 * repetition enters as 97·it, and 97 is odd, so repetitions it and it+k
 * differ in every byte unless k is a multiple of 256; the position enters
 * as 7·j plus a term per higher byte of j, so data read or written at a
 * shifted position differs from what was expected for every shift below
 * 256 bytes that crosses no 256-byte boundary, and for shifts by whole
 * multiples of 256, 65536, ... bytes.
 */
#ifndef MB_PATTERN_H
#define MB_PATTERN_H

static inline unsigned char mb_pat_byte(int r, long long it, long long j)
{
	unsigned long long v = (unsigned long long)(r + 1) + 97ull * (unsigned long long)it +
			       7ull * (unsigned long long)j + 13ull * (unsigned long long)(j >> 8) +
			       29ull * (unsigned long long)(j >> 16) + 59ull * (unsigned long long)(j >> 24) +
			       101ull * (unsigned long long)(j >> 32);
	return (unsigned char)(v & 0xff);
}

/* mb_pat_float is element j of rank r's float data in repetition it for
 * the reductions: (r+1) + 16·g with g = (5·it + 11·j) mod 1024. Every value
 * and every sum over fewer than 1000 ranks is an integer below 2^24, so the
 * reduced result is exact whatever order the library sums in; the sum over
 * ranks 0..np-1 is np(np+1)/2 + 16·np·g, so a rank counted twice or left
 * out, or a stale element from another repetition (g differs unless the
 * repetitions are 1024 apart), changes it. */
static inline float mb_pat_float(int r, long long it, long long j)
{
	long long g = (5 * it + 11 * j) % 1024;
	return (float)((r + 1) + 16 * g);
}

/* mb_pat_sum is the exact sum of mb_pat_float over ranks 0..np-1. */
static inline double mb_pat_sum(int np, long long it, long long j)
{
	long long g = (5 * it + 11 * j) % 1024;
	return (double)np * (np + 1) / 2 + 16.0 * np * g;
}

/* mb_pat_int is element j of rank r's data in repetition it for the
 * reductions of -red_data_type int, float and double: the integer
 * (r+1) + 16·g of mb_pat_float, which int, float and double hold exactly,
 * and whose sums over fewer than 1000 ranks (below 2^24) are exact in any
 * order. */
static inline long long mb_pat_int(int r, long long it, long long j)
{
	return (r + 1) + 16 * ((5 * it + 11 * j) % 1024);
}

/* mb_pat_isum is the exact sum of mb_pat_int over ranks 0..np-1. */
static inline long long mb_pat_isum(int np, long long it, long long j)
{
	return (long long)np * (np + 1) / 2 + 16LL * np * ((5 * it + 11 * j) % 1024);
}

/* mb_pat_char is the element of -red_data_type char: small, as every
 * partial sum must stay below 128. Open MPI 4.1's vectorised MPI_SUM on
 * MPI_CHAR saturates at 127 (from 16 items on), MPICH's wraps, and the
 * MPI standard leaves an overflow undefined. Rank 0's element, 1 + g mod
 * 3, carries the repetition and the position (consecutive repetitions
 * differ: g moves by 5); every other rank's is 1 + r mod 2. Every element
 * is at least 1, so a rank counted twice or left out changes the sum,
 * which is at most 3 + 2(np-1): exact up to 63 ranks. Poison (0xff, -1)
 * is no sum. */
static inline int mb_pat_char(int r, long long it, long long j)
{
	return r == 0 ? 1 + (int)(((5 * it + 11 * j) % 1024) % 3) : 1 + r % 2;
}

/* mb_pat_csum is the sum of mb_pat_char over ranks 0..np-1 modulo 256:
 * 1 + g mod 3, plus np-1 ones, plus one for each odd rank below np. */
static inline unsigned char mb_pat_csum(int np, long long it, long long j)
{
	return (unsigned char)(mb_pat_char(0, it, j) + (np - 1) + np / 2);
}

#endif
