//go:build cgo && !nompi && imbonly

package mpi

// The IMB family's binary (-tags imbonly; README.md, "Memory") leaves out
// the C kernels of the other suites: their files do not build, and
// MB_IMBONLY drops the few functions of the shared files that call them
// (window.c's SKaMPI loop).

// #cgo CFLAGS: -DMB_IMBONLY
import "C"
