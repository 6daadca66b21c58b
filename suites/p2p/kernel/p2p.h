/* IMB-P2P 2021.11's kernels (src_c/P2P/imb_p2p_*.c): the warm-up and the
 * timed loop of one benchmark at one message length, all in C. */
#ifndef MB_P2P_H
#define MB_P2P_H

#include <mpi.h>

#define MB_P2P_MAXNBR 6

enum mb_p2p_kind {
	MB_P2P_PINGPONG,
	MB_P2P_PINGPING,
	MB_P2P_UNIRANDOM,
	MB_P2P_BIRANDOM,
	MB_P2P_CORANDOM,
	MB_P2P_STENCIL, /* Stencil2D (4 neighbours) and Stencil3D (6) */
	MB_P2P_SENDRECV_REPLACE,
};

typedef struct {
	MPI_Comm comm;
	int kind;
	long long size;  /* bytes per message */
	long long iters; /* IMB-P2P's number_of_iterations */
	long long warm;  /* its number_of_warm_up_iterations */
	int touch_send;  /* -msgwr: write a byte per cache line before a send */
	int touch_recv;  /* -msgrd: read a byte per cache line after a receive */
	int pause_usec;  /* -pause: usleep before each measurement's barriers; < 0 none */
	int nnbr;        /* stencils: number of neighbours */
	int nbr[MB_P2P_MAXNBR];
	void *sbuf[MB_P2P_MAXNBR]; /* one send and receive buffer per neighbour; [0] otherwise */
	void *rbuf[MB_P2P_MAXNBR];
	int *ring;                 /* Corandom: nranks ints of scratch */
	unsigned long long dummy;  /* the touch functions' running value */
	/* results */
	double time;        /* seconds of the timed loop on this rank */
	long long messages; /* IMB-P2P's number_of_messages of this rank */
	long long defects;  /* check mode: bytes received wrong */
} mb_p2p;

/* mb_p2p_run measures one length: pause, barrier, warm-up, barrier (not
 * for SendRecv_Replace), timed loop, pause, barrier, as IMB-P2P does. */
int mb_p2p_run(mb_p2p *p);

/* mb_p2p_run_check runs the same loops in check mode: every repetition
 * sends this rank's content of it (mpi/pattern.h) into poisoned receive
 * buffers and counts the bytes that arrive wrong. */
int mb_p2p_run_check(mb_p2p *p);

#endif
