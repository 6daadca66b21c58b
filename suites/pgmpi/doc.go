// Package pgmpi is the measuring side of PGMPI (Hunold, Carpen-Amarie,
// Lübbe, Träff: verifying self-consistent MPI performance guidelines): the
// table of the MPI functions and mock-ups of the pattern guidelines GL3-GL17,
// the communication volume n of each, the repetition predictor of Step
// NREP and the driver of Step MEASURE.
//
// Choices where the paper is silent:
//   - Every buffer is a vector of C ints (MPI_INT, 4 bytes); reductions use
//     MPI_SUM. A volume of n bytes is rounded up to a multiple of 4·p, so
//     that the blocks n/p of the rooted and all-to-all calls are whole ints
//     and every block is the same size; the records carry the rounded n.
//     The root of every rooted call is rank 0.
//   - One repetition: MPI_Barrier, then the call timed alone by two
//     MPI_Wtime calls on every rank; the sample is the maximum of the local
//     times over the ranks, taken after the last repetition by one
//     MPI_Reduce(MPI_MAX) of the vector of local times, all in C.
//   - One untimed call warms each (call, n) up before its repetitions.
//   - A mock-up starts from the emulated function's input and ends with its
//     output: its local copies (placing a block in a zero vector, taking a
//     share of a broadcast vector, replicating a block for MPI_Alltoall,
//     rank 0's result of MPI_Exscan) are timed with it.
package pgmpi
