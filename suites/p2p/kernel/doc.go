// Package kernel holds the timed C loops of IMB-P2P (p2p.h) and their Go
// side. It is a cgo package of its own: the communicator comes as a
// Fortran handle (mpi.Comm.Fortran), turned back in C when a case is set
// up, and the C shares package mpi's headers and C (check.h, chk.h,
// mutant.h, settle.h). Built without MPI, nompi.go stands in.
package kernel
