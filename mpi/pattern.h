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

#endif
