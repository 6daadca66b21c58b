// Package mpi is mpibench's only cgo package: it binds MPI (Open MPI by
// default, MPICH with -tags mpich, found through pkg-config), keeps MPI
// handles opaque, turns return codes into *Error values and holds the timed
// C kernels. Every call must come from the OS thread that called Init.
//
// Built with -tags nompi or CGO_ENABLED=0, it has no MPI and no C: its Go
// and C files carry the constraint `cgo && !nompi`, nompi.go stands in for
// them and Init returns ErrNoMPI. types.go is shared by both builds.
package mpi
