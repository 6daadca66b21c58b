package pgmpi

import (
	"fmt"
	"math"

	"mpibench/run/memcheck"
)

// need is the memory one process needs to measure a call on n bytes r
// times: kernel.NewCase allocates four vectors of n bytes (send,
// receive, scratch and padded copies) and two arrays of one int per
// process, and the timing keeps four doubles per repetition (the local
// and the reduced times in C, their copy in Go and the sorted copy of the
// summary). The sum saturates at math.MaxInt64 instead of overflowing, so
// that absurd counts are refused, not wrapped round to a small need.
func need(call string, n, reps, procs int) memcheck.Need {
	b := 4*float64(n) + 8*float64(procs) + 32*float64(reps)
	bytes := int64(math.MaxInt64)
	if b < math.MaxInt64 {
		bytes = int64(b)
	}
	return memcheck.Need{What: fmt.Sprintf("%s at %d bytes on %d processes", call, n, procs), Bytes: bytes}
}
