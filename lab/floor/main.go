//go:build cgo && !nompi

// Command floor is the least a Go rank can be: the body of lab/floor/floor.c
// (MPI_Init, one Allreduce, a second's sleep, MPI_Finalize) called through
// cgo from the main goroutine, locked to the main thread, GOMAXPROCS 1, as
// mpibench calls MPI. Beside floorc (the same body from a C main) it
// measures what the Go runtime alone adds to a rank's memory, the floor
// under any Go benchmark (docs/memory.md, "The Go runtime's floor").
//
//	go build -o floorgo ./lab/floor            (-tags mpich for MPICH)
//	python3 lab/rss.py -watch floorgo TICKS -- mpirun -np 16 ./floorgo
package main

/*
#cgo !mpich pkg-config: ompi-c
#cgo mpich pkg-config: mpich
#include "floor.h"
*/
import "C"

import (
	"os"
	"runtime"
)

func init() { runtime.LockOSThread() }

func main() {
	runtime.GOMAXPROCS(1)
	os.Exit(int(C.floor_run()))
}
