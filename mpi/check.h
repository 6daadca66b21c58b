/* Check-mode helpers, shared by every suite's data checks.
 *
 * A checked kernel loop runs the timed loop's repetitions with these hooks
 * between them: before repetition it, every rank writes its own content
 * for that repetition (mpi/pattern.h) into what it sends and poisons what
 * it will receive; after it, every rank counts the items that differ from
 * what the repetition had to deliver. Poison is 0xff bytes: a float NaN,
 * which equals no expected value, and a byte that the pattern of any other
 * repetition or position could not mimic everywhere.
 *
 * Lengths and offsets are in items (bytes, or floats for the _floats and
 * _sums functions); off is the position of the first item in the sender's
 * buffer, so a block cut from the middle of a send buffer is checked
 * against the bytes it had there.
 */
#ifndef MB_CHECK_H
#define MB_CHECK_H

/* mb_fill_bytes sets buf[j] = mb_pat_byte(rank, rep, off + j), j < n. */
void mb_fill_bytes(void *buf, long long n, int rank, long long rep, long long off);

/* mb_bad_bytes counts the j < n with buf[j] != mb_pat_byte(rank, rep, off + j). */
long long mb_bad_bytes(const void *buf, long long n, int rank, long long rep, long long off);

/* mb_fill_floats sets buf[j] = mb_pat_float(rank, rep, off + j), j < n. */
void mb_fill_floats(float *buf, long long n, int rank, long long rep, long long off);

/* mb_bad_sums counts the j < n where buf[j] is not the MPI_SUM over ranks
 * 0..np-1 of mb_pat_float(., rep, off + j). The sums are integers; below
 * 2^24 every partial sum is exact in any order, so the comparison is exact;
 * above (about 1000 ranks and more) a float sum of np terms may round, by
 * at most np units of 2^-24 of the sum. */
long long mb_bad_sums(const float *buf, long long n, int np, long long rep, long long off);

/* mb_poison sets n bytes to 0xff. */
void mb_poison(void *buf, long long n);

/* The item types of IMB 2021's -data_type and -red_data_type (kernels.h's
 * type field, suites/imb/kernel's DataType, in the same order). MB_T_DEFAULT is
 * IMB's default: MPI_BYTE, MPI_FLOAT for the reductions. */
enum mb_type { MB_T_DEFAULT = 0, MB_T_BYTE, MB_T_CHAR, MB_T_INT, MB_T_FLOAT, MB_T_DOUBLE };

/* mb_type_size is the size in bytes of an item of type (red: a reduction's
 * default). */
int mb_type_size(int type, int red);

/* mb_fill_red and mb_bad_red are mb_fill_floats and mb_bad_sums for the
 * reduction type type (pattern.h's mb_pat_int for char, int and double). */
void mb_fill_red(void *buf, long long n, int type, int rank, long long rep, long long off);
long long mb_bad_red(const void *buf, long long n, int type, int np, long long rep, long long off);

#endif
