// Package mpi is mpibench's binding of MPI through cgo (Open MPI by
// default, MPICH with -tags mpich, found through pkg-config): Init,
// communicators, windows (rmawin), files (io), buffers, and return codes
// turned into *Error values. It also holds the C the suites share: the
// content pattern and its check (check.h, pattern.h), CHK (chk.h), the
// settle before a timed loop (settle.h), the window loop's frame
// (window.h), the test-only mutant switch (mutant.h) and the large-count
// layer of IMB and OSU (bigcount), and the MPI_T control variables,
// read without MPI_Init (mpit). Each suite's timed loops are in its own
// cgo package, suites/NAME/kernel; handles reach them as Fortran handles
// (handle.go, handle.h). Every call must come from the OS thread that
// called Init.
//
// Built with -tags nompi or CGO_ENABLED=0, it has no MPI and no C: its Go
// and C files carry the constraint `cgo && !nompi`, nompi.go stands in for
// them and Init returns ErrNoMPI. types.go is shared by both builds.
package mpi
