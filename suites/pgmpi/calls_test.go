package pgmpi

import (
	"fmt"
	"slices"
	"testing"

	"mpibench/suites/pgmpi/kernel"
)

// The names the analysis side relies on, in the order of appendix A.
var wantFunctions = []string{"MPI_Allgather", "MPI_Allreduce", "MPI_Alltoall", "MPI_Bcast", "MPI_Gather",
	"MPI_Reduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Scatter"}

var wantMockups = []string{"Gather_as_Allgather", "Gather_as_Reduce", "Allgather_as_Alltoall",
	"Allgather_as_Allreduce", "Scatter_as_Bcast", "Reduce_as_Allreduce", "Reduce_scatter_as_Allreduce",
	"Bcast_as_Scatter_Allgather", "Allgather_as_Gather_Bcast", "Allreduce_as_Reduce_Bcast",
	"Allreduce_as_Reduce_scatter_block_Allgather", "Reduce_as_Reduce_scatter_block_Gather",
	"Reduce_scatter_block_as_Reduce_Scatter", "Scan_as_Exscan_Reduce_local", "Reduce_scatter_as_Reduce_Scatterv"}

func TestCallTable(t *testing.T) {
	if len(Calls) != int(kernel.Calls) {
		t.Fatalf("%d calls, C has %d", len(Calls), kernel.Calls)
	}
	for i, c := range Calls {
		if int(c.Kernel) != i {
			t.Errorf("%s: kernel %d at row %d", c.Name, c.Kernel, i)
		}
		if i < len(wantFunctions) {
			if c.Name != wantFunctions[i] || c.Class() != "function" || c.Emulates != c.Name {
				t.Errorf("row %d: %+v, want function %s", i, c, wantFunctions[i])
			}
			continue
		}
		j := i - len(wantFunctions)
		if c.Name != wantMockups[j] || c.Class() != "mockup" || c.Guideline != fmt.Sprintf("GL%d", j+3) {
			t.Errorf("row %d: %+v, want mock-up %s of GL%d", i, c, wantMockups[j], j+3)
		}
		if e := Find(c.Emulates); e == nil || e.Class() != "function" || !slices.Contains(wantFunctions, c.Emulates) {
			t.Errorf("%s emulates %q, not a function of the table", c.Name, c.Emulates)
		}
	}
}

func TestFindAndParseCalls(t *testing.T) {
	if c := Find("mpi_bcast"); c == nil || c.Name != "MPI_Bcast" {
		t.Errorf("Find(mpi_bcast) = %v", c)
	}
	cs, err := ParseCalls("MPI_Scan, gather_as_reduce,MPI_Scan")
	if err != nil || len(cs) != 2 || cs[0].Name != "MPI_Scan" || cs[1].Name != "Gather_as_Reduce" {
		t.Errorf("ParseCalls = %v, %v", cs, err)
	}
	if _, err := ParseCalls("MPI_Foo"); err == nil {
		t.Error("ParseCalls(MPI_Foo): no error")
	}
	if cs, _ := ParseCalls(""); len(cs) != 25 {
		t.Errorf("ParseCalls(\"\"): %d calls", len(cs))
	}
}

func TestVolume(t *testing.T) {
	for _, c := range []struct{ n, p, want int }{
		{0, 4, 0}, {1, 4, 16}, {16, 4, 16}, {17, 4, 32}, {1, 2, 8}, {100, 2, 104}, {4, 1, 4}, {5, 1, 8},
	} {
		if got := Volume(c.n, c.p); got != c.want {
			t.Errorf("Volume(%d, %d) = %d, want %d", c.n, c.p, got, c.want)
		}
	}
	out, dropped := Volumes([]int{1, 8, 16, 17, 32}, 4)
	if !slices.Equal(out, []int{16, 32}) || !slices.Equal(dropped, []int{8, 16, 32}) {
		t.Errorf("Volumes = %v, dropped %v", out, dropped)
	}
}

// TestExpected checks the reference results against values worked out by
// hand for p = 2 and 4 ints (blocks of 2); input(r, i) = r*1000003 + i + 1.
func TestExpected(t *testing.T) {
	const a = 1000003 // rank 1's offset
	cases := []struct {
		call string
		rank int
		want []int32
	}{
		{"MPI_Bcast", 1, []int32{1, 2, 3, 4}},
		{"MPI_Gather", 0, []int32{1, 2, a + 1, a + 2}},
		{"MPI_Gather", 1, []int32{}},
		{"MPI_Scatter", 1, []int32{3, 4}},
		{"MPI_Allgather", 1, []int32{1, 2, a + 1, a + 2}},
		{"MPI_Alltoall", 0, []int32{1, 2, a + 1, a + 2}},
		{"MPI_Alltoall", 1, []int32{3, 4, a + 3, a + 4}},
		{"MPI_Reduce", 0, []int32{a + 2, a + 4, a + 6, a + 8}},
		{"MPI_Reduce", 1, []int32{}},
		{"MPI_Allreduce", 1, []int32{a + 2, a + 4, a + 6, a + 8}},
		{"MPI_Reduce_scatter", 1, []int32{a + 6, a + 8}},
		{"MPI_Reduce_scatter_block", 0, []int32{a + 2, a + 4}},
		{"MPI_Scan", 0, []int32{1, 2, 3, 4}},
		{"MPI_Scan", 1, []int32{a + 2, a + 4, a + 6, a + 8}},
		{"Gather_as_Reduce", 0, []int32{1, 2, a + 1, a + 2}},
		{"Scan_as_Exscan_Reduce_local", 1, []int32{a + 2, a + 4, a + 6, a + 8}},
	}
	for _, c := range cases {
		if got := Find(c.call).Expected(c.rank, 2, 4); !slices.Equal(got, c.want) {
			t.Errorf("%s on rank %d: %v, want %v", c.call, c.rank, got, c.want)
		}
	}
}

// TestMismatch: the verification can fail. A call that leaves its output
// as prepared (all -1) never matches, since every expected int differs
// from -1 at small volumes.
func TestMismatch(t *testing.T) {
	if bad, first := Mismatch([]int32{1, 2, 3}, []int32{1, 5, 3, -1}, 2); bad != 1 || first != "rank 2: int 1 wrong, want 2" {
		t.Errorf("Mismatch = %d, %q", bad, first)
	}
	if bad, _ := Mismatch([]int32{1, 2}, []int32{1, 2, 9}, 0); bad != 0 {
		t.Errorf("equal defined part: %d wrong", bad)
	}
	for _, c := range Calls {
		for _, p := range []int{2, 4} {
			for rank := 0; rank < p; rank++ {
				want := c.Expected(rank, p, 8*p)
				untouched := make([]int32, 8*p)
				for i := range untouched {
					untouched[i] = -1
				}
				if bad, _ := Mismatch(want, untouched, rank); bad != len(want) {
					t.Errorf("%s p=%d rank %d: untouched output passes %d of %d ints", c.Name, p, rank, len(want)-bad, len(want))
				}
			}
		}
	}
}
