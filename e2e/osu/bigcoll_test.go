package osu

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
)

// The tests of OSU's collectives at 2 GiB and more (osu/big.go,
// mpi/bigcount.c's mb_bigcoll).

// runOSUColl runs mpibench osu on 2 processes with bin as mutant m (""
// for the real kernels) and returns the records; the exit code must be 3
// under a mutant, else 0.
func runOSUColl(t *testing.T, bin, m string, args ...string) []e2e.Record {
	t.Helper()
	_, js := runOSUMutant(t, bin, m, args...)
	return e2e.ReadRecords(t, js)
}

// runOSUMutant runs mpibench osu on 2 processes with bin as mutant m and
// returns the run and its results file; the exit code must be 3 under a
// mutant, else 0.
func runOSUMutant(t *testing.T, bin, m string, args ...string) (e2e.Result, string) {
	t.Helper()
	t.Setenv(e2e.MutantEnv, m)
	js := filepath.Join(t.TempDir(), "osu.jsonl")
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = bin
	argv = append(append(argv, "osu"), args...)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, "-json", js)...)
	e2e.NoPanic(t, r)
	if want := map[bool]int{true: 3, false: 0}[m != ""]; r.Code != want {
		t.Fatalf("%v, mutant %q: want exit code %d, got %s", args, m, want, r)
	}
	return r, js
}

// collRows are the records as bytes:count_mode:defects.
func collRows(recs []e2e.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprintf("%d:%s:%v", r.Bytes, r.CountMode, r.Defects > 0))
	}
	return out
}

// TestBigCountOSUColl runs osu_bcast, osu_reduce (its root rotating) and
// osu_allreduce with -c past the threshold of the mutant build's test
// hook, lowered to 4096 bytes (a 100-item int limit, derived blocks of
// 64 items): the int kernels at 2056 bytes, the large-count ones at 4112
// and 8224 (4112: a remainder after the blocks, for bytes and floats).
// The real kernels pass (on MPICH through MPI-4's calls and the derived
// types); the osu-coll-short mutant fails at the first
// large-count size, where OSU ends the table.
func TestBigCountOSUColl(t *testing.T) {
	bin := e2e.MutantBinary(t)
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	mode := e2e.WantCountMode(false)
	forces := []bool{false}
	if mpi.Flavor == "mpich" {
		forces = append(forces, true) // MPICH runs the derived types too
	}
	for _, test := range [][]string{{"osu_bcast"}, {"osu_reduce", "-T", "mpi_float", "-k", "rotate"},
		{"osu_allreduce", "-T", "mpi_float"}} {
		args := append(slices.Clone(test), "-m", "2056:8224", "-c", "-i", "3", "-x", "1", "-u", "1")
		for _, force := range forces {
			t.Setenv(mpi.BigTestEnv, "4096:100:64:"+map[bool]string{false: "0", true: "1"}[force])
			got := collRows(runOSUColl(t, bin, "", args...))
			m := e2e.WantCountMode(force)
			want := []string{"2056::false", "4112:" + m + ":false", "8224:" + m + ":false"}
			if !slices.Equal(got, want) {
				t.Errorf("%v: records (bytes:count_mode:defects) %v, want %v", args, got, want)
			}
		}
		t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
		// From the first large-count size on: the int kernels would fail first.
		args = append(slices.Clone(test), "-m", "4112:8224", "-c", "-i", "3", "-x", "1", "-u", "1")
		got := collRows(runOSUColl(t, bin, "osu-coll-short", args...))
		if want := []string{"4112:" + mode + ":true"}; !slices.Equal(got, want) {
			t.Errorf("%v, osu-coll-short: records %v, want %v", args, got, want)
		}
	}
}

// TestBigCountOSUCollOver2GiB runs osu_bcast at 2 GiB + 8 bytes for real
// with -c, one iteration and no warm-up (2 GiB + 8 per rank, 4 GiB for
// the job), then the osu-coll-short mutant's, whose one missing byte
// rank 1 must find. (osu_reduce and osu_allreduce at 2 GiB + 8 bytes are
// 2^29 + 2 floats, an int count: TestBigCountOSUColl runs their
// large-count calls; a real run would cost 6 to 8 GiB and 30 s more.)
func TestBigCountOSUCollOver2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 4 GiB test")
	}
	const x = 1<<31 + 8
	e2e.NeedAvailable(t, 5<<30)
	one := []string{"-m", strconv.Itoa(x) + ":" + strconv.Itoa(x), "-M", "4G", "-c", "-i", "1", "-x", "0", "-u", "0"}
	check := func(recs []e2e.Record, what string, defects float64) {
		t.Helper()
		if len(recs) != 1 || recs[0].Bytes != x || recs[0].Reps != 1 || recs[0].Defects != defects ||
			recs[0].CountMode != e2e.WantCountMode(false) {
			t.Errorf("%s: %v, want one record of %d bytes, 1 iteration, %g defects, count_mode %q", what, recs, x,
				defects, e2e.WantCountMode(false))
		}
	}
	check(runOSUColl(t, e2e.Bin(), "", append([]string{"osu_bcast"}, one...)...), "osu_bcast", 0)
	if !e2e.SecondMPI() { // e2e.Mutation
		check(runOSUColl(t, e2e.MutantBinary(t), "osu-coll-short", append([]string{"osu_bcast"}, one...)...),
			"osu_bcast, osu-coll-short", 1)
	}
}

// TestBigCountOSUCollMemory: osu_allreduce needs its two buffers per
// rank, checked before any allocation, on every rank. 64 GiB, beyond
// this node: were one buffer counted, the fake memory would let it try,
// and the allocation fail.
func TestBigCountOSUCollMemory(t *testing.T) {
	e2e.SetFakeMem(t, "200000")
	r := e2e.Launch(t, 2, "osu", "osu_allreduce", "-T", "mpi_float", "-m", "64G", "-M", "64G")
	e2e.NoPanic(t, r)
	want := "osu_allreduce at 68719476736 bytes needs 131072.0 MiB per process; " +
		"this node has 100000.0 MiB per process available"
	if r.Code != 2 || !strings.Contains(r.Stderr, want) {
		t.Errorf("want exit 2 and %q, got %s", want, r)
	}
}
