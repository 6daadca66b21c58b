// Package floorplan is the layout of the repository as a test checks it:
// every top-level folder has a role, and imports go one way, down this
// order (a package may import its own layer and the layers below it):
//
//	cmd/       the binary: the command registry and dispatch
//	suites/    the benchmarks: each suite's definition, plan, text format and
//	           timed C loops (suites/NAME/kernel)
//	run/       the machinery that runs a case under MPI: the job (flags and
//	           errors agreed by all ranks), the case loop, journal, watchdog,
//	           progress, clock synchronisation, disk and memory checks
//	mpi/       the binding: Init, communicators, windows, files, buffers,
//	           errors, and the C the suites share
//	analysis/  records, statistics, compare, report: no MPI needed
//	internal/  helpers that know nothing of MPI or records: flags, safe
//	           files, the text writer, golden files
//
// Beside the product, importing it but imported by nothing: e2e/ (the
// end-to-end tests, launching the binary under mpirun) and lab/ (the
// side-by-side lab). Within suites/, a suite imports no other suite, but
// for the b_eff family's shared text format (suites/beff/befftext, used by
// b_eff_io). Test files may import upwards (a report test renders a
// suite's text format).
package floorplan
