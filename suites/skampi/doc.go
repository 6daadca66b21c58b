// Package skampi is the SKaMPI suite of mpibench (Reussner, Sanders,
// Prechelt, Müller, "SKaMPI: A Detailed, Accurate MPI Benchmark"): a
// configuration file of measurements, each one operation of one of the
// four patterns (ping-pong, collective, master-worker, simple) varied over
// one parameter (message length, processes, workpieces) or over none; the
// driver that runs them with the adaptive engine of package method; and
// the journal that lets a crashed run resume.
//
// Every point is measured by method.Adaptive (section 3.1 of the paper):
// a warm-up call, repetitions until the relative standard error of the
// mean of the middle 50 % falls below ε within the repetition and time
// bounds and the clock rule; that mean, corrected by an empty measurement
// of the same pattern, is the result, recorded with the raw samples.
// Sweeps over the length use method.Refine (3.2); sweeps over processes
// use method.ProcsLinear or ProcsDoubling on the first P ranks.
//
// Patterns and what is timed (all times on one process, in seconds, then
// µs in the records):
//
//   - ping-pong: a quick survey (10 round trips of 1 byte between every
//     pair) picks the two processes with the largest latency, i < j; i
//     times one round trip (send, then receive the echo) with the
//     variant's calls; Sendrecv and Sendrecv_replace are one exchange,
//     both processes calling at once. Empty measurement: the timer pair.
//   - collective: on the first P ranks, MPI_Barrier, timer, the
//     operation, MPI_Barrier, timer, on rank 0. The empty measurement is
//     the same without the operation (barrier, timer, barrier, timer), so
//     subtracting it removes the barrier's own time. Reductions are
//     MPI_BOR on MPI_BYTE; Bcast, Reduce, Gather and Scatter use root 0;
//     Comm_split's new communicator is freed after the timer.
//   - master-worker: rank 0 is the master, the others workers; a worker
//     receives a piece of the message length and returns a result of the
//     same length, as many times as there are workpieces. Bsend, Isend,
//     Send and Ssend go in rounds: the master sends one piece to every
//     worker with that call (Isend: post all, then MPI_Waitall), then
//     receives every result in rank order. Recv_Any, Waitany and Waitsome
//     dispatch dynamically: after the first piece to every worker, the
//     master takes results with MPI_Recv(MPI_ANY_SOURCE), MPI_Waitany or
//     MPI_Waitsome over one MPI_Irecv per worker, and sends the next piece
//     to whoever returned one. The master times the whole. Empty
//     measurement: the timer pair.
//   - simple: world rank 0 alone times one call. Empty measurement: the
//     timer pair.
//
// The stop decision of every repetition is broadcast from the timing
// process, so that all processes of a pattern repeat equally often.
package skampi
