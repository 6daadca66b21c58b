//go:build cgo && mutant && !nompi

package mpi

// #include "bigcount.h"
import "C"

import (
	"fmt"
	"os"
)

// BigTestEnv names the test hook of the mutant build that moves the
// large-count threshold down to small messages, so that a test runs every
// large-count kernel and both the MPI-4 and the derived-type paths
// (bigcount.h) in milliseconds: "BYTES:LIMIT:BLOCK:FORCE" sets the first
// length run by BigRun, the items an int count carries, the items of a
// derived block and, with FORCE 1, the derived type even where MPI-4's
// calls exist.
const BigTestEnv = "MPIBENCH_BIG_TEST"

func init() {
	v := os.Getenv(BigTestEnv)
	if v == "" {
		return
	}
	var bytes, limit, block int64
	var force int
	if n, err := fmt.Sscanf(v, "%d:%d:%d:%d", &bytes, &limit, &block, &force); n != 4 || err != nil || block < 1 {
		fmt.Fprintf(os.Stderr, "mpibench: %s=%q: want BYTES:LIMIT:BLOCK:FORCE\n", BigTestEnv, v)
		os.Exit(2)
	}
	bigBytes = bytes
	C.mb_big_limit, C.mb_big_block, C.mb_big_force = C.longlong(limit), C.longlong(block), C.int(force)
}
