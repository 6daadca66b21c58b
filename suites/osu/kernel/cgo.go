//go:build cgo && !nompi

// Package kernel holds the timed C loops of OSU 7.4 that mpibench osu
// runs: the point-to-point loops (osu.h: osu_latency, osu_bw, osu_bibw,
// osu_mbw_mr, osu_multi_lat, osu_latency_mt) and the collective latency
// loops (osucoll.h), with their Go side. It is a cgo package of its own:
// the communicator comes as a Fortran handle (mpi.Comm.Fortran), turned
// back before any timing, and buffers as pointers; the C shares package
// mpi's headers and C (chk.h, check.h, mutant.h, pattern.h, settle.h).
// The loop kinds and results are package mpi's (OSUKind, OSUCollKind,
// OSUResult, OSUCollTimes), which its large-count kernels share.
package kernel

// #cgo !mpich pkg-config: ompi-c
// #cgo mpich pkg-config: mpich
// #cgo mutant CFLAGS: -DMB_MUTANTS
// #cgo CFLAGS: -I${SRCDIR}/../../../mpi
// #cgo LDFLAGS: -lpthread
import "C"
