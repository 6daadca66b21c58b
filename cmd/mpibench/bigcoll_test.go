package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"mpibench/mpi"
)

// The tests of OSU's collectives at 2 GiB and more (osu/big.go,
// mpi/bigcount.c's mb_bigcoll).

// runOSUColl runs mpibench osu on 2 processes with bin as mutant m (""
// for the real kernels) and returns the records; the exit code must be 3
// under a mutant, else 0.
func runOSUColl(t *testing.T, bin, m string, args ...string) []record {
	t.Helper()
	t.Setenv(mutantEnv, m)
	js := filepath.Join(t.TempDir(), "osu.jsonl")
	argv := launcherArgs(2)
	argv[len(argv)-1] = bin
	argv = append(append(argv, "osu"), args...)
	r := execute(t, mpirunTimeout, launcherPath, append(argv, "-json", js)...)
	noPanic(t, r)
	if want := map[bool]int{true: 3, false: 0}[m != ""]; r.code != want {
		t.Fatalf("%v, mutant %q: want exit code %d, got %s", args, m, want, r)
	}
	return readRecords(t, js)
}

// collRows are the records as bytes:count_mode:defects.
func collRows(recs []record) []string {
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
// The real kernels pass; the osu-coll-short mutant fails at the first
// large-count size, where OSU ends the table.
func TestBigCountOSUColl(t *testing.T) {
	bin := mutantBinary(t)
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	mode := wantCountMode(false)
	for _, test := range [][]string{{"osu_bcast"}, {"osu_reduce", "-T", "mpi_float", "-k", "rotate"},
		{"osu_allreduce", "-T", "mpi_float"}} {
		args := append(slices.Clone(test), "-m", "2056:8224", "-c", "-i", "3", "-x", "1", "-u", "1")
		got := collRows(runOSUColl(t, bin, "", args...))
		want := []string{"2056::false", "4112:" + mode + ":false", "8224:" + mode + ":false"}
		if !slices.Equal(got, want) {
			t.Errorf("%v: records (bytes:count_mode:defects) %v, want %v", args, got, want)
		}
		// From the first large-count size on: the int kernels would fail first.
		args = append(slices.Clone(test), "-m", "4112:8224", "-c", "-i", "3", "-x", "1", "-u", "1")
		got = collRows(runOSUColl(t, bin, "osu-coll-short", args...))
		if want := []string{"4112:" + mode + ":true"}; !slices.Equal(got, want) {
			t.Errorf("%v, osu-coll-short: records %v, want %v", args, got, want)
		}
	}
}
