// Package mpi is mpibench's only cgo package: it binds MPI (Open MPI by
// default, MPICH with -tags mpich, found through pkg-config), keeps MPI
// handles opaque, turns return codes into *Error values and holds the timed
// C kernels. Every call must come from the OS thread that called Init.
package mpi
