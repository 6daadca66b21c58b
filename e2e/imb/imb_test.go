package imb

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
)

func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }

type benchInfo struct {
	name      string
	class     string // JSON class
	title     string // class as `mpibench list` prints it
	calls     []string
	reduction bool
	factor    float64 // throughput factor; 0: no throughput
}

// benchTable is Table 1 / section 3 of the IMB guide, in IMB's order.
var benchTable = []benchInfo{
	{"PingPong", "single", "Single Transfer", []string{"MPI_Send", "MPI_Recv"}, false, 1},
	{"PingPing", "single", "Single Transfer", []string{"MPI_Isend", "MPI_Wait", "MPI_Recv"}, false, 1},
	{"Sendrecv", "parallel", "Parallel Transfer", []string{"MPI_Sendrecv"}, false, 2},
	{"Exchange", "parallel", "Parallel Transfer", []string{"MPI_Isend", "MPI_Waitall", "MPI_Recv"}, false, 4},
	{"Bcast", "collective", "Collective", []string{"MPI_Bcast"}, false, 0},
	{"Allgather", "collective", "Collective", []string{"MPI_Allgather"}, false, 0},
	{"Allgatherv", "collective", "Collective", []string{"MPI_Allgatherv"}, false, 0},
	{"Alltoall", "collective", "Collective", []string{"MPI_Alltoall"}, false, 0},
	{"Alltoallv", "collective", "Collective", []string{"MPI_Alltoallv"}, false, 0},
	{"Reduce", "collective", "Collective", []string{"MPI_Reduce"}, true, 0},
	{"Reduce_scatter", "collective", "Collective", []string{"MPI_Reduce_scatter"}, true, 0},
	{"Allreduce", "collective", "Collective", []string{"MPI_Allreduce"}, true, 0},
	{"Barrier", "collective", "Collective", []string{"MPI_Barrier"}, false, 0},
}

func info(t *testing.T, name string) benchInfo {
	t.Helper()
	for _, b := range benchTable {
		if b.name == name {
			return b
		}
	}
	t.Fatalf("unknown benchmark %q in the output", name)
	return benchInfo{}
}

func allNames() []string {
	var n []string
	for _, b := range benchTable {
		n = append(n, b.name)
	}
	return n
}

// expectedReps is n_sample (section 5.2.8) with MSGSPERSAMPLE = 1000 and
// OVERALL_VOL = 40 MiB.
func expectedReps(x int) int {
	if x == 0 {
		return 1000
	}
	return max(1, min(1000, 40*(1<<20)/x))
}

// expectedCounts lists the process counts Q for a job of p processes
// (sections 5.1.1, 5.1.2.2): single transfers on 2 only, the others on
// npmin, 2 npmin, 4 npmin, ..., the largest 2^x npmin < p, then p.
func expectedCounts(p, npmin int, class string) []int {
	if class == "single" {
		if p < 2 {
			return nil
		}
		return []int{2}
	}
	var qs []int
	q := min(npmin, p)
	for ; q < p; q *= 2 {
		qs = append(qs, q)
	}
	return append(qs, p)
}

// expectedLengths are the lengths of b for user lengths: rounded up to a
// multiple of 4 bytes for reductions, each length once, one row for
// Barrier.
func expectedLengths(b benchInfo, user []int) []int {
	if b.name == "Barrier" {
		return []int{0}
	}
	var out []int
	for _, x := range user {
		if b.reduction {
			x = (x + 3) / 4 * 4
		}
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// defaultLengths are IMB's standard lengths: 0, then unit, 2 unit, ... 4 MiB.
func defaultLengths(unit int) []int {
	l := []int{0}
	for x := unit; x <= 1<<22; x *= 2 {
		l = append(l, x)
	}
	return l
}

// ---------------------------------------------------------------------------
// JSON Lines records, decoded with the field names the format promises.

// checkRecord verifies the rules every record obeys: the job context,
// t_min <= t_avg <= t_max, the repetition count and the throughput.
func checkRecord(t *testing.T, r e2e.Record, procs int, check bool) {
	t.Helper()
	checkRecordIter(t, r, procs, check, 1000)
}

// checkRecordIter is checkRecord for a run of -iter msgs: IMB's counts
// with msgs repetitions in place of its 1000.
func checkRecordIter(t *testing.T, r e2e.Record, procs int, check bool, msgs int) {
	t.Helper()
	b := info(t, r.Benchmark)
	if r.Suite != "mpi1" || r.Class != b.class {
		t.Errorf("%v: suite/class %q/%q, want mpi1/%q", r, r.Suite, r.Class, b.class)
	}
	if r.Context.Procs != procs || r.Context.MPI != mpi.Flavor {
		t.Errorf("%v: context procs=%d mpi=%q, want %d %q", r, r.Context.Procs, r.Context.MPI, procs, mpi.Flavor)
	}
	if r.Check != check {
		t.Errorf("%v: check=%v, want %v", r, r.Check, check)
	}
	if r.Defects != 0 {
		t.Errorf("%v: %g defects", r, r.Defects)
	}
	if want := min(msgs, expectedReps(r.Bytes)); r.Reps != want {
		t.Errorf("%v: reps %d, want %d", r, r.Reps, want)
	}
	if b.name == "Barrier" && (r.Bytes != 0 || r.Reps != msgs) {
		t.Errorf("%v: Barrier wants 0 bytes and %d repetitions", r, msgs)
	}
	if b.reduction && r.Bytes%4 != 0 {
		t.Errorf("%v: reduction length not a multiple of sizeof(float)", r)
	}
	const eps = 1e-9
	if !(r.TMin >= 0 && r.TMin <= r.TAvg*(1+eps)+eps && r.TAvg <= r.TMax*(1+eps)+eps) {
		t.Errorf("%v: want 0 <= t_min <= t_avg <= t_max", r)
	}
	want := 0.0
	if b.factor > 0 && r.TMax > 0 {
		want = b.factor * float64(r.Bytes) / 1.048576 / r.TMax
	}
	if math.Abs(r.MBps-want) > 1e-9*math.Max(1, want) {
		t.Errorf("%v: Mbytes/sec %g, want %g*X/1.048576/t_max = %g", r, r.MBps, b.factor, want)
	}
	if r.NP < 1 || r.NP > procs || len(r.Groups) == 0 {
		t.Errorf("%v: bad np or groups for a job of %d", r, procs)
	}
	for _, g := range r.Groups {
		if len(g) != r.NP {
			t.Errorf("%v: group %v does not have np=%d ranks", r, g, r.NP)
		}
	}
}

// distinctNP lists the process counts of a benchmark's records in order.
func distinctNP(recs []e2e.Record, bench string) []int {
	var nps []int
	for _, r := range recs {
		if r.Benchmark == bench && !slices.Contains(nps, r.NP) {
			nps = append(nps, r.NP)
		}
	}
	return nps
}

func selectRecs(recs []e2e.Record, bench string, np int) []e2e.Record {
	var out []e2e.Record
	for _, r := range recs {
		if r.Benchmark == bench && r.NP == np {
			out = append(out, r)
		}
	}
	return out
}

func benchOrder(recs []e2e.Record) []string {
	var out []string
	for _, r := range recs {
		if len(out) == 0 || out[len(out)-1] != r.Benchmark {
			out = append(out, r.Benchmark)
		}
	}
	return out
}

func seq(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = i
	}
	return v
}

// ---------------------------------------------------------------------------
// The IMB text tables (section 6).

// expectedColumns are the column titles of a table (section 6 and IMB's
// output): single transfers show t[usec] except in -multi 0, where the
// worst group is shown with t_min/t_max/t_avg; -multi 1 adds Group; -check
// adds defects except for Barrier.
func expectedColumns(b benchInfo, multi int, check bool) []string {
	var c []string
	if multi == 1 {
		c = append(c, "Group")
	}
	switch {
	case b.name == "Barrier":
		return append(c, "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	case b.class == "single" && multi != 0:
		c = append(c, "#bytes", "#repetitions", "t[usec]", "Mbytes/sec")
	case b.class == "collective":
		c = append(c, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	default:
		c = append(c, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec")
	}
	if check {
		c = append(c, "defects")
	}
	return c
}

// cell is the value the text table shows for a column of a record.
func cell(t *testing.T, r e2e.Record, col string) string {
	t.Helper()
	switch col {
	case "Group":
		return strconv.Itoa(r.Group)
	case "#bytes":
		return strconv.Itoa(r.Bytes)
	case "#repetitions":
		return strconv.Itoa(r.Reps)
	case "t[usec]", "t_max[usec]":
		return fmt.Sprintf("%.2f", r.TMax)
	case "t_min[usec]":
		return fmt.Sprintf("%.2f", r.TMin)
	case "t_avg[usec]":
		return fmt.Sprintf("%.2f", r.TAvg)
	case "Mbytes/sec":
		return fmt.Sprintf("%.2f", r.MBps)
	case "defects":
		return fmt.Sprintf("%.2f", r.Defects)
	}
	t.Fatalf("unknown column %q", col)
	return ""
}

// matchTables checks that the tables show exactly the records, in order:
// one table per benchmark and layout, the expected columns, and every
// number as the record holds it. It returns the tables.
func matchTables(t *testing.T, out string, recs []e2e.Record, multi int, check bool) []e2e.Table {
	t.Helper()
	tabs := e2e.ParseTables(t, out)
	i := 0
	for _, tab := range tabs {
		if len(tab.Rows) == 0 {
			t.Errorf("table %q %v has no rows", tab.Title, tab.Head)
			continue
		}
		if i >= len(recs) {
			t.Errorf("table %q has rows beyond the %d records", tab.Title, len(recs))
			break
		}
		first := recs[i]
		b := info(t, first.Benchmark)
		wantTitle := b.name
		if len(first.Groups) > 1 {
			wantTitle = "Multi-" + b.name
		}
		if tab.Title != wantTitle {
			t.Errorf("table title %q, want %q (record %v)", tab.Title, wantTitle, first)
		}
		if want := expectedColumns(b, multi, check); !slices.Equal(tab.Columns, want) {
			t.Errorf("%s np=%d: columns %q, want %q", tab.Title, first.NP, tab.Columns, want)
		}
		head := strings.Join(tab.Head, "\n")
		if len(first.Groups) > 1 {
			if s := fmt.Sprintf("# ( %d groups of %d processes each running simultaneous )", len(first.Groups), first.NP); !strings.Contains(head, s) {
				t.Errorf("%s: header lacks %q:\n%s", tab.Title, s, head)
			}
		} else if !strings.Contains(head, fmt.Sprintf("# #processes = %d", first.NP)) {
			t.Errorf("%s: header lacks '# #processes = %d':\n%s", tab.Title, first.NP, head)
		}
		idle := first.Context.Procs - len(first.Groups)*first.NP
		idleLine := ""
		switch {
		case idle == 1:
			idleLine = "# ( 1 additional process waiting in MPI_Barrier)"
		case idle > 1:
			idleLine = fmt.Sprintf("# ( %d additional processes waiting in MPI_Barrier)", idle)
		}
		if idleLine != "" && !strings.Contains(head, idleLine) || idleLine == "" && strings.Contains(head, "waiting in MPI_Barrier") {
			t.Errorf("%s np=%d of %d: want idle line %q in header:\n%s", tab.Title, first.NP, first.Context.Procs, idleLine, head)
		}
		for _, row := range tab.Rows {
			if i >= len(recs) {
				t.Errorf("%s: row %q has no record", tab.Title, row)
				continue
			}
			r := recs[i]
			i++
			if r.Benchmark != first.Benchmark || r.NP != first.NP || !slices.EqualFunc(r.Groups, first.Groups, slices.Equal) {
				t.Errorf("%s np=%d: row %q belongs to record %v, which is not in this table", tab.Title, first.NP, row, r)
				continue
			}
			if len(row) != len(tab.Columns) {
				t.Errorf("%s np=%d: row %q has %d fields, want %d", tab.Title, r.NP, row, len(row), len(tab.Columns))
				continue
			}
			for k, col := range tab.Columns {
				if want := cell(t, r, col); row[k] != want {
					t.Errorf("%s np=%d: column %s shows %s, record has %s (%v)", tab.Title, r.NP, col, row[k], want, r)
				}
			}
		}
	}
	if i != len(recs) {
		t.Errorf("the tables show %d rows, the -json file has %d records", i, len(recs))
	}
	return tabs
}

func findTable(tabs []e2e.Table, title string, np int) *e2e.Table {
	for i := range tabs {
		if tabs[i].Title == title && (strings.Contains(strings.Join(tabs[i].Head, "\n"), fmt.Sprintf("#processes = %d", np)) ||
			strings.Contains(strings.Join(tabs[i].Head, "\n"), fmt.Sprintf("groups of %d processes", np))) {
			return &tabs[i]
		}
	}
	return nil
}
