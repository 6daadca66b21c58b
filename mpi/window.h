/* Window-synchronised timing (package clocksync): every rank waits until
 * the local time at which repetition i starts (its common global start
 * time, mapped through the rank's clock model), runs one collective call
 * and stores its end time. The loops live in C with their arrays
 * allocated before the loop; Go computes the targets before and the
 * per-repetition times after (clocksync/window.go). */
#ifndef MB_WINDOW_H
#define MB_WINDOW_H

#include <time.h>
#include <mpi.h>
#include "chk.h"
#include "mutant.h"

typedef struct mb_win {
	const double *target; /* local MPI_Wtime at which repetition i starts */
	double *end;          /* local MPI_Wtime after repetition i's call */
	double *lag;          /* the rank's first MPI_Wtime at or after target[i], minus target[i] */
	int nrep;
	int root_step; /* rooted calls: root i = (root0 + i * root_step) % size */
} mb_win;

/* SPIN is how long before its start a rank stops sleeping and spins on
 * MPI_Wtime: a rank one core to itself starts from a warm spin, and the
 * ranks of an oversubscribed node leave the cores to each other for the
 * rest of the window (spinning all along, half of them were descheduled
 * at the start, and the window time was the scheduler's). */
#define SPIN 1e-3

/* doze sleeps about s seconds and returns the clock (MB_WTIME). */
static inline double doze(double s)
{
	struct timespec d;
	d.tv_sec = (time_t)s;
	d.tv_nsec = (long)((s - (double)d.tv_sec) * 1e9);
	nanosleep(&d, NULL);
	return MB_WTIME();
}

/* WINDOW is the loop every suite shares, with CALL(i) one repetition's
 * collective: the wait until the start time, the call, the end time. The
 * lag is the rank's first clock reading at or after its start time minus
 * that time: large when it reached the wait late or was descheduled in
 * it. A late rank calls at once (the collective must still match on every
 * rank); Go excludes the repetition. Nothing but the clock reads, the compare and
 * the stores sits between two calls. The skew mutant (tests only) delays
 * one rank before its wait. */
#define WINDOW(w, comm, CALL)                                              \
	do {                                                               \
		int i_;                                                    \
		double now_, t_;                                           \
		CHK(MUTANT_MPI_ERROR(comm));                               \
		for (i_ = 0; i_ < (w)->nrep; i_++) {                       \
			MUTANT_SKEW(comm);                                 \
			t_ = (w)->target[i_];                              \
			now_ = MB_WTIME();                                 \
			if (t_ - now_ > SPIN)                              \
				now_ = doze(t_ - SPIN - now_);             \
			while (now_ < t_)                                  \
				now_ = MB_WTIME();                         \
			(w)->lag[i_] = now_ - t_;                          \
			CHK(CALL(i_));                                     \
			(w)->end[i_] = MB_WTIME();                         \
		}                                                          \
	} while (0)

#endif
