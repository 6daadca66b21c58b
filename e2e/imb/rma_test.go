package imb

// Integration tests of mpibench rma (IMB-RMA of IMB 2021.11): every
// benchmark's rows, modes and repetitions, -check against the real loops
// and the rma-offset mutant, and a row-for-row comparison with Intel's
// IMB-RMA where it has been built. Open MPI runs with its default
// one-sided component (osc/rdma on Debian), which serves these windows.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// rmaDefault is IMB-RMA's default list (IMB_bnames_rma.h, DEFC) as far as
// mpibench has it; rmaNamed are the two only ALLC has.
var (
	rmaDefault = []string{"Unidir_put", "Unidir_get", "Bidir_put", "Bidir_get", "One_put_all", "One_get_all",
		"All_put_all", "All_get_all", "Put_local", "Put_all_local", "Exchange_put", "Exchange_get", "Accumulate",
		"Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Truly_passive_put"}
	rmaNamed = []string{"Get_local", "Get_all_local"}
)

// rmaRun runs mpibench rma (bin) on np processes with -msglen lens and
// -time off (IMB's counts, which a loaded machine cannot lower), and
// returns the run and its records.
func rmaRun(t *testing.T, bin string, np int, lens string, args ...string) (e2e.Result, []nbcRecord) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "rma.jsonl")
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = bin
	argv = append(argv, append([]string{"rma", "-time", "off", "-msglen", lens, "-json", js}, args...)...)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
	e2e.NoPanic(t, r)
	if _, err := os.Stat(js); err != nil {
		t.Fatalf("no records: %s", r)
	}
	return r, e2e.ReadJSONL[nbcRecord](t, js)
}

// rmaWant are the rows b has on np processes: the one-target benchmarks
// on 2 processes, non-aggregate (MSGS_NONAGGR 100) then aggregate
// (MSGSPERSAMPLE 1000); Truly_passive_put on 2 and the others on 2..np
// without a mode, 1000. Fetch_and_op and Compare_and_swap have one
// length, 4 bytes, whatever -msglen says.
func rmaWant(b string, np int, lens []int) []string {
	var rows []string
	if b == "Fetch_and_op" || b == "Compare_and_swap" {
		lens = []int{4}
	}
	one := !strings.Contains(b, "all") && !rmaCollective(b)
	for q := 2; q <= np; q++ {
		modes := []string{""}
		if one && b != "Truly_passive_put" {
			modes = []string{"non-aggregate", "aggregate"}
		}
		for _, m := range modes {
			for _, x := range lens {
				rows = append(rows, fmt.Sprintf("np%d/%s/%d/%d", q, m, x, map[bool]int{true: 100}[m == "non-aggregate"]+
					map[bool]int{true: 1000}[m != "non-aggregate"]))
			}
		}
		if one {
			break
		}
	}
	return rows
}

// TestRMA runs the default list (np 3 with Open MPI, 2 with MPICH) and the
// two named-only benchmarks, and checks order, process counts, modes,
// lengths, repetitions, classes and the tables' columns.
func TestRMA(t *testing.T) {
	e2e.NeedMPI(t)
	lens := []int{0, 4, 64}
	np := min(3, e2e.MaxRanks())
	for _, names := range [][]string{nil, rmaNamed} {
		r, recs := rmaRun(t, e2e.Bin(), np, e2e.Lengths(t, lens...), names...)
		e2e.MustSucceed(t, r)
		want := cmpOrNames(names, rmaDefault)
		got := map[string][]string{}
		var order []string
		for _, rec := range recs {
			if len(order) == 0 || order[len(order)-1] != rec.Benchmark {
				order = append(order, rec.Benchmark)
			}
			got[rec.Benchmark] = append(got[rec.Benchmark], fmt.Sprintf("np%d/%s/%d/%d", rec.NP, rec.Mode, rec.Bytes, rec.Reps))
			checkRMARecord(t, rec)
		}
		if !slices.Equal(order, want) {
			t.Errorf("benchmarks %v, want %v", order, want)
		}
		for _, b := range want {
			if w := rmaWant(b, np, lens); !slices.Equal(got[b], w) {
				t.Errorf("%s: rows %v, want %v", b, got[b], w)
			}
		}
		for _, tab := range e2e.ParseTables(t, r.Stdout) {
			if c := strings.Join(tab.Columns, " "); c != rmaColumns(tab.Title) {
				t.Errorf("%s: columns %q, want %q", tab.Title, c, rmaColumns(tab.Title))
			}
		}
	}
}

func cmpOrNames(a, b []string) []string {
	if a != nil {
		return a
	}
	return b
}

// rmaCollective: All_put_all, All_get_all, Exchange_put and Exchange_get
// are IMB's Collective type.
func rmaCollective(b string) bool {
	return strings.HasPrefix(b, "All_") || strings.HasPrefix(b, "Exchange_")
}

// rmaColumns are IMB-RMA's columns (IMB_output.c): one time and
// Mbytes/sec, except t_min/t_max/t_avg for the Collective type.
func rmaColumns(b string) string {
	if b == "Truly_passive_put" {
		return "#bytes #repetitions t_pure[usec] t_ovrl[usec]"
	}
	if rmaCollective(b) {
		return "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]"
	}
	return "#bytes #repetitions t[usec] Mbytes/sec"
}

// checkRMARecord checks a record's class and figures: a time at every
// length, Mbytes/sec where the table has it, t_pure and t_ovrl (the
// largest time) for Truly_passive_put only.
func checkRMARecord(t *testing.T, r nbcRecord) {
	t.Helper()
	class := map[bool]string{true: "single"}[!strings.Contains(r.Benchmark, "all")]
	if rmaCollective(r.Benchmark) {
		class = "collective"
	} else if class == "" {
		class = "passive"
	}
	truly := r.Benchmark == "Truly_passive_put"
	bw := class != "collective" && !truly
	if r.Suite != "rma" || r.Class != class || r.TMax <= 0 || r.TMin > r.TMax || (r.Bytes > 0 && bw) != (r.MBps > 0) {
		t.Errorf("%v: suite %q class %q (want %q)", r, r.Suite, r.Class, class)
	}
	if truly != (r.TPure > 0) || truly != (r.TOvrl == r.TMax) {
		t.Errorf("%v: t_pure %g t_ovrl %g", r, r.TPure, r.TOvrl)
	}
}

// TestRMACheck: -check finds no defect in the real loops and defects at
// every length (4 and 64 bytes), mode and process count of the rma-offset
// mutant, which moves data one item (byte or float) off in every
// benchmark.
func TestRMACheck(t *testing.T) {
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	lens := []int{4, 64}
	np := min(3, e2e.MaxRanks())
	names := append(slices.Clone(rmaDefault), rmaNamed...)
	for _, m := range []string{"", "rma-offset"} {
		t.Run(fmt.Sprintf("%s/np%d", cmpOr(m, "real"), np), func(t *testing.T) {
			t.Setenv(e2e.MutantEnv, m)
			// -iter: IMB's 1000 and 100 repetitions cost a scheduler's
			// time slice per synchronisation of 3 ranks on 2 loaded cores
			// (29 s beside a busy loop); the check sees every one.
			args := append([]string{"-check", "-iter", "100,40,20"}, names...)
			r, recs := rmaRun(t, bin, np, e2e.Lengths(t, lens...), args...)
			if want := map[bool]int{false: 0, true: 3}[m != ""]; r.Code != want {
				t.Fatalf("want exit code %d, got %s", want, r)
			}
			n := 0
			for _, b := range names {
				n += len(rmaWant(b, np, lens))
			}
			if len(recs) != n {
				t.Errorf("%d records, want %d", len(recs), n)
			}
			for _, rec := range recs {
				if (m == "") != (rec.Defects == 0) || !rec.Check {
					t.Errorf("mutant %q: %v", cmpOr(m, "none"), rec.Record)
				}
			}
		})
	}
}

// TestRMACheckTimedLayout: the checked run moves its data at the timed
// run's displacement plus a place of its own per repetition and owner, and
// checks it where the definition puts it (rma3.c: base, where), so a slip
// in the timed arithmetic alone shows too (issue 24, gap d): the rma-half
// mutant, which moves Exchange's second block where the first goes, fails
// Exchange_put and Exchange_get at every length, with or without
// -off_cache.
func TestRMACheckTimedLayout(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "rma-half")
	np := min(3, e2e.MaxRanks())
	for _, extra := range [][]string{nil, {"-off_cache", "0.01"}} {
		names := []string{"Exchange_put", "Exchange_get"}
		r, recs := rmaRun(t, bin, np, e2e.Lengths(t, 4, 64), append(append([]string{"-check"}, extra...), names...)...)
		n := len(rmaWant(names[0], np, []int{4, 64})) + len(rmaWant(names[1], np, []int{4, 64}))
		if r.Code != 3 || len(recs) != n {
			t.Fatalf("%v: want exit code 3 and %d records, got %d\n%s", extra, n, len(recs), r)
		}
		for _, rec := range recs {
			if rec.Defects == 0 {
				t.Errorf("%v: the rma-half mutant passed -check: %v", extra, rec.Record)
			}
		}
	}
}

// TestRMASideBySide runs mpibench rma and Intel's IMB-RMA on the same plan
// (every benchmark mpibench has, lengths 0, 4, 64, IMB's default -time)
// and compares the header lines (headerPattern) and the tables row for
// row: benchmark, process count, mode, column titles, length and
// repetition count.
func TestRMASideBySide(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-RMA", e2e.PeerBinary("IMB-RMA"), "")
	lens := e2e.Lengths(t, 0, 4, 64)
	np := min(3, e2e.MaxRanks())
	names := append(slices.Clone(rmaDefault), rmaNamed...)
	ours := e2e.Launch(t, np, append([]string{"rma", "-msglen", lens}, names...)...)
	e2e.MustSucceed(t, ours)
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(append(argv, "-msglen", lens), names...)...)
	e2e.MustSucceed(t, theirs)
	e2e.SameHeader(t, ours.Stdout, "IMB-RMA", theirs.Stdout)
	sameRows(t, fmt.Sprintf("np %d", np), nbcRows(t, ours.Stdout), "IMB-RMA", nbcRows(t, theirs.Stdout))
}

// sameRows requires the row lists a (mpibench's) and b (peer's) to be
// equal and not empty.
func sameRows(t *testing.T, what string, a []string, peer string, b []string) {
	t.Helper()
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%s: %d rows, %s %d", what, len(a), peer, len(b))
	}
	t.Logf("%s: %d rows compared, e.g. %q", what, len(a), a[len(a)-1])
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%s row %d: mpibench %q, %s %q", what, i, a[i], peer, b[i])
		}
	}
}
