package pgmpi

import (
	"fmt"
	"strings"

	"mpibench/suites/pgmpi/kernel"
)

// Call is one MPI function or mock-up of the guidelines.
type Call struct {
	Name      string      // MPI_Allgather, Gather_as_Allgather, ...
	Kernel    kernel.Call // its C implementation
	Guideline string      // GL3..GL17 for a mock-up, "" for a function
	Emulates  string      // the function whose result a mock-up produces; itself for a function
	Uses      []string    // the MPI operations a mock-up is made of
}

// Class is "function" or "mockup", as in the records.
func (c *Call) Class() string {
	if c.Guideline == "" {
		return "function"
	}
	return "mockup"
}

// Calls is the table: the ten functions, then the mock-ups in the order of
// the guidelines (appendix A of the paper).
var Calls = []*Call{
	fn("MPI_Allgather", 0),
	fn("MPI_Allreduce", 1),
	fn("MPI_Alltoall", 2),
	fn("MPI_Bcast", 3),
	fn("MPI_Gather", 4),
	fn("MPI_Reduce", 5),
	fn("MPI_Reduce_scatter", 6),
	fn("MPI_Reduce_scatter_block", 7),
	fn("MPI_Scan", 8),
	fn("MPI_Scatter", 9),
	mock("Gather_as_Allgather", 10, "GL3", "MPI_Gather", "MPI_Allgather"),
	mock("Gather_as_Reduce", 11, "GL4", "MPI_Gather", "MPI_Reduce"),
	mock("Allgather_as_Alltoall", 12, "GL5", "MPI_Allgather", "MPI_Alltoall"),
	mock("Allgather_as_Allreduce", 13, "GL6", "MPI_Allgather", "MPI_Allreduce"),
	mock("Scatter_as_Bcast", 14, "GL7", "MPI_Scatter", "MPI_Bcast"),
	mock("Reduce_as_Allreduce", 15, "GL8", "MPI_Reduce", "MPI_Allreduce"),
	mock("Reduce_scatter_as_Allreduce", 16, "GL9", "MPI_Reduce_scatter", "MPI_Allreduce"),
	mock("Bcast_as_Scatter_Allgather", 17, "GL10", "MPI_Bcast", "MPI_Scatter", "MPI_Allgather"),
	mock("Allgather_as_Gather_Bcast", 18, "GL11", "MPI_Allgather", "MPI_Gather", "MPI_Bcast"),
	mock("Allreduce_as_Reduce_Bcast", 19, "GL12", "MPI_Allreduce", "MPI_Reduce", "MPI_Bcast"),
	mock("Allreduce_as_Reduce_scatter_block_Allgather", 20, "GL13", "MPI_Allreduce", "MPI_Reduce_scatter_block", "MPI_Allgather"),
	mock("Reduce_as_Reduce_scatter_block_Gather", 21, "GL14", "MPI_Reduce", "MPI_Reduce_scatter_block", "MPI_Gather"),
	mock("Reduce_scatter_block_as_Reduce_Scatter", 22, "GL15", "MPI_Reduce_scatter_block", "MPI_Reduce", "MPI_Scatter"),
	mock("Scan_as_Exscan_Reduce_local", 23, "GL16", "MPI_Scan", "MPI_Exscan", "MPI_Reduce_local"),
	mock("Reduce_scatter_as_Reduce_Scatterv", 24, "GL17", "MPI_Reduce_scatter", "MPI_Reduce", "MPI_Scatterv"),
}

func fn(name string, k kernel.Call) *Call {
	return &Call{Name: name, Kernel: k, Emulates: name, Uses: []string{name}}
}

func mock(name string, k kernel.Call, gl, emulates string, uses ...string) *Call {
	return &Call{Name: name, Kernel: k, Guideline: gl, Emulates: emulates, Uses: uses}
}

// Find looks a call up by name, ignoring case.
func Find(name string) *Call {
	for _, c := range Calls {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// ParseCalls reads a comma-separated list of call names; "" or "all" is
// every call, in table order.
func ParseCalls(list string) ([]*Call, error) {
	if list == "" || strings.EqualFold(list, "all") {
		return Calls, nil
	}
	var out []*Call
	seen := map[*Call]bool{}
	for _, name := range strings.Split(list, ",") {
		c := Find(strings.TrimSpace(name))
		if c == nil {
			return nil, fmt.Errorf("unknown call %q", name)
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}

// IntSize is the size of the MPI_INT elements of every buffer.
const IntSize = 4

// Volume is n rounded up to the volume measured on p processes: a multiple
// of IntSize·p bytes, so that every block n/p is a whole number of ints.
func Volume(n, p int) int {
	unit := IntSize * p
	return (n + unit - 1) / unit * unit
}

// Volumes rounds every size with Volume and drops the sizes that round
// to one already in the list; the second result names the dropped ones.
func Volumes(sizes []int, p int) (out, dropped []int) {
	seen := map[int]bool{}
	for _, n := range sizes {
		v := Volume(n, p)
		if seen[v] {
			dropped = append(dropped, n)
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, dropped
}

// Output is the part of the output vector (of count ints) that a call
// defines on a rank of p: n/p ints for MPI_Scatter and the
// Reduce_scatter calls, the whole vector elsewhere, nothing on the
// non-root ranks of MPI_Gather and MPI_Reduce.
func (c *Call) Output(rank, p, count int) int {
	switch c.Emulates {
	case "MPI_Gather", "MPI_Reduce":
		if rank != 0 {
			return 0
		}
	case "MPI_Scatter", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block":
		return count / p
	}
	return count
}

// Expected is the output a call must leave on a rank of p for the input of
// kernel.Input: the result of the emulated function, computed in Go
// (int32 sums wrap as MPI_INT's do in two's complement).
func (c *Call) Expected(rank, p, count int) []int32 {
	b := count / p
	out := make([]int32, c.Output(rank, p, count))
	in := kernel.Input
	for i := range out {
		switch c.Emulates {
		case "MPI_Bcast":
			out[i] = in(0, i)
		case "MPI_Scatter":
			out[i] = in(0, rank*b+i)
		case "MPI_Gather", "MPI_Allgather":
			out[i] = in(i/b, i%b)
		case "MPI_Alltoall":
			out[i] = in(i/b, rank*b+i%b)
		case "MPI_Reduce", "MPI_Allreduce":
			out[i] = sum(p, i)
		case "MPI_Reduce_scatter", "MPI_Reduce_scatter_block":
			out[i] = sum(p, rank*b+i)
		case "MPI_Scan":
			out[i] = sum(rank+1, i)
		}
	}
	return out
}

// sum is the sum over ranks 0..k-1 of the input at index i.
func sum(k, i int) int32 {
	var s int32
	for r := 0; r < k; r++ {
		s += kernel.Input(r, i)
	}
	return s
}
