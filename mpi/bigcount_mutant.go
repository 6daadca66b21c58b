//go:build cgo && mutant && !nompi

package mpi

// #include "bigcount.h"
import "C"

import (
	"fmt"
	"os"
)

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
