package imb

// Integration tests of IMB-MPI1 2021's benchmarks in the mpi1 suite
// (imb/bench2021.go, suites/imb/kernel/kernels2021.c): rows, repetition counts, -check
// with the real loops and with the mutants, and a side-by-side run with
// Intel's IMB-MPI1 2021.11 where its binary is built.

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// benchTable2021 are IMB 2021's additions, in the table's order, written
// down from IMB 2021.11's MPI1_benchmark.cpp independently of package imb.
var benchTable2021 = []benchInfo{
	{"PingPongSpecificSource", "single", "Single Transfer", []string{"MPI_Send", "MPI_Recv"}, false, 1},
	{"PingPongAnySource", "single", "Single Transfer", []string{"MPI_Send", "MPI_Recv", "MPI_ANY_SOURCE"}, false, 1},
	{"PingPingSpecificSource", "single", "Single Transfer", []string{"MPI_Isend", "MPI_Wait", "MPI_Recv"}, false, 1},
	{"PingPingAnySource", "single", "Single Transfer", []string{"MPI_Isend", "MPI_Recv", "MPI_ANY_SOURCE"}, false, 1},
	{"Reduce_local", "collective", "Collective", []string{"MPI_Reduce_local"}, true, 0},
	{"Reduce_scatter_block", "collective", "Collective", []string{"MPI_Reduce_scatter_block"}, true, 0},
	{"Gather", "collective", "Collective", []string{"MPI_Gather"}, false, 0},
	{"Gatherv", "collective", "Collective", []string{"MPI_Gatherv"}, false, 0},
	{"Scatter", "collective", "Collective", []string{"MPI_Scatter"}, false, 0},
	{"Scatterv", "collective", "Collective", []string{"MPI_Scatterv"}, false, 0},
	{"Uniband", "parallel", "Parallel Transfer", []string{"MPI_Isend", "MPI_Irecv", "MPI_Waitall"}, false, 1},
	{"Biband", "parallel", "Parallel Transfer", []string{"MPI_Isend", "MPI_Irecv", "MPI_Waitall"}, false, 2},
}

// mutants2021 are the mutants that break each of them (suites/imb/kernel/kernels2021.c).
var mutants2021 = map[string][]string{
	"wrong-rank": {"PingPongSpecificSource", "PingPongAnySource", "PingPingSpecificSource", "PingPingAnySource",
		"Gather", "Gatherv", "Scatter", "Scatterv", "Uniband"},
	"displ":        {"Gatherv", "Scatterv"},
	"short-reduce": {"Reduce_local", "Reduce_scatter_block"},
	"first-only":   names2021(),
}

func names2021() []string {
	var n []string
	for _, b := range benchTable2021 {
		n = append(n, b.name)
	}
	return n
}

func info2021(t *testing.T, name string) benchInfo {
	t.Helper()
	for _, b := range benchTable2021 {
		if b.name == name {
			return b
		}
	}
	t.Fatalf("unknown benchmark %q", name)
	return benchInfo{}
}

// lengths2021 are the -msglen lengths: 1 byte, no multiple of 4, and 16.
var lengths2021 = []int{1, 3, 16}

const window2021 = "4" // -window_size: small, so Uniband and Biband stay cheap

// counts2021 are the process counts of b in a job of p processes (-npmin
// 2): single transfers on 2, Uniband and Biband on even counts only.
func counts2021(b benchInfo, p int) []int {
	if b.class == "parallel" {
		return expectedCounts(p-p%2, 2, b.class)
	}
	return expectedCounts(p, 2, b.class)
}

// nps2021 are the job sizes: 2 and, with Open MPI, 3 (an idle rank, and
// an odd count that Uniband and Biband round down).
func nps2021() []int {
	if e2e.MaxRanks() >= 3 {
		return []int{2, 3}
	}
	return []int{2}
}

func TestMPI1From2021(t *testing.T) {
	e2e.NeedMPI(t)
	msglen := e2e.Lengths(t, lengths2021...)
	for _, np := range nps2021() {
		t.Run(fmt.Sprintf("real/np%d", np), func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "o.jsonl")
			args := append([]string{"mpi1", "-check", "-msglen", msglen, "-time", "0.05", "-window_size", window2021,
				"-json", js}, names2021()...)
			r := e2e.Launch(t, np, args...)
			e2e.MustSucceed(t, r)
			recs := e2e.ReadRecords(t, js)
			check2021Rows(t, recs, np)
			check2021Tables(t, r.Stdout, recs)
		})
	}
	bin := e2e.MutantBinary(t)
	for m, names := range mutants2021 {
		for _, np := range nps2021() {
			t.Run(fmt.Sprintf("%s/np%d", m, np), func(t *testing.T) {
				t.Setenv(e2e.MutantEnv, m)
				js := filepath.Join(t.TempDir(), "o.jsonl")
				// -iter_policy off -iter 4: four repetitions whatever
				// the load; -time 0.05 could cut a stalled row to the
				// one where first-only hides.
				args := append([]string{"mpi1", "-check", "-msglen", msglen, "-iter_policy", "off", "-iter", "4",
					"-window_size", window2021, "-json", js}, names...)
				r := e2e.LaunchBin(t, bin, np, args...)
				e2e.NoPanic(t, r)
				if r.Code != 3 {
					t.Fatalf("mutant %s: want exit code 3 (defects), got %s", m, r)
				}
				for _, rec := range e2e.ReadRecords(t, js) {
					if rec.Defects <= 0 || rec.Reps != 4 {
						t.Errorf("mutant %s passed -check, or not in 4 repetitions: %v", m, rec)
					}
				}
			})
		}
	}
}

// check2021Rows checks every benchmark's process counts, lengths and
// repetition counts, and that -check found nothing.
func check2021Rows(t *testing.T, recs []e2e.Record, np int) {
	t.Helper()
	if got := benchOrder(recs); !slices.Equal(got, names2021()) {
		t.Errorf("benchmarks ran in order %v, want %v", got, names2021())
	}
	for _, b := range benchTable2021 {
		if got, want := distinctNP(recs, b.name), counts2021(b, np); !slices.Equal(got, want) {
			t.Errorf("%s: process counts %v, want %v", b.name, got, want)
		}
		for _, q := range distinctNP(recs, b.name) {
			var lens []int
			for _, rec := range selectRecs(recs, b.name, q) {
				lens = append(lens, rec.Bytes)
				if rec.Class != b.class || rec.Defects != 0 || !rec.Check {
					t.Errorf("%v: class %q check %v, want %q, no defects", rec, rec.Class, rec.Check, b.class)
				}
				// -time may cut repetitions, never below 1 or above IMB's count
				if rec.Reps < 1 || rec.Reps > expectedReps(rec.Bytes) {
					t.Errorf("%v: %d repetitions, want 1..%d", rec, rec.Reps, expectedReps(rec.Bytes))
				}
			}
			if want := expectedLengths(b, lengths2021); !slices.Equal(lens, want) {
				t.Errorf("%s np=%d: lengths %v, want %v", b.name, q, lens, want)
			}
		}
	}
}

// rate2021 is the part of a record only Uniband and Biband have.
type rate2021 struct {
	Benchmark string  `json:"benchmark"`
	Bytes     int     `json:"bytes"`
	NP        int     `json:"np"`
	MBps      float64 `json:"mbytes_per_sec"`
	MsgRate   float64 `json:"msg_rate"`
	Window    int     `json:"window"`
}

// check2021Tables checks the table shapes of IMB 2021 (Uniband and
// Biband: Mbytes/sec and Msg/sec) against the records.
func check2021Tables(t *testing.T, out string, recs []e2e.Record) {
	t.Helper()
	tabs := e2e.ParseTables(t, out)
	for _, tab := range tabs {
		b := info2021(t, tab.Title)
		want := []string{"#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "defects"}
		switch b.class {
		case "single":
			want = []string{"#bytes", "#repetitions", "t[usec]", "Mbytes/sec", "defects"}
		case "parallel":
			want = []string{"#bytes", "#repetitions", "Mbytes/sec", "Msg/sec", "defects"}
		}
		if !slices.Equal(tab.Columns, want) {
			t.Errorf("%s: columns %v, want %v", tab.Title, tab.Columns, want)
		}
		if b.class == "parallel" {
			for _, row := range tab.Rows {
				if rate, err := strconv.ParseFloat(row[3], 64); err != nil || rate <= 0 {
					t.Errorf("%s: row %v has no message rate", tab.Title, row)
				}
			}
		}
	}
	if len(tabs) == 0 {
		t.Error("no tables")
	}
}

// TestMPI1From2021Rates checks Uniband's and Biband's records: the window,
// the message rate and Mbytes/sec = rate · bytes / 10^6.
func TestMPI1From2021Rates(t *testing.T) {
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-msglen", e2e.Lengths(t, 0, 64), "-time", "0.05", "-window_size", window2021,
		"-json", js, "Uniband", "Biband")
	e2e.MustSucceed(t, r)
	recs := e2e.ReadJSONL[rate2021](t, js)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4 (2 benchmarks, 2 lengths)", len(recs))
	}
	for _, rec := range recs {
		want := rec.MsgRate * float64(rec.Bytes) / 1e6
		if rec.Window != 4 || rec.MsgRate <= 0 || math.Abs(rec.MBps-want) > 1e-9*want+1e-12 {
			t.Errorf("%+v: want window 4, a message rate and %g MB/s", rec, want)
		}
	}
}

// TestMPI1From2021DefaultList: without names, mpi1 runs IMB 3.0's list
// only; a named 2021 benchmark is accepted (the IMB 3.0 list itself is
// TestCheckAllBenchmarks's).
func TestMPI1From2021DefaultList(t *testing.T) {
	e2e.NeedMPI(t)
	r := e2e.Launch(t, 2, "mpi1", "-msglen", e2e.Lengths(t, 1), "-time", "0.01", "Barrier", "Gather")
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stdout, "# List of Benchmarks to run:\n\n# Barrier\n# Gather\n") {
		t.Errorf("stdout lacks the list Barrier, Gather:\n%s", e2e.Tail(r.Stdout, 2000))
	}
}

// peerIMB is Intel's IMB-MPI1 2021.11 built by /work/shared/peers/build.sh
// for this MPI, or "" when it is not there.
func peerIMB() string { return e2e.PeerBinary("IMB-MPI1") }

// TestMPI1From2021MatchesIMB runs Intel's IMB-MPI1 2021.11 and mpibench on
// the same plan (lengths, 100 repetitions, window 4) and requires the
// same tables: benchmark, process count, and every row's length and
// repetition count (mpibench's default of 1000: TestMPI1From2021). IMB prints a length that rounds to one before it (a
// reduction's 1 and 3 bytes are 4) twice; mpibench measures it once
// (imb.AdjustLengths), so repeated rows are compared once.
func TestMPI1From2021MatchesIMB(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-MPI1", peerIMB(), "")
	msglen := e2e.Lengths(t, lengths2021...)
	for _, np := range nps2021() {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			theirs := runPeer(t, peer, np, append([]string{"-msglen", msglen, "-iter", "100", "-iter_policy", "off",
				"-time", "100", "-window_size", window2021}, names2021()...))
			js := filepath.Join(t.TempDir(), "o.jsonl")
			r := e2e.Launch(t, np, append([]string{"mpi1", "-msglen", msglen, "-iter", "100", "-iter_policy", "off",
				"-time", "off", "-window_size", window2021, "-json", js}, names2021()...)...)
			e2e.MustSucceed(t, r)
			ours := map[string][]string{}
			for _, rec := range e2e.ReadRecords(t, js) {
				key := fmt.Sprintf("%s np=%d", rec.Benchmark, rec.NP)
				ours[key] = append(ours[key], fmt.Sprintf("%d/%d", rec.Bytes, rec.Reps))
			}
			if fmt.Sprint(ours) != fmt.Sprint(theirs) {
				t.Errorf("rows (bytes/reps) differ\n mpibench: %v\n IMB-MPI1: %v", ours, theirs)
			}
		})
	}
}

// runPeer runs IMB-MPI1 and returns its rows, bytes/reps by table.
func runPeer(t *testing.T, peer string, np int, args []string) map[string][]string {
	t.Helper()
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
	if r.Code != 0 {
		t.Fatalf("IMB-MPI1: %s", r)
	}
	rows := map[string][]string{}
	for _, tab := range e2e.ParseTables(t, r.Stdout) {
		n := 0
		for _, h := range tab.Head {
			if _, v, ok := strings.Cut(h, "#processes = "); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		key := fmt.Sprintf("%s np=%d", tab.Title, n)
		for _, row := range tab.Rows {
			cell := row[0] + "/" + row[1]
			if l := rows[key]; len(l) == 0 || l[len(l)-1] != cell {
				rows[key] = append(rows[key], cell)
			}
		}
	}
	return rows
}

// TestWindowSizeBadInput: a bad -window_size stops every rank with exit
// code 2 and names the flag (given to another suite too: suites/imb's
// TestFlagErrors).
func TestWindowSizeBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	for _, args := range [][]string{{"mpi1", "Uniband", "-window_size", "0"}} {
		r := e2e.Launch(t, 2, args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, "-window_size") {
			t.Errorf("%v: want exit code 2 and a message naming -window_size, got %s", args, r)
		}
	}
}
