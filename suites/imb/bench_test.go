package imb

import (
	"slices"
	"testing"
)

// TestBenchmarkTable checks the IMB-MPI1 table against sections 3.2 and
// 3.3: names and order, classes, reductions, throughput factors n_msg and
// the time scale (PingPong reports Δt/2).
func TestBenchmarkTable(t *testing.T) {
	type row struct {
		name      string
		class     Class
		reduction bool
		factor    float64
		timeScale float64
		noBytes   bool
	}
	want := []row{
		{"PingPong", SingleTransfer, false, 1, 0.5, false},
		{"PingPing", SingleTransfer, false, 1, 1, false},
		{"Sendrecv", ParallelTransfer, false, 2, 1, false},
		{"Exchange", ParallelTransfer, false, 4, 1, false},
		{"Bcast", Collective, false, 0, 1, false},
		{"Allgather", Collective, false, 0, 1, false},
		{"Allgatherv", Collective, false, 0, 1, false},
		{"Alltoall", Collective, false, 0, 1, false},
		{"Alltoallv", Collective, false, 0, 1, false},
		{"Reduce", Collective, true, 0, 1, false},
		{"Reduce_scatter", Collective, true, 0, 1, false},
		{"Allreduce", Collective, true, 0, 1, false},
		{"Barrier", Collective, false, 0, 1, true},
	}
	// IMB 3.0's rows first, then IMB 2021's (bench2021_test.go).
	if len(MPI1) != len(want)+len(MPI1From2021) {
		t.Fatalf("MPI1 has %d benchmarks, want %d", len(MPI1), len(want)+len(MPI1From2021))
	}
	for i, w := range want {
		b := MPI1[i]
		got := row{b.Name, b.Class, b.Reduction, b.Factor, b.TimeScale, b.NoBytes}
		if got != w {
			t.Errorf("MPI1[%d] = %+v, want %+v", i, got, w)
		}
		unit, dt := 1, "MPI_BYTE"
		if w.reduction {
			unit, dt = 4, "MPI_FLOAT"
		}
		if w.noBytes {
			dt = "-" // Barrier moves no data
		}
		if b.Unit() != unit || b.Datatype() != dt {
			t.Errorf("%s: unit %d %s, want %d %s", b.Name, b.Unit(), b.Datatype(), unit, dt)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, n := range []string{"pingpong", "PINGPONG", "PingPong", "reduce_SCATTER", "barrier"} {
		b, ok := MPI1Suite.Lookup(n)
		if !ok {
			t.Errorf("MPI1Suite.Lookup(%q) failed", n)
			continue
		}
		if !equalFoldASCII(b.Name, n) {
			t.Errorf("MPI1Suite.Lookup(%q) = %s", n, b.Name)
		}
	}
	for _, n := range []string{"", "Ping", "PingPongs", "Reduce scatter", "Multi-PingPong", "Window"} {
		if b, ok := MPI1Suite.Lookup(n); ok {
			t.Errorf("MPI1Suite.Lookup(%q) = %s, want not found", n, b.Name)
		}
	}
	sorted := MPI1Suite.SortedNames()
	if !slices.IsSorted(sorted) || len(sorted) != 13+len(MPI1From2021) || sorted[0] != "Allgather" {
		t.Errorf("MPI1Suite.SortedNames() = %v", sorted)
	}
	if names := MPI1Suite.Names(); names[0] != "PingPong" || names[12] != "Barrier" {
		t.Errorf("Names() = %v", names)
	}
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
