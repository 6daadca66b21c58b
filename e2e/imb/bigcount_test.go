package imb

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
)

// bigBenchmarks are mpi1's benchmarks with a large-count kernel.
var bigBenchmarks = []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Reduce", "Allreduce"}

// runBig runs mpi1 -check on 2 processes with bin as mutant m ("" for the
// real kernels) at the lengths of the -msglen file lens, -msglog 32, and
// returns the records; the exit code must be 3 under a mutant, else 0.
func runBig(t *testing.T, bin, m, lens string, extra ...string) []e2e.Record {
	t.Helper()
	t.Setenv(e2e.MutantEnv, m)
	js := filepath.Join(t.TempDir(), "big.jsonl")
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = bin
	argv = append(argv, "mpi1", "-check", "-msglog", "32", "-msglen", lens, "-json", js)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, extra...)...)
	e2e.NoPanic(t, r)
	if want := map[bool]int{true: 3, false: 0}[m != ""]; r.Code != want {
		t.Fatalf("mutant %q: want exit code %d, got %s", m, want, r)
	}
	return e2e.ReadRecords(t, js)
}

// TestBigCountKernels runs every large-count kernel with the test hook of
// the mutant build (mpi/bigcount_mutant.go) that moves the threshold to
// 4096 bytes, the int limit to 100 items and the derived block to 64
// items: lengths below, at and past the threshold, with and without a
// remainder after the blocks, through MPI-4's calls (MPICH) and the
// derived types (both MPIs). The real kernels deliver every byte; every
// mutant is caught at every large-count length.
func TestBigCountKernels(t *testing.T) {
	bin := e2e.MutantBinary(t)
	lens := e2e.Lengths(t, 100, 4095, 4096, 5000, 9999)
	// 4 repetitions: enough for the root to rotate and for first-only.
	quick := []string{"-iter", "4", "-time", "off", "-warm_up", "off"}
	forces := []bool{false}
	if mpi.Flavor == "mpich" {
		forces = append(forces, true) // MPICH runs the derived types too
	}
	for _, force := range forces {
		t.Setenv(mpi.BigTestEnv, "4096:100:64:"+map[bool]string{false: "0", true: "1"}[force])
		for _, r := range runBig(t, bin, "", lens, append(quick, bigBenchmarks...)...) {
			want := ""
			if r.Bytes >= 4096 {
				want = e2e.WantCountMode(force)
			}
			if r.Defects != 0 || r.CountMode != want {
				t.Errorf("force %v: %v count_mode %q, want no defects and %q", force, r, r.CountMode, want)
			}
		}
	}
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	for _, c := range []struct {
		mutant  string
		benches []string
	}{
		{"wrong-rank", []string{"PingPong", "PingPing", "Sendrecv", "Exchange"}},
		{"no-rotation", []string{"Bcast", "Reduce"}},
		{"short-reduce", []string{"Reduce", "Allreduce"}},
		{"first-only", bigBenchmarks},
	} {
		recs := runBig(t, bin, c.mutant, lens, append(quick, c.benches...)...)
		n := 0
		for _, r := range recs {
			if r.Bytes >= 4096 {
				n++
				if r.Defects <= 0 {
					t.Errorf("mutant %s passed -check: %v", c.mutant, r)
				}
			}
		}
		if n != 3*len(c.benches) {
			t.Errorf("mutant %s: %d records at 4096 bytes and more, want %d", c.mutant, n, 3*len(c.benches))
		}
	}
}

// TestBigCountOver2GiB sends 2 GiB + 8 bytes for real: PingPong and Bcast
// with -check, one repetition (IMB's count at this length), one buffer of
// 2 GiB + 8 per rank (4 GiB for the job); then the wrong-rank mutant's
// PingPong, whose every byte rank 0 must find wrong.
func TestBigCountOver2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 4 GiB test")
	}
	const x = 1<<31 + 8
	e2e.NeedAvailable(t, 5<<30)
	lens := e2e.Lengths(t, x)
	quick := []string{"-time", "off", "-warm_up", "off"}
	recs := runBig(t, e2e.Bin(), "", lens, append(quick, "PingPong", "Bcast")...)
	var got []string
	for _, r := range recs {
		got = append(got, r.Benchmark)
		if r.Bytes != x || r.Reps != 1 || r.Defects != 0 || r.CountMode != e2e.WantCountMode(false) {
			t.Errorf("%v count_mode %q: want %d bytes, 1 repetition, no defects, %q", r, r.CountMode, x, e2e.WantCountMode(false))
		}
	}
	if !slices.Equal(got, []string{"PingPong", "Bcast"}) {
		t.Errorf("records of %v, want PingPong and Bcast", got)
	}
	if e2e.SecondMPI() { // e2e.Mutation
		return
	}
	recs = runBig(t, e2e.MutantBinary(t), "wrong-rank", lens, append(quick, "PingPong")...)
	if len(recs) != 1 || recs[0].Defects != x {
		t.Errorf("wrong-rank mutant at %d bytes: %v, want %d defects (all of rank 0's bytes)", x, recs, x)
	}
}

// TestBigCountMemory: a plan whose only length does not fit stops before
// any allocation, on every rank, naming the need and what is available
// (with shorter lengths that fit, the 4 GiB one would be left out with a
// line and a record: TestMemFitNode).
func TestBigCountMemory(t *testing.T) {
	e2e.SetFakeMem(t, "3000")
	r := e2e.Launch(t, 2, "mpi1", "-msglog", "32", "-msglen", e2e.Lengths(t, 1<<32), "PingPong")
	e2e.NoPanic(t, r)
	want := "PingPong at 4294967296 bytes on 2 processes needs 4096.0 MiB per process; this node has 1500.0 MiB per process available"
	if r.Code != 2 || !strings.Contains(r.Stderr, want) {
		t.Errorf("want exit 2 and %q, got %s", want, r)
	}
}
