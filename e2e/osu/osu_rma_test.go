package osu

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// rmaCases are the one-sided tests and flags the shape test runs: each
// test once, each synchronisation and each window creation at least once
// (flush, the default, in TestOSURMAFigures and osu_get_mbw's second
// case, which also runs osu_get_bw's loops on 3 ranks).
var rmaCases = []struct {
	bench string
	flags []string
	win   string
	sync  string
	np    int // 0: 2
}{
	{"osu_put_latency", []string{"-s", "fence", "-w", "create"}, "create", "fence", 0},
	{"osu_get_latency", []string{"-s", "pscw", "-w", "dynamic", "-z"}, "dynamic", "pscw", 0},
	{"osu_put_bw", []string{"-s", "LOCK", "-W", "4"}, "allocate", "lock", 0},
	{"osu_get_bw", []string{"-s", "flush_local", "-w", "create", "-W", "4", "-z50,99"}, "create", "flush_local", 0},
	{"osu_put_bibw", []string{"-s", "fence", "-w", "dynamic", "-W", "4"}, "dynamic", "fence", 0},
	// osu_get_mbw's pairs under pscw (a rate column no header names) and
	// osu_get_multi_lat's (its own header, no datatype line, -s ignored).
	{"osu_get_mbw", []string{"-s", "pscw", "-W", "4", "-z"}, "allocate", "pscw", 4},
	{"osu_get_mbw", []string{"-s", "lock_all", "-W", "2"}, "allocate", "lock_all", 3},
	{"osu_get_multi_lat", []string{"-s", "flush", "-w", "create"}, "create", "pscw", 4},
	// The atomic tests: a table per datatype, each with
	// print_header_one_sided's lines; osu_fop_latency and
	// osu_cas_latency one row at the datatype's size;
	// osu_get_acc_latency's own header and defaults (create, lock).
	{"osu_acc_latency", []string{"-T", "all"}, "allocate", "flush", 0},
	{"osu_acc_latency", []string{"-s", "lock", "-w", "create"}, "create", "lock", 0},
	{"osu_get_acc_latency", nil, "create", "lock", 0},
	{"osu_get_acc_latency", []string{"-s", "pscw", "-w", "dynamic"}, "dynamic", "pscw", 0},
	{"osu_fop_latency", []string{"-s", "flush_local", "-T", "mpi_int", "-z"}, "allocate", "flush_local", 0},
	// MPI_Compare_and_swap on MPI_FLOAT (-T all) is refused by MPICH, as
	// MPI allows it on integer, logical and byte types only.
	{"osu_cas_latency", []string{"-s", "fence", "-T", "mpi_char", "-T", "mpi_int"}, "allocate", "fence", 0},
}

// TestOSURMAShape: the one-sided tests print what OSU 7.4's binaries
// print for the same flags (title, window and synchronisation lines,
// datatype, columns, sizes from 1), every row is one of the records, and
// the records name the window and the synchronisation.
func TestOSURMAShape(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range rmaCases {
		np := min(max(c.np, 2), e2e.MaxRanks())
		args := append([]string{"-m", "1:16", "-i", "4", "-x", "1"}, c.flags...)
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		ours := e2e.Launch(t, np, append([]string{"osu", c.bench, "-json", js}, args...)...)
		e2e.MustSucceed(t, ours)
		recs := e2e.ReadJSONL[osuRecord](t, js)
		osuRecordsMatch(t, c.bench, ours.Stdout, recs)
		for _, r := range recs {
			if r.OSU.Win != c.win || r.OSU.Sync != c.sync {
				t.Errorf("%s %v: record names window %q and sync %q, want %q and %q", c.bench, c.flags,
					r.OSU.Win, r.OSU.Sync, c.win, c.sync)
			}
		}
		sameShapeAsOSU(t, c.bench, np, args, ours.Stdout)
	}
}

// TestOSURMAFigures: the one-sided figures follow OSU's formulas from
// the per-iteration times: latency their sum over the iterations, halved
// under fence and pscw (an operation each way per iteration);
// bandwidth size·window·iterations/10^6 over their sum, doubled for
// osu_put_bibw.
func TestOSURMAFigures(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct {
		bench, sync string
		per         float64 // µs per sample µs (latency), or MB per sample second (bandwidth)
	}{
		{"osu_put_latency", "flush", 1},
		{"osu_get_latency", "fence", 0.5},
		{"osu_put_bw", "lock", 8.0 * 3 / 1e6},
		{"osu_put_bibw", "pscw", 2 * 8.0 * 3 / 1e6},
	} {
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		args := []string{"osu", c.bench, "-m", "8:8", "-i", "10", "-x", "2", "-s", c.sync, "--samples", "-json", js}
		if strings.Contains(c.bench, "bw") {
			args = append(args, "-W", "3")
		}
		e2e.MustSucceed(t, e2e.Launch(t, 2, args...))
		recs := e2e.ReadJSONL[osuRecord](t, js)
		if len(recs) != 1 || len(recs[0].Samples) != 10 {
			t.Fatalf("%s: want one record with 10 samples, have %+v", c.bench, recs)
		}
		var sum float64
		for _, x := range recs[0].Samples {
			sum += x
		}
		// The samples lie within the loop's time, which also counts the
		// clock reads between them: the figure is bounded by theirs.
		r := recs[0]
		if strings.HasSuffix(c.bench, "latency") {
			if want := sum * c.per / 10; r.TAvg < want*(1-1e-9) || r.TAvg > want*1.5+0.5 {
				t.Errorf("%s -s %s: %v µs, want about %v from the samples %v", c.bench, c.sync, r.TAvg, want, r.Samples)
			}
			continue
		}
		if want := c.per * 10 / (sum / 1e6); r.MBps > want*(1+1e-9) || r.MBps < want/1.5 {
			t.Errorf("%s -s %s: %v MB/s, want about %v from the samples %v", c.bench, c.sync, r.MBps, want, r.Samples)
		}
	}
}

// TestOSURMABadInput: what a one-sided test cannot run is refused by
// name, with exit code 2 and no table.
func TestOSURMABadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		// One refusal of the options (TestParseRMA has the others) and the
		// one made after MPI_Init, on the process count.
		{[]string{"osu", "put_bibw", "-s", "flush"}, "osu_put_bibw takes pscw or fence"},
		{[]string{"osu", "get_mbw", "-s", "pscw"}, "needs an even number of them under pscw, have 3"},
		{[]string{"osu", "get_acc_latency", "-c"}, "invalid option -c"},
		{[]string{"osu", "get_acc_latency", "-T", "all"}, "invalid option -T"},
		{[]string{"osu", "cas_latency", "-z"}, "tail figures are not reproduced"},
		{[]string{"osu", "acc_latency", "-W", "2"}, "invalid option -W"},
		{[]string{"osu", "fop_latency", "-s", "flushall"}, "want pscw, fence, lock, flush, flush_local or lock_all"},
		{[]string{"osu", "acc_latency", "-T", "mpi_double"}, "want mpi_char, mpi_int, mpi_float or all"},
	} {
		np := 2
		if strings.Contains(c.want, "have 3") {
			np = min(3, e2e.MaxRanks())
			if np < 3 {
				continue
			}
		}
		r := e2e.Launch(t, np, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stdout, "# OSU") {
			t.Errorf("%v: want exit code 2, %q and no header, have %s", c.args, c.want, r)
		}
	}
}

// TestOSUScale runs at 32 ranks the OSU tests whose work spans every
// rank outside the timed loop: osu_get_multi_lat's pairs, osu_init's
// gather of every rank's MPI_Init time, and osu_neighbor_allgather's
// topology, which every rank derives for all ranks. Each writes one
// record per size whatever P (docs/scale.md), with np 32.
func TestOSUScale(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Scale)
	const np = 32
	for _, c := range []struct {
		args []string
		recs int
		line string
	}{
		{[]string{"osu_get_multi_lat", "-m", "1:2", "-i", "2", "-x", "0"}, 2, "# Pairs: 16\n"},
		{[]string{"osu_init"}, 1, "nprocs: 32,"},
		{[]string{"osu_neighbor_allgather", "-m", "1:2", "-i", "2", "-x", "0"}, 2, "# Size"},
	} {
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		r := e2e.Launch(t, np, append(append([]string{"osu"}, c.args...), "-json", js)...)
		e2e.MustSucceed(t, r)
		recs := e2e.ReadJSONL[osuRecord](t, js)
		if len(recs) != c.recs || !strings.Contains(r.Stdout, c.line) {
			t.Fatalf("%s: %d records at %d ranks, want %d, and %q\n%s", c.args[0], len(recs), np, c.recs, c.line, r.Stdout)
		}
		for _, rec := range recs {
			if rec.NP != np || rec.TAvg <= 0 {
				t.Errorf("%s: record %+v: want np %d and a time", c.args[0], rec, np)
			}
			if c.args[0] == "osu_get_multi_lat" && rec.OSU.Pairs != np/2 {
				t.Errorf("osu_get_multi_lat: %d pairs, want %d", rec.OSU.Pairs, np/2)
			}
			if c.args[0] == "osu_init" && len(rec.Samples) != np {
				t.Errorf("osu_init: %d ranks' times in the record, want %d", len(rec.Samples), np)
			}
		}
	}
}
