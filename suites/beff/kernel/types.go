package kernel

import "mpibench/mpi"

// Method is one of the three communication methods of b_eff.
type Method int

// The methods, in the order of beff.h.
const (
	Sendrecv Method = iota
	Alltoallv
	Nonblocking
)

// Pad is the slack past the last block that a buffer needs: the mutant
// beff-peer sends from one byte past each block.
const Pad = 64

// Run is one measurement: Loop executions of the pattern with one method
// and messages of Len bytes (the length of the last SetLen).
type Run struct {
	Pattern    *Pattern
	Method     Method
	Len        int
	Send, Recv mpi.Buffer // at least steps·slot + Pad bytes each
	Loop       int
	Warmup     bool // one untimed execution before the barrier
	// Check runs the same loop with the data check of beff.c: every
	// execution sends rank- and execution-dependent bytes and the
	// received ones are verified; the time is then no benchmark data.
	Check bool
}
