package osu

import (
	"bytes"
	"slices"
	"testing"
)

// TestParseAtom: the atomic tests' defaults (osu_get_acc_latency create
// and lock, the others allocate and flush) and their option strings
// (-c and -T where OSU's show_validation adds "cT:").
func TestParseAtom(t *testing.T) {
	for _, c := range []struct {
		args      []string
		win, sync string
		types     []string
	}{
		{[]string{"osu_acc_latency", "-T", "all", "-c"}, "allocate", "flush", typeNames},
		{[]string{"get_acc_latency"}, "create", "lock", []string{"MPI_CHAR"}},
		{[]string{"osu_fop_latency", "-s", "fence", "-T", "mpi_float"}, "allocate", "fence", []string{"MPI_FLOAT"}},
		{[]string{"osu_cas_latency", "-w", "dynamic", "-s", "lock_all"}, "dynamic", "lock_all", []string{"MPI_CHAR"}},
	} {
		o, err := Parse(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if o.Win != c.win || o.Sync != c.sync || !slices.Equal(o.Types, c.types) || o.Iterations != 10000 {
			t.Errorf("%v: %+v", c.args, o)
		}
	}
	for _, args := range [][]string{{"osu_get_acc_latency", "-c"}, {"osu_get_acc_latency", "-T", "all"},
		{"osu_cas_latency", "-z"}, {"osu_get_acc_latency", "-z"}, {"osu_acc_latency", "-W", "4"}} {
		if _, err := Parse(args); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
}

// TestAtomCounts: osu_acc_latency's large counts above 8192 bytes stay
// for the later datatypes, its lock warm-up is iterations_large;
// osu_fop_latency keeps the small counts.
func TestAtomCounts(t *testing.T) {
	count := func(args []string, table int, size int64) [2]int {
		o, err := Parse(args)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Lookup(o.Bench)
		r := &Run{Opts: o, Bench: b, Table: table}
		i, s := r.counts(size)
		return [2]int{i, s}
	}
	acc := []string{"osu_acc_latency", "-m", "1:16384", "-T", "all"}
	for _, c := range []struct {
		args  []string
		table int
		size  int64
		want  [2]int
	}{
		{acc, 0, 8192, [2]int{10000, 100}},
		{acc, 0, 16384, [2]int{1000, 10}},
		{acc, 1, 4, [2]int{1000, 10}},
		{append(acc, "-s", "lock"), 0, 16384, [2]int{1000, 1000}},
		{[]string{"osu_acc_latency", "-m", "1:8192", "-T", "all"}, 2, 4, [2]int{10000, 100}},
		{[]string{"osu_get_acc_latency"}, 0, 16384, [2]int{1000, 10}},
		{[]string{"osu_fop_latency", "-T", "all"}, 2, 4, [2]int{10000, 100}},
	} {
		if got := count(c.args, c.table, c.size); got != c.want {
			t.Errorf("%v table %d size %d: %v, want %v", c.args, c.table, c.size, got, c.want)
		}
	}
}

// TestAtomSummary: OSU's blocks, nodes latest first, MPI_FLOAT cut to
// MPI_FLOA, trials numbered across a datatype's sizes.
func TestAtomSummary(t *testing.T) {
	r := &Run{TypeName: "MPI_CHAR"}
	r.addTrials(0, 5, 0, 0, 0)
	r.addTrials(1, 5, 0, 0, 0)
	r.TypeName = "MPI_FLOAT"
	r.addTrials(0, 5, 0, 0, 0)
	r.addTrials(1, 5, 2, 2, 4)
	r.addTrials(0, 5, 0, 0, 0)
	r.addTrials(1, 5, 1, 3, 3)
	var buf bytes.Buffer
	tx := NewText(&buf)
	if _, err := tx.atomSummary(r.atomSum, 2); err != nil {
		t.Fatal(err)
	}
	d := "-------------------------------------------\n"
	want := d + "Atomic Data Validation results for Rank=0:\n" +
		"PASSED: All 2 combinations of ops and datatypes tested passed.\n" + d +
		d + "Atomic Data Validation results for Rank=1:\n" +
		"FAILED: MPI_SUM on MPI_FLOA had 3 of 10 tests fail data validation.\n" +
		"\t\tFirst failure at trial 2, last failure at trial 8.\n" +
		"FAILED: 1 of the 2 combinations of ops and datatypes tested failed.\n" + d
	if buf.String() != want {
		t.Errorf("have\n%s\nwant\n%s", buf.String(), want)
	}
}
