// Package kernel holds the timed C loops of the IMB family (IMB-MPI1,
// IMB-EXT, IMB-IO, IMB-NBC, IMB-MPI4 and IMB-RMA) and their Go side: the
// run descriptions (Run, RMARun, FileRun, NBCRun, RMA3Run ...) and the
// cgo calls that execute them.
//
// It is a cgo package of its own, beside package mpi: communicators,
// windows and files come as Fortran handles (mpi.Comm.Fortran ...),
// turned back in C when a run is set up, before any timing; buffers as
// pointers (mpi.Buffer.Ptr). The C shares package mpi's headers and C
// (check.h, chk.h, mutant.h, settle.h, window.h, bigcount.h, io.h).
//
// Built with -tags nompi or CGO_ENABLED=0 it has no C: nompi.go and the
// *_nompi.go files stand in, and Init has failed before any is reached.
package kernel
