package imb

// Integration tests of mpibench nbc (IMB-NBC of IMB 2021.11): every
// benchmark's rows and overlap figures, -check against the real loops and
// the first-only mutant, -resume, and a row-for-row comparison with
// Intel's IMB-NBC where it has been built.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// nbcCalls are IMB-NBC's default benchmarks in IMB_bnames_nbc.h's order.
var nbcCalls = []string{"Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter", "Iscatterv",
	"Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce", "Ibarrier"}

// nbcPure are the _pure variants of calls.
func nbcPure(calls []string) []string {
	var p []string
	for _, c := range calls {
		p = append(p, c+"_pure")
	}
	return p
}

// nbcRecord is a record with the overlap figures.
type nbcRecord struct {
	e2e.Record
	OverlapFigures `json:"overlap"`
	Calls          string `json:"calls"`
}

// OverlapFigures are the record's "overlap".
type OverlapFigures struct {
	TOvrl     float64 `json:"t_ovrl_us"`
	TPure     float64 `json:"t_pure_us"`
	TCPU      float64 `json:"t_cpu_us"`
	Overlap   float64 `json:"overlap_pct"`
	CPUMflops float64 `json:"cpu_mflops"`
}

// runNBC runs mpibench suite (nbc or mpi4) on np processes with a small
// -time and returns the run and its records.
func runNBC(t *testing.T, bin, suite string, np int, args ...string) (e2e.Result, []nbcRecord) {
	t.Helper()
	js := filepath.Join(t.TempDir(), suite+".jsonl")
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = bin
	argv = append(argv, append([]string{suite, "-time", "0.02", "-json", js}, args...)...)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
	e2e.NoPanic(t, r)
	if _, err := os.Stat(js); err != nil {
		t.Fatalf("no records: %s", r)
	}
	return r, e2e.ReadJSONL[nbcRecord](t, js)
}

// TestNBC runs the default list (np 2) and the _pure variants (np 3 with
// Open MPI, 2 with MPICH) and checks every benchmark's rows: process
// counts, lengths, figures and overlap within IMB's [0, 100].
func TestNBC(t *testing.T) {
	e2e.NeedMPI(t)
	testNBCRows(t, "nbc", nbcCalls)
}

// testNBCRows runs suite's default list, calls (np 2), and their _pure
// variants (np 3 with Open MPI, 2 with MPICH), and checks every
// benchmark's rows and records.
func testNBCRows(t *testing.T, suite string, calls []string) {
	t.Helper()
	lens := e2e.Lengths(t, 0, 4, 64)
	for _, c := range []struct {
		np    int
		names []string
	}{{2, nil}, {min(3, e2e.MaxRanks()), nbcPure(calls)}} {
		want := c.names
		if want == nil {
			want = calls
		}
		r, recs := runNBC(t, e2e.Bin(), suite, c.np, append([]string{"-msglen", lens}, c.names...)...)
		e2e.MustSucceed(t, r)
		var order []string
		for _, rec := range recs {
			if len(order) == 0 || order[len(order)-1] != rec.Benchmark {
				order = append(order, rec.Benchmark)
			}
			checkNBCRecord(t, rec, suite, c.np)
		}
		if !slices.Equal(order, want) {
			t.Errorf("np %d: benchmarks %v, want %v", c.np, order, want)
		}
		for _, b := range want {
			checkNBCRows(t, recs, b, c.np)
		}
		if tabs := e2e.ParseTables(t, r.Stdout); len(tabs) != len(want)*(c.np-1) {
			t.Errorf("np %d: %d tables, want %d", c.np, len(tabs), len(want)*(c.np-1))
		}
	}
}

// checkNBCRows: b has a row at every process count 2..np and every length
// (Ibarrier and Barrier_persist one, without length), in that order.
func checkNBCRows(t *testing.T, recs []nbcRecord, b string, np int) {
	t.Helper()
	var got, want []string
	for _, r := range recs {
		if r.Benchmark == b {
			got = append(got, fmt.Sprintf("np%d/%d", r.NP, r.Bytes))
		}
	}
	for q := 2; q <= np; q++ {
		for _, x := range []int{0, 4, 64} {
			if x == 0 || !strings.Contains(b, "arrier") {
				want = append(want, fmt.Sprintf("np%d/%d", q, x))
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: rows %v, want %v", b, got, want)
	}
}

// checkNBCRecord checks one record's figures: a benchmark shows t_ovrl,
// t_pure, t_CPU and overlap in [0, 100]; a _pure variant t_min <= t_avg
// <= t_max and no overlap figures.
func checkNBCRecord(t *testing.T, r nbcRecord, suite string, procs int) {
	t.Helper()
	if r.Suite != suite || r.Class != "collective" || r.Context.Procs != procs || r.Reps < 1 || r.Reps > 1000 {
		t.Errorf("%v: suite %q class %q procs %d", r, r.Suite, r.Class, r.Context.Procs)
	}
	if strings.HasSuffix(r.Benchmark, "_pure") {
		if r.Mode != "" || r.TOvrl != 0 || !(0 < r.TMin && r.TMin <= r.TAvg && r.TAvg <= r.TMax) {
			t.Errorf("%v: mode %q t_ovrl %g", r, r.Mode, r.TOvrl)
		}
		return
	}
	if r.Mode != "non-blocking" || r.TOvrl <= 0 || r.TPure <= 0 || r.TCPU < 0 || r.TOvrl != r.TMax {
		t.Errorf("%v: mode %q t_ovrl %g t_pure %g t_CPU %g", r, r.Mode, r.TOvrl, r.TPure, r.TCPU)
	}
	if r.Overlap < 0 || r.Overlap > 100 {
		t.Errorf("%v: overlap %g%% outside [0, 100]", r, r.Overlap)
	}
}

// TestNBCCheck: -check finds no defect in the real loops and defects in
// every row of the first-only mutant (every loop honours it; Ibarrier
// moves no data and has no check, as in IMB). Lengths 4 and 64: a
// reduction of 4 bytes carries one float.
func TestNBCCheck(t *testing.T) {
	e2e.NeedMPI(t)
	testNBCCheck(t, "nbc", nbcCalls[:len(nbcCalls)-1])
}

// testNBCCheck runs calls and their _pure variants of suite with -check,
// real and first-only.
func testNBCCheck(t *testing.T, suite string, calls []string) {
	t.Helper()
	bin := e2e.MutantBinary(t)
	lens := e2e.Lengths(t, 4, 64)
	var names []string
	for _, c := range calls {
		names = append(names, c, c+"_pure")
	}
	np := min(3, e2e.MaxRanks())
	for _, m := range []string{"", "first-only"} {
		t.Run(fmt.Sprintf("%s/np%d", cmpOr(m, "real"), np), func(t *testing.T) {
			t.Setenv(e2e.MutantEnv, m)
			// -iter_policy off -iter 20: 20 repetitions whatever the
			// load, none cut by runNBC's -time 0.02 to the 1 where the
			// first-only mutant hides (one loaded MPICH run had
			// Reduce_scatter_persist at 1 repetition, its mutant unseen).
			args := []string{"-iter_policy", "off", "-iter", "20", "-check", "-npmin", strconv.Itoa(np), "-msglen", lens}
			r, recs := runNBC(t, bin, suite, np, append(args, names...)...)
			if want := map[bool]int{false: 0, true: 3}[m != ""]; r.Code != want {
				t.Fatalf("want exit code %d, got %s", want, r)
			}
			if len(recs) != 2*len(names) {
				t.Errorf("%d records, want %d", len(recs), 2*len(names))
			}
			for _, rec := range recs {
				if (m == "") != (rec.Defects == 0) || rec.Reps != 20 {
					t.Errorf("mutant %q: %v", m, rec.Record)
				}
			}
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestNBCResume: a run whose results file lost its last cases resumes
// them and keeps the finished ones as they were.
func TestNBCResume(t *testing.T) {
	e2e.NeedMPI(t)
	testNBCResume(t, "nbc", "Ibcast", "Ibarrier", "Ireduce_pure")
}

// testNBCResume runs suite's bcast, barrier and reduce_pure (7 cases),
// keeps the first 4 records and resumes.
func testNBCResume(t *testing.T, suite, bcast, barrier, reducePure string) {
	t.Helper()
	js := filepath.Join(t.TempDir(), suite+".jsonl")
	args := []string{suite, "-time", "0.02", "-msglen", e2e.Lengths(t, 0, 4, 64), "-json", js, bcast, barrier,
		reducePure}
	e2e.MustSucceed(t, e2e.Launch(t, 2, args...))
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	kept := strings.Join(lines[:5], "") // the run's header and 4 records
	if err := os.WriteFile(js, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "4 finished cases kept") {
		t.Errorf("resume should keep 4 cases:\n%s", r.Stderr)
	}
	after, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(after), kept) {
		t.Errorf("the finished cases changed")
	}
	e2e.AssertOncePerCase(t, js, 7)
}

// TestNBCSideBySide runs mpibench nbc and Intel's IMB-NBC on the same
// plan (every benchmark, lengths 0, 4, 64, IMB's default -time) and
// compares the header lines (headerPattern) and the tables row for row:
// benchmark, process count (np 2, and 3 with Open MPI), column titles,
// length and repetition count.
func TestNBCSideBySide(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-NBC", e2e.PeerBinary("IMB-NBC"), "")
	sideBySide(t, "nbc", peer, append(slices.Clone(nbcCalls), nbcPure(nbcCalls)...),
		[]string{"Igatherv", "Ireduce_scatter", "Ibarrier", "Iscatter_pure"})
}

// sideBySide runs mpibench suite and Intel's peer on lengths 0, 4, 64 at
// np 2 (all) and, with Open MPI, np 3 (few: an idle process at np 2,
// uneven groups, cheap on an oversubscribed node) and compares the header
// lines (headerPattern) and the tables row for row.
func sideBySide(t *testing.T, suite, peer string, all, few []string) {
	t.Helper()
	lens := e2e.Lengths(t, 0, 4, 64)
	for _, np := range slices.Compact([]int{2, min(3, e2e.MaxRanks())}) {
		names := all
		if np > 2 {
			names = few
		}
		ours := e2e.Launch(t, np, append([]string{suite, "-msglen", lens}, names...)...)
		e2e.MustSucceed(t, ours)
		argv := e2e.LauncherArgs(np)
		argv[len(argv)-1] = peer
		theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(append(argv, "-msglen", lens), names...)...)
		e2e.MustSucceed(t, theirs)
		e2e.SameHeader(t, ours.Stdout, filepath.Base(peer), theirs.Stdout)
		sameRows(t, fmt.Sprintf("np %d", np), nbcRows(t, ours.Stdout), filepath.Base(peer), nbcRows(t, theirs.Stdout))
	}
}

// nbcRows lists each table row as "benchmark|head|columns|bytes reps".
func nbcRows(t *testing.T, out string) []string {
	t.Helper()
	var rows []string
	for _, tab := range e2e.ParseTables(t, asAsked(out)) {
		cols := strings.Join(tab.Columns, " ")
		n := 2 // #bytes #repetitions
		if tab.Columns[0] == "#repetitions" {
			n = 1
		}
		for _, r := range tab.Rows {
			rows = append(rows, strings.Join([]string{tab.Title, strings.Join(tab.Head, ";"), cols,
				strings.Join(r[:n], " ")}, "|"))
		}
	}
	return rows
}

// cutLine is the line mpibench writes under a row whose repetitions the
// -time bound lowered (suites/imb/run.go, cutLine): N made of M asked.
var cutLine = regexp.MustCompile(`^#   \^ (\d+) of (\d+) repetitions: lowered by the -time bound`)

// asAsked gives each row above a cut line the repetitions asked (M) in
// place of those made (N), in the repetitions column (the first or, after
// #bytes, the second). The side-by-side tests compare the plans: a loaded
// machine can stretch one of mpibench's samples past IMB 2021's -time of
// 10 s, where IMB's own run a moment later keeps its count (Truly_passive_put
// on 3 oversubscribed ranks, once: 610 of 1000). The cut is marked, and
// the row stands for the plan's M. IMB's output has no cut lines.
func asAsked(out string) string {
	lines := strings.Split(out, "\n")
	for i := 1; i < len(lines); i++ {
		m := cutLine.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		f := strings.Fields(lines[i-1])
		for j := min(2, len(f)) - 1; j >= 0; j-- {
			if f[j] == m[1] {
				f[j] = m[2]
				break
			}
		}
		lines[i-1] = " " + strings.Join(f, " ")
	}
	return strings.Join(lines, "\n")
}

// TestAsAsked: a cut row gets the count asked in its repetitions column,
// even where the length equals the count made; other rows stay.
func TestAsAsked(t *testing.T) {
	in := "#bytes #repetitions t\n 0 1000 1.0\n 64 64 2.0\n#   ^ 64 of 1000 repetitions: lowered by the -time bound, 10 s a sample\n"
	want := "#bytes #repetitions t\n 0 1000 1.0\n 64 1000 2.0\n#   ^ 64 of 1000 repetitions: lowered by the -time bound, 10 s a sample\n"
	if got := asAsked(in); got != want {
		t.Errorf("asAsked:\n%s\nwant\n%s", got, want)
	}
}

// nbcRooted are IMB-NBC's rooted calls, whose root -root_shift on moves.
var nbcRooted = []string{"Ibcast", "Igather", "Igatherv", "Iscatter", "Iscatterv", "Ireduce"}

// TestNBCCheckRootShift: under -root_shift on the root of repetition i is
// i mod P (IMB 2021's IMB_ibcast ...: root = (root + root_shift) %
// num_procs after each repetition), and -check must know it from that
// definition: the real loops pass, and the no-rotation mutant, whose root
// stays at 0, fails every rooted call and its _pure variant at every
// length, on 2 and 3 processes (issue 24, gap a).
func TestNBCCheckRootShift(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	lens := e2e.Lengths(t, 4, 64)
	names := append(append([]string(nil), nbcRooted...), nbcPure(nbcRooted)...)
	for _, np := range []int{2, 3} {
		if np > e2e.MaxRanks() {
			continue
		}
		for _, m := range []string{"", "no-rotation"} {
			t.Run(fmt.Sprintf("%s/np%d", cmpOr(m, "real"), np), func(t *testing.T) {
				t.Setenv(e2e.MutantEnv, m)
				// -iter_policy off -iter 8: 8 repetitions whatever the
				// load (runNBC's -time 0.02 cut a loaded CI run to 1,
				// Ireduce_pure at 64 B, 4 ms a call, where no root moves).
				r, recs := runNBC(t, bin, "nbc", np, append([]string{"-check", "-root_shift", "on", "-npmin",
					strconv.Itoa(np), "-msglen", lens, "-iter_policy", "off", "-iter", "8"}, names...)...)
				if want := map[bool]int{false: 0, true: 3}[m != ""]; r.Code != want {
					t.Fatalf("want exit code %d, got %s", want, r)
				}
				if len(recs) != 2*len(names) {
					t.Errorf("%d records, want %d", len(recs), 2*len(names))
				}
				for _, rec := range recs {
					if (m == "") != (rec.Defects == 0) || rec.Reps != 8 {
						t.Errorf("mutant %q: %v", cmpOr(m, "real"), rec.Record)
					}
				}
			})
		}
	}
}
