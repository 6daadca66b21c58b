// Package mpi is mpibench's binding of MPI through cgo (Open MPI by
// default, MPICH with -tags mpich, found through pkg-config): it keeps MPI
// handles opaque, turns return codes into *Error values and holds the timed
// C kernels of the suites without a kernel package of their own (IMB's are
// in suites/imb/kernel, IMB-P2P's in suites/p2p/kernel, links' in
// suites/links/kernel). Every call must come from the OS thread that called
// Init.
//
// Built with -tags nompi or CGO_ENABLED=0, it has no MPI and no C: its Go
// and C files carry the constraint `cgo && !nompi`, nompi.go stands in for
// them and Init returns ErrNoMPI. types.go is shared by both builds.
package mpi
