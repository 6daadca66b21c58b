package main

import (
	"fmt"
	"math"

	"mpibench/beff"
	"mpibench/internal/memcheck"
)

// checkMemory stops the run before any buffer is allocated when need is
// more than a process of the smallest node may take, or more than -mem
// (memMB > 0, b_eff and b_eff_io). Every rank computes the same need and
// gets the same min-reduced availability, so all return the same verdict:
// ok, or exit code 2 with rank 0's message.
func checkMemory(env *mpiEnv, need memcheck.Need, memMB int) (code int, ok bool) {
	avail, err := memcheck.Available(env.world)
	if err != nil {
		return env.fail(err), false
	}
	msg := memcheck.Verdict(need, avail, memcheck.NodeLimit)
	if msg == "" && memMB > 0 && int64(memMB) <= math.MaxInt64/beff.MB {
		// -mem is bounded far below the overflow; a larger one limits nothing.
		msg = memcheck.Verdict(need, int64(memMB)*beff.MB, memcheck.MemLimit)
	}
	if msg == "" {
		return 0, true
	}
	if env.world.Rank() == 0 {
		fmt.Fprintf(env.stderr, "mpibench %s: %s\n", env.name, msg)
	}
	return 2, false
}

// pgmpiNeed is the memory one process needs to measure a call on n bytes
// r times: mpi.NewPgmpiCase allocates four vectors of n bytes (send,
// receive, scratch and padded copies) and two arrays of one int per
// process, and the timing keeps four doubles per repetition (the local
// and the reduced times in C, their copy in Go and the sorted copy of the
// summary). The sum saturates at math.MaxInt64 instead of overflowing, so
// that absurd counts are refused, not wrapped round to a small need.
func pgmpiNeed(call string, n, reps, procs int) memcheck.Need {
	b := 4*float64(n) + 8*float64(procs) + 32*float64(reps)
	bytes := int64(math.MaxInt64)
	if b < math.MaxInt64 {
		bytes = int64(b)
	}
	return memcheck.Need{What: fmt.Sprintf("%s at %d bytes on %d processes", call, n, procs), Bytes: bytes}
}
