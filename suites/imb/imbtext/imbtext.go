// Package imbtext renders Records in the IMB text format: the tables and
// headers of IMB 3.0 (IMB-MPI1, IMB-EXT, IMB-IO) and of IMB 2021.11
// (IMB-MPI1 and IMB-EXT under -imb 2021, IMB-NBC, IMB-MPI4, IMB-RMA), as
// Intel's programs print them. The records are the data; the text is made
// from them.
package imbtext

import (
	"fmt"
	"io"
	"strings"
	"time"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// colWidth is the width of every IMB table column.
const colWidth = 13

// IMBText renders Records as IMB 3.0 prints its tables (section 6), so
// that tools that parse IMB output parse ours. It starts a new table
// whenever the benchmark, process count, layout or mode changes.
//
// Its Printf cleans every string argument: they are the strings of
// records and headers (hosts, arguments, names), which reach a terminal.
type IMBText struct {
	*textout.Writer
	last  string
	check bool
}

// NewIMBText returns a renderer writing to w.
func NewIMBText(w io.Writer) *IMBText { return &IMBText{Writer: textout.NewCleaning(w)} }

// Start prints the general information block and the benchmark list.
func (t *IMBText) Start(h result.Header) error {
	c := h.Context
	t.check = h.Check
	if h.IMB2021 {
		return t.start2021(h)
	}
	rule := "#" + strings.Repeat("-", 51)
	t.Printf("%s\n#    %s, %s part\n%s\n", rule, c.Tool, h.Part, rule)
	t.Printf("%s\n", definitions30(h.Suite))
	for _, kv := range [][2]string{
		{"Date", asctime(c.Start)}, {"Machine", c.Machine}, {"System", c.System}, {"Release", c.Release},
		{"Version", c.Version}, {"MPI Version", c.MPIVersion}, {"MPI Thread Environment", c.ThreadLevel},
		{"MPI Library", c.MPILibrary}, {"Hosts", strings.Join(c.Hosts, " ")},
	} {
		t.Printf("# %-22s: %s\n", kv[0], kv[1])
	}
	t.Printf("\n\n# Calling sequence was: \n\n# mpibench %s\n\n", strings.Join(c.Args, " "))
	if h.UserLens {
		t.Printf("# Message lengths were user defined\n")
	}
	if h.Suite == result.SuiteIO {
		t.Printf("# Minimum io portion in bytes:   %d\n", h.MinLen)
		t.Printf("# Maximum io portion in bytes:   %d\n#\n#\n", h.MaxLen)
	} else {
		t.Printf("# Minimum message length in bytes:   %d\n", h.MinLen)
		t.Printf("# Maximum message length in bytes:   %d\n", h.MaxLen)
		data, red := datatypes(c.Options)
		t.Printf("#\n# MPI_Datatype                   :   %s \n", data)
		t.Printf("# MPI_Datatype for reductions    :   %s\n", red)
		t.Printf("# MPI_Op                         :   MPI_SUM  \n#\n#\n")
	}
	switch {
	case h.TimeLimit > 0:
		t.Printf("# Time limit per sample (-time): %g s (IMB 2021: a slower sample runs fewer repetitions)\n#\n", h.TimeLimit)
	case h.TimeLimit < 0:
		t.Printf("# Time limit per sample (-time): off; IMB 3.0's repetition counts\n#\n")
	}
	if h.CPUMflops > 0 {
		t.Printf("# For nonblocking benchmarks:\n#\n# Function CPU_Exploit obtains an undisturbed\n")
		t.Printf("# performance of %7.2f MFlops\n#\n", h.CPUMflops)
	}
	return t.benchList(h)
}

// benchList ends the general block: the -check notice and the list of
// benchmarks to run.
func (t *IMBText) benchList(h result.Header) error {
	if h.Check {
		t.Printf("# !! Results checking mode (-check): the timings below are NOT valid benchmark data !!\n#\n")
	}
	t.Printf("\n# List of Benchmarks to run:\n\n")
	for _, b := range h.Benchmarks {
		switch {
		case h.IMB2021:
			// IMB 2021.11 lists the names alone, -multi or not, with
			// their comments (listNotes2021).
			t.Printf("# %s\n", b)
			for _, n := range listNotes2021[h.Suite+"/"+b] {
				t.Printf("#     %s\n", n)
			}
		case h.Multi >= 0:
			t.Printf("# (Multi-)%s\n", b)
		default:
			t.Printf("# %s\n", b)
		}
	}
	for _, a := range h.Invalid {
		// IMB 2021's suites print these in prepare, after the header
		// (src_cpp/MPI1/MPI1_suite.cpp).
		t.Printf("Invalid benchmark name %s\n", a)
	}
	return t.Err()
}

// Note prints s in r's table in place of a row, starting the table where
// r's row would (IMB_output.c prints its time-out line there).
func (t *IMBText) Note(r *result.Record, s string) error {
	if key := tableKey(r); key != t.last {
		t.last = key
		t.tableHeader(r)
	}
	t.WriteString(textout.CleanText(s) + "\n")
	return t.Err()
}

// Comment prints a line outside any table (IMB's notices).
func (t *IMBText) Comment(s string) error {
	t.WriteString(textout.CleanText(s) + "\n")
	return t.Err()
}

// Finish prints the closing lines, with IMB's check summary in -check mode.
func (t *IMBText) Finish(failed []string) error {
	if t.check {
		if len(failed) == 0 {
			t.Printf("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n")
		} else {
			t.Printf("\n\n!!!!  %d  BENCHMARK(S) FAILED     !!!! \n\n", len(failed))
			for _, b := range failed {
				t.Printf("%s    : FAILED !! \n", b)
			}
		}
	}
	t.Printf("\n\n# All processes entering MPI_Finalize\n\n")
	return t.Err()
}

// columns lists a table's column titles for a record.
func columns(r *result.Record) []string {
	var cols []string
	if r.Multi == 1 {
		cols = append(cols, "Group")
	}
	switch {
	case trulyPassive(r):
		cols = append(cols, "#bytes", "#repetitions", "t_pure[usec]", "t_ovrl[usec]")
	case isSync(r) && r.Mode == "non-blocking": // IMB-NBC's Ibarrier
		cols = append(cols, "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]")
	case isSync(r):
		cols = append(cols, "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	case r.Mode == "non-blocking":
		cols = append(cols, "#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]")
	case hasMsgRate(r):
		cols = append(cols, "#bytes", "#repetitions", "Mbytes/sec", "Msg/sec")
	case timeAndBW(r):
		cols = append(cols, "#bytes", "#repetitions", "t[usec]", "Mbytes/sec")
	case hasThroughput(r):
		cols = append(cols, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec")
	default:
		cols = append(cols, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	}
	if hasDefects(r) {
		cols = append(cols, "defects")
	}
	if r.Sync == "window" { // -sync window: the repetitions' validity and the window
		cols = append(cols, "valid", "invalid", "window[usec]", "clkerr[usec]")
	}
	return cols
}

// isSync marks benchmarks without a message length column (IMB's Sync type).
func isSync(r *result.Record) bool {
	switch r.Benchmark {
	case "Barrier", "Open_Close", "Ibarrier", "Ibarrier_pure", "Barrier_persist", "Barrier_persist_pure":
		return true
	}
	return false
}

// hasThroughput: IMB prints Mbytes/sec for single and parallel transfers,
// and in IMB-IO for collectives too.
func hasThroughput(r *result.Record) bool {
	return r.Class != "collective" || r.Suite == result.SuiteIO
}

// hasDefects: -check adds the column, except to Sync types and Window.
func hasDefects(r *result.Record) bool {
	return r.Check && !isSync(r) && r.Benchmark != "Window"
}

// modeLine is the MODE a table header names. IMB runs non-blocking and
// read benchmarks in its aggregate mode and says so.
func modeLine(mode string) string {
	if mode == "non-blocking" {
		mode = "aggregate"
	}
	return strings.ToUpper(mode)
}

func tableKey(r *result.Record) string {
	return fmt.Sprint(r.Suite, "|", r.Benchmark, "|", r.NProcs, "|", r.Multi, "|", r.Groups, "|", r.Map, "|", r.Mode, "|", r.Check)
}

// Row prints one record, preceded by a table header when a table starts.
func (t *IMBText) Row(r *result.Record) error {
	if key := tableKey(r); key != t.last {
		t.last = key
		t.tableHeader(r)
	}
	if r.Multi == 1 && r.Group <= 0 {
		t.Printf("\n")
	}
	var b strings.Builder
	if r.Multi == 1 {
		fmt.Fprintf(&b, "%13d", r.Group)
	}
	if !isSync(r) {
		fmt.Fprintf(&b, "%13d", r.Bytes)
	}
	fmt.Fprintf(&b, "%13d", r.Reps)
	switch {
	case trulyPassive(r):
		b.WriteString(trulyPassiveCells(r))
	case r.Mode == "non-blocking":
		fmt.Fprintf(&b, "%13.2f%13.2f%13.2f%13.2f", r.TOvrl, r.TPure, r.TCPU, r.Overlap)
	case hasMsgRate(r):
		fmt.Fprintf(&b, "%13.2f%13.0f", r.MBps, r.MsgRate)
	case timeAndBW(r) && !isSync(r):
		fmt.Fprintf(&b, "%13.2f%13.2f", r.TMax, r.MBps)
	default:
		fmt.Fprintf(&b, "%13.2f%13.2f%13.2f", r.TMin, r.TMax, r.TAvg)
		if hasThroughput(r) && !isSync(r) {
			fmt.Fprintf(&b, "%13.2f", r.MBps)
		}
	}
	if hasDefects(r) {
		fmt.Fprintf(&b, "%13.2f", r.Defects)
	}
	if r.Sync == "window" && r.InvalidReps != nil {
		fmt.Fprintf(&b, "%13d%13d%13.2f%13.2f", r.ValidReps, *r.InvalidReps, r.WindowS*1e6, r.ClockErr*1e6)
	}
	t.Printf("%s\n", b.String())
	return t.Err()
}

func (t *IMBText) tableHeader(r *result.Record) {
	cols := columns(r)
	rule := "#" + strings.Repeat("-", len(cols)*colWidth-1)
	t.Printf("\n%s\n", rule)
	if len(r.Groups) > 1 {
		t.Printf("# Benchmarking Multi-%s \n", r.Benchmark)
	} else {
		t.Printf("# Benchmarking %s \n", r.Benchmark)
	}
	t.WriteString(procIDs(r)) // numbers only, and line breaks to keep
	t.Printf("%s\n", rule)
	if r.Mode != "" && r.Suite != result.SuiteNBC && r.Suite != result.SuiteMPI4 { // IMB-NBC and -MPI4 print no MODE line
		t.Printf("#\n#    MODE: %s \n#\n", modeLine(r.Mode))
	}
	for _, c := range cols {
		t.Printf("%*s", colWidth, c)
	}
	t.Printf("\n")
}

// procIDs is the process block of a table header: the process count, the
// rank order under -map, or the groups of a Multi run, and the idle count.
func procIDs(r *result.Record) string {
	var b strings.Builder
	active := 0
	for _, g := range r.Groups {
		active += len(g)
	}
	if len(r.Groups) > 1 {
		fmt.Fprintf(&b, "# ( %d groups of %d processes each running simultaneous ) \n", len(r.Groups), r.NProcs)
		for i, g := range r.Groups {
			fmt.Fprintf(&b, "# Group  %d: %s\n# \n", i, intRow(g))
		}
	} else if len(r.Map) == 2 {
		fmt.Fprintf(&b, "# #processes = %d; rank order (rowwise): \n", r.NProcs)
		b.WriteString(rankOrder(r.Groups[0], r.Map[0], r.Context.Procs))
	} else {
		fmt.Fprintf(&b, "# #processes = %d \n", r.NProcs)
	}
	switch idle := r.Context.Procs - active; {
	case idle == 1:
		b.WriteString("# ( 1 additional process waiting in MPI_Barrier)\n")
	case idle > 1:
		fmt.Fprintf(&b, "# ( %d additional processes waiting in MPI_Barrier)\n", idle)
	}
	return b.String()
}

// rankOrder prints the active ranks as the rows of the -map matrix.
func rankOrder(ranks []int, px, size int) string {
	var b strings.Builder
	ip := 0
	for i := 0; i < px && ip < len(ranks); i++ {
		py := size / px
		if i < size%px {
			py++
		}
		py = min(py, len(ranks)-ip)
		fmt.Fprintf(&b, "# %s\n# \n", intRow(ranks[ip:ip+py]))
		ip += py
	}
	return b.String()
}

// intRow prints ranks as IMB does: %4d each, 16 to a line.
func intRow(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 && i%16 == 0 {
			b.WriteString("\n# ")
		}
		fmt.Fprintf(&b, " %4d", x)
	}
	return b.String()
}

// asctime prints an RFC 3339 time as C's asctime does, like IMB's Date line.
func asctime(s string) string {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.Format("Mon Jan _2 15:04:05 2006")
	}
	return s
}

// definitions30 is the header's line that says whose definitions an IMB
// 3.0 run has, and how to get IMB 2021.11's.
func definitions30(suite string) string {
	if suite == result.SuiteIO {
		return "# IMB 3.0's definitions (IMB-IO is this: mpibench io has no IMB 2021.11 mode)"
	}
	prog := "IMB-MPI1"
	if suite == result.SuiteEXT {
		prog = "IMB-EXT"
	}
	return "# IMB 3.0's definitions; IMB 2021.11's: add -imb 2021, or run as " + prog
}
