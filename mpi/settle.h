/* What a timed kernel does first, inside its cgo call: let the Go
 * runtime's threads go back to sleep before the timing begins. */
#ifndef MPIBENCH_SETTLE_H
#define MPIBENCH_SETTLE_H

/* MB_SETTLE_NS is how long mb_settle sleeps: about twice what the runtime
 * needs on a loaded 2-core machine (three of the monitor's 20 µs ticks,
 * each stretched by the kernel's 50 µs timer slack, and a spinning M). */
#define MB_SETTLE_NS 500000L

/* mb_settle sleeps MB_SETTLE_NS, resuming after signals. Every cgo call
 * wakes the Go runtime's threads: with one P (mpi.Init sets GOMAXPROCS
 * to 1), the monitor (sysmon) sees the call at its next 20 µs tick, takes
 * the P at the tick after, hands it to a spinning M that finds no work
 * and stops, and at its third tick finds every P idle and sleeps until
 * the call returns. Those three or four thread wake-ups fall in the
 * first 200 µs or so of the call; on a machine whose cores the ranks keep
 * busy polling MPI, each takes a core from a rank for about 10 µs. A
 * timed loop that began right away would count them: 4 to 8 % of a
 * sample of 1000 small round trips (docs/lab.md, "Side by side with
 * the peers"). Called before a kernel's barriers (OSU's kernels: before
 * their untimed warm-up iterations), so the sleep and the wake-ups stay
 * outside the timing and the barriers or warm-up still line the ranks
 * up; sleeping rather than spinning leaves the core to those threads. */
void mb_settle(void);

#endif
