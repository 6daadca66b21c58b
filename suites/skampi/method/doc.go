// Package method is SKaMPI's measurement method: how many times to repeat
// one parameter setting and when to stop, and which parameter settings to
// measure at all. Only SKaMPI measures this way (IMB, b_eff, b_eff_io and
// PGMPI each follow their own definition), hence its place under skampi.
//
// It is the SKaMPI engine (Reussner, Sanders, Prechelt, Müller,
// "SKaMPI: A Detailed, Accurate MPI Benchmark", section 3):
//
//   - Adaptive (3.1) repeats one measurement until the relative standard
//     error of the reported figure, the mean of the middle 50 %, falls
//     below ε, within bounds on the count and on the timed time, and
//     reports that mean corrected by the time of an empty measurement.
//   - Refine (3.2) chooses message lengths: a geometric grid, then
//     bisection (geometric) of the segments where linear interpolation is
//     least trustworthy, worst first, until the error estimate drops below
//     ε or the budget is spent.
//   - ProcsLinear and ProcsDoubling list the process counts of a
//     one-dimensional sweep over P.
//
// Everything here is pure Go and calls MPI only through the functions the
// caller passes in (Sample, Decide, the measure function of Refine), so the
// same code runs in unit tests with synthetic timings and under mpirun.
package method
