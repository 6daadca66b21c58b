package mt

import (
	"fmt"
	"math"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
	"mpibench/run/mpijob"
)

// text renders the run on rank 0 in IMB-MT's shape (MT_suite.cpp,
// prepare and finalize; MT_benchmark.h, run): the suite's title, a
// table per benchmark whose header comes with its first row, fields of
// 13 characters, and an empty line at the end. -check adds a defects
// column.
type text struct {
	*textout.Writer
	check  bool
	window int
	shown  map[string]bool // benchmarks whose header is out
}

const (
	suiteRule = "#------------------------------------------------------------------\n"
	tableRule = "#-----------------------------------------------------------------------------\n"
)

// start is the suite's title (MT_suite.cpp: "Intel(R) MPI Benchmarks
// 2021.11, MT part" with four blanks after it), naming mpibench as the
// other IMB 2021 suites do; -noheader leaves it out.
func (t *text) start(tool string, cfg *Config) error {
	if !cfg.NoHeader {
		t.Printf(suiteRule)
		t.Printf("#    %s (IMB 2021.11), MT part    \n", tool)
		t.Printf(suiteRule)
		t.Printf("#\n")
	}
	if cfg.Check {
		t.Printf("# -check: every repetition of every thread is verified; the timings are not benchmark data\n")
	}
	return t.Err()
}

// header is a benchmark's table header, printed before its first row.
func (t *text) header(b *Benchmark, procs, threads int) {
	t.Printf("\n" + tableRule)
	t.Printf("# Benchmarking %s\n", b.Name)
	t.Printf("# #processes = %d (threads: %d)\n", procs, threads)
	if b.Window {
		t.Printf("# window_size = %d\n", t.window)
	}
	t.Printf(tableRule)
	for _, c := range b.Columns {
		t.Printf("%s", field(columnTitles[c]))
	}
	if t.check {
		t.Printf("%s", field("defects"))
	}
	t.Printf("\n")
}

// row is a record's row, its table's header first when it is the
// benchmark's first.
func (t *text) row(b *Benchmark, r *result.Record) error {
	if !t.shown[b.Name] {
		t.shown[b.Name] = true
		t.header(b, r.NProcs, r.Threads)
	}
	for _, c := range b.Columns {
		switch c {
		case ColBytes:
			t.Printf("%s", field(r.Bytes))
		case ColRepeat:
			t.Printf("%s", field(r.Reps))
		case ColTMin:
			t.Printf("%s", field(r.TMin))
		case ColTMax:
			t.Printf("%s", field(r.TMax))
		case ColTAvg:
			t.Printf("%s", field(r.TAvg))
		case ColBW, ColBWCumulative:
			t.Printf("%s", field(r.MBps))
		case ColMsgRateCumulative:
			t.Printf("%s", field(int(r.MsgRate)))
		}
	}
	if t.check {
		t.Printf("%s", field(int(r.Defects)))
	}
	t.Printf("\n")
	return t.Err()
}

// none is IMB-MT's block for a benchmark no rank could run (the
// point-to-point ones on 1 process, or with a -stride too large).
func (t *text) none(b *Benchmark) error {
	if t.shown[b.Name] {
		return nil
	}
	t.shown[b.Name] = true
	t.Printf("\n" + tableRule)
	t.Printf("# Benchmarking %s\n", b.Name)
	t.Printf("# NO SUCCESSFUL EXECUTIONS\n")
	t.Printf(tableRule)
	t.Printf("\n")
	return t.Err()
}

func (t *text) comment(s string) error {
	t.Printf("%s\n", s)
	return t.Err()
}

// finish is the empty line of IMB-MT's finalize.
func (t *text) finish() error {
	t.Printf("\n")
	return t.Err()
}

// field is IMB-MT's out_field: printf's "% 13.2f", "% 13d" or "% 13s"
// into a buffer of 14 bytes, so at most 13 characters: a longer number
// loses its last ones.
func field(v any) string {
	var s string
	switch x := v.(type) {
	case float64:
		switch {
		case math.IsNaN(x):
			s = fmt.Sprintf("%13s", cSign(math.Signbit(x))+"nan")
		case math.IsInf(x, 0):
			s = fmt.Sprintf("%13s", cSign(x < 0)+"inf")
		default:
			s = fmt.Sprintf("% 13.2f", x)
		}
	case int:
		s = fmt.Sprintf("% 13d", x)
	case string:
		s = fmt.Sprintf("%13s", x)
	}
	if len(s) > 13 {
		s = s[:13]
	}
	return s
}

// cSign is the sign printf's "% f" writes before inf and nan.
func cSign(neg bool) string {
	if neg {
		return "-"
	}
	return " "
}

// printList is -list: IMB 2021's list of the benchmarks, sorted, under
// the suite's name (imb.cpp); there every rank prints it, here rank 0.
func printList(env *mpijob.Env) int {
	if env.World.Rank() != 0 {
		return 0
	}
	t := textout.New(env.Stdout)
	t.Printf("%s %s (IMB 2021.11)\nList of benchmarks:\nIMB-MT:\n", mpijob.Program, mpijob.Version)
	for _, n := range sortedNames() {
		t.Printf("    %s\n", n)
	}
	if t.Err() != nil {
		return env.Fail(fmt.Errorf("writing the list: %w", t.Err()))
	}
	return 0
}

// sortedNames are the benchmarks in the order of IMB 2021's -list, which
// sorts them without regard to case.
func sortedNames() []string {
	var names []string
	for _, b := range Table {
		names = append(names, b.Name)
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if strings.ToLower(names[j]) < strings.ToLower(names[i]) {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}
