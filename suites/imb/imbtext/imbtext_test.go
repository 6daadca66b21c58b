package imbtext

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/internal/golden"
)

// The golden files in testdata were reviewed by hand against section 6 of
// the IMB 3.0 guide and IMB's output code (IMB_output.c): 13-character
// right-aligned columns ("%13d", "%13.2f", titles "%13s"), a rule of '#'
// and 13*columns-1 dashes, "# Benchmarking [Multi-]NAME " and the process
// block of IMB_show_procids.

func testContext(procs int, args ...string) result.Context {
	return result.Context{
		Tool: "mpibench 0.1.0", Start: "2024-03-05T09:07:02Z", Host: "node01",
		Hosts: []string{"node01", "node02"}, MPI: "openmpi", MPIVersion: "3.1",
		MPILibrary: "Open MPI v4.1.6", ThreadLevel: "MPI_THREAD_FUNNELED", Procs: procs,
		Args: args, Machine: "x86_64", System: "Linux", Release: "6.8.0-45-generic",
		Version: "#45-Ubuntu SMP PREEMPT_DYNAMIC",
	}
}

// row is the varying part of a Record.
type row struct {
	bytes, reps            int
	tmin, tmax, tavg, mbps float64
	defects                float64
	group                  int
}

// table builds the Records of one table.
func table(ctx result.Context, bench, class string, multi, np int, groups [][]int, mapPQ []int, check bool, rows ...row) []result.Record {
	var recs []result.Record
	for _, r := range rows {
		g := -1
		if multi == 1 {
			g = r.group
		}
		recs = append(recs, result.Record{Suite: "mpi1", Benchmark: bench, Class: class, Multi: multi, Group: g,
			NProcs: np, Groups: groups, Map: mapPQ, Bytes: r.bytes, Reps: r.reps, TMin: r.tmin, TMax: r.tmax,
			TAvg: r.tavg, MBps: r.mbps, Check: check, Defects: r.defects, Context: ctx})
	}
	return recs
}

type scenario struct {
	name   string
	header *result.Header
	recs   []result.Record
	finish bool
	failed []string
}

func scenarios() []scenario {
	var out []scenario

	// Sample 1: np 2, PingPong Allreduce. Throughput x/1.048576/t by hand.
	ctx := testContext(2, "PingPong", "Allreduce")
	recs := table(ctx, "PingPong", "single", -1, 2, [][]int{{0, 1}}, nil, false,
		row{bytes: 0, reps: 1000, tmin: 0.2, tmax: 0.23, tavg: 0.215},
		row{bytes: 1, reps: 1000, tmin: 0.24, tmax: 0.25, tavg: 0.245, mbps: 3.814697265625},
		row{bytes: 65536, reps: 640, tmin: 9.8, tmax: 9.87, tavg: 9.835, mbps: 6332.32016210739},
		row{bytes: 4194304, reps: 10, tmin: 350.1, tmax: 351.5, tavg: 350.8, mbps: 11379.800853485064})
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 2, [][]int{{0, 1}}, nil, false,
		row{bytes: 0, reps: 1000, tmin: 0.05, tmax: 0.06, tavg: 0.055},
		row{bytes: 4, reps: 1000, tmin: 1.234, tmax: 1.5, tavg: 1.367},
		row{bytes: 4194304, reps: 10, tmin: 2000.004, tmax: 2100.996, tavg: 2050.5})...)
	out = append(out, scenario{name: "sample1",
		header: &result.Header{Context: ctx, Part: "MPI-1", Benchmarks: []string{"PingPong", "Allreduce"},
			Multi: -1, MinLen: 0, MaxLen: 4194304},
		recs: recs, finish: true})

	// Parallel transfer: Sendrecv on 2 and 4 of 4 processes.
	ctx = testContext(4, "Sendrecv")
	recs = table(ctx, "Sendrecv", "parallel", -1, 2, [][]int{{0, 1}}, nil, false,
		row{bytes: 0, reps: 1000, tmin: 0.3, tmax: 0.31, tavg: 0.305},
		row{bytes: 1024, reps: 1000, tmin: 1.0, tmax: 1.25, tavg: 1.125, mbps: 1562.5})
	recs = append(recs, table(ctx, "Sendrecv", "parallel", -1, 4, [][]int{{0, 1, 2, 3}}, nil, false,
		row{bytes: 0, reps: 1000, tmin: 0.4, tmax: 0.5, tavg: 0.45},
		row{bytes: 1024, reps: 1000, tmin: 1.5, tmax: 2.5, tavg: 2, mbps: 781.25})...)
	out = append(out, scenario{name: "sendrecv", recs: recs})

	// Barrier: no #bytes column.
	ctx = testContext(4, "Barrier")
	recs = table(ctx, "Barrier", "collective", -1, 2, [][]int{{0, 1}}, nil, false,
		row{reps: 1000, tmin: 0.51, tmax: 0.52, tavg: 0.515})
	recs = append(recs, table(ctx, "Barrier", "collective", -1, 4, [][]int{{0, 1, 2, 3}}, nil, false,
		row{reps: 1000, tmin: 1.01, tmax: 1.1, tavg: 1.055})...)
	out = append(out, scenario{name: "barrier", recs: recs})

	// -check: defects column, except for Barrier; a failure summary.
	ctx = testContext(2, "-check", "PingPong", "Allreduce", "Barrier")
	recs = table(ctx, "PingPong", "single", -1, 2, [][]int{{0, 1}}, nil, true,
		row{bytes: 0, reps: 1000, tmin: 1, tmax: 1.5, tavg: 1.25},
		row{bytes: 8, reps: 1000, tmin: 2, tmax: 2.5, tavg: 2.25, mbps: 3.0517578125, defects: 2})
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 2, [][]int{{0, 1}}, nil, true,
		row{bytes: 4, reps: 1000, tmin: 3, tmax: 3.5, tavg: 3.25})...)
	recs = append(recs, table(ctx, "Barrier", "collective", -1, 2, [][]int{{0, 1}}, nil, true,
		row{reps: 1000, tmin: 4, tmax: 4.5, tavg: 4.25})...)
	out = append(out, scenario{name: "check",
		header: &result.Header{Context: ctx, Part: "MPI-1", Benchmarks: []string{"PingPong", "Allreduce", "Barrier"},
			Multi: -1, MinLen: 0, MaxLen: 4194304, Check: true},
		recs: recs, finish: true, failed: []string{"PingPong"}})

	// Sample 2 as run on 4 processes: -map 2x2 -multi 0 -msglen Lengths,
	// PingPing and Allreduce.
	ctx = testContext(4, "pingping", "allreduce", "-map", "2x2", "-msglen", "Lengths", "-multi", "0")
	groups := [][]int{{0, 2}, {1, 3}}
	pq := []int{2, 2}
	recs = table(ctx, "PingPing", "single", 0, 2, groups, pq, false,
		row{bytes: 0, reps: 1000, tmin: 0.61, tmax: 0.65, tavg: 0.63},
		row{bytes: 100000, reps: 419, tmin: 30.5, tmax: 31.25, tavg: 30.875, mbps: 3051.7578125},
		row{bytes: 1000000, reps: 41, tmin: 250, tmax: 262.5, tavg: 256.25, mbps: 3633.04501488095})
	recs = append(recs, table(ctx, "Allreduce", "collective", 0, 2, groups, pq, false,
		row{bytes: 0, reps: 1000, tmin: 0.07, tmax: 0.08, tavg: 0.075},
		row{bytes: 100, reps: 1000, tmin: 1.11, tmax: 1.19, tavg: 1.15})...)
	recs = append(recs, table(ctx, "Allreduce", "collective", 0, 4, [][]int{{0, 2, 1, 3}}, pq, false,
		row{bytes: 0, reps: 1000, tmin: 0.09, tmax: 0.1, tavg: 0.095},
		row{bytes: 100, reps: 1000, tmin: 2.22, tmax: 2.38, tavg: 2.3})...)
	out = append(out, scenario{name: "multi0",
		header: &result.Header{Context: ctx, Part: "MPI-1", Benchmarks: []string{"PingPing", "Allreduce"},
			Multi: 0, MinLen: 0, MaxLen: 1000000, UserLens: true},
		recs: recs})

	// -multi 1: a Group column and one row per group, each length
	// preceded by an empty line.
	ctx = testContext(4, "-multi", "1", "PingPong", "Sendrecv", "Barrier")
	groups = [][]int{{0, 1}, {2, 3}}
	recs = table(ctx, "PingPong", "single", 1, 2, groups, nil, false,
		row{group: 0, bytes: 0, reps: 1000, tmin: 10.19, tmax: 10.19, tavg: 10.19},
		row{group: 1, bytes: 0, reps: 1000, tmin: 10.22, tmax: 10.22, tavg: 10.22},
		row{group: 0, bytes: 1, reps: 1000, tmin: 7.28, tmax: 7.28, tavg: 7.28, mbps: 0.131},
		row{group: 1, bytes: 1, reps: 1000, tmin: 7.13, tmax: 7.13, tavg: 7.13, mbps: 0.1337})
	recs = append(recs, table(ctx, "Sendrecv", "parallel", 1, 2, groups, nil, false,
		row{group: 0, bytes: 16, reps: 1000, tmin: 1, tmax: 2, tavg: 1.5, mbps: 15.2587890625},
		row{group: 1, bytes: 16, reps: 1000, tmin: 3, tmax: 4, tavg: 3.5, mbps: 7.62939453125})...)
	recs = append(recs, table(ctx, "Barrier", "collective", 1, 2, groups, nil, false,
		row{group: 0, reps: 1000, tmin: 0.5, tmax: 0.6, tavg: 0.55},
		row{group: 1, reps: 1000, tmin: 0.7, tmax: 0.8, tavg: 0.75})...)
	out = append(out, scenario{name: "multi1", recs: recs})

	// -map 2x3 primary on 6 processes: rank order rows 0 2 4 / 1 3 5.
	ctx = testContext(6, "-map", "2x3", "Allreduce")
	pq = []int{2, 3}
	recs = table(ctx, "Allreduce", "collective", -1, 2, [][]int{{0, 2}}, pq, false,
		row{bytes: 4, reps: 1000, tmin: 1, tmax: 1.1, tavg: 1.05})
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 4, [][]int{{0, 2, 4, 1}}, pq, false,
		row{bytes: 4, reps: 1000, tmin: 2, tmax: 2.2, tavg: 2.1})...)
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 6, [][]int{{0, 2, 4, 1, 3, 5}}, pq, false,
		row{bytes: 4, reps: 1000, tmin: 3, tmax: 3.3, tavg: 3.15})...)
	out = append(out, scenario{name: "map", recs: recs})

	// Idle processes: primary on 5 processes, then Multi with one left over.
	ctx = testContext(5, "Allreduce", "PingPong", "-multi", "0")
	recs = table(ctx, "Allreduce", "collective", -1, 2, [][]int{{0, 1}}, nil, false,
		row{bytes: 4, reps: 1000, tmin: 1, tmax: 1.1, tavg: 1.05})
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 4, [][]int{{0, 1, 2, 3}}, nil, false,
		row{bytes: 4, reps: 1000, tmin: 2, tmax: 2.2, tavg: 2.1})...)
	recs = append(recs, table(ctx, "Allreduce", "collective", -1, 5, [][]int{{0, 1, 2, 3, 4}}, nil, false,
		row{bytes: 4, reps: 1000, tmin: 3, tmax: 3.3, tavg: 3.15})...)
	recs = append(recs, table(ctx, "PingPong", "single", 0, 2, [][]int{{0, 1}, {2, 3}}, nil, false,
		row{bytes: 1024, reps: 1000, tmin: 1, tmax: 1.024, tavg: 1.012, mbps: 953.67431640625})...)
	out = append(out, scenario{name: "idle", recs: recs})

	// -map 2x18 on 36 processes: rows of 18 ranks, which IMB prints 16
	// to a line.
	ctx = testContext(36, "-map", "2x18", "Allreduce")
	var all []int
	for i := 0; i < 36; i += 2 {
		all = append(all, i) // row 0: 0 2 4 ... 34
	}
	for i := 1; i < 36; i += 2 {
		all = append(all, i) // row 1: 1 3 5 ... 35
	}
	recs = table(ctx, "Allreduce", "collective", -1, 36, [][]int{all}, []int{2, 18}, false,
		row{bytes: 4, reps: 1000, tmin: 5, tmax: 6, tavg: 5.5})
	out = append(out, scenario{name: "wide", recs: recs})
	return append(out, extScenario(), ioScenario())
}

// in moves records to a suite and mode.
func in(recs []result.Record, suite, mode string) []result.Record {
	for i := range recs {
		recs[i].Suite, recs[i].Mode = suite, mode
	}
	return recs
}

// extScenario is IMB-EXT in -check mode: Unidir_Put in both modes
// (aggregate first, as IMB runs them), Accumulate, and Window, which has
// no defects column.
func extScenario() scenario {
	ctx := testContext(2, "ext", "-check", "Unidir_Put", "Accumulate", "Window")
	g := [][]int{{0, 1}}
	recs := in(table(ctx, "Unidir_Put", "single", -1, 2, g, nil, true,
		row{bytes: 0, reps: 1000, tmin: 0.5, tmax: 0.6, tavg: 0.55},
		row{bytes: 1024, reps: 1000, tmin: 1, tmax: 1.024, tavg: 1.012, mbps: 953.67431640625}), "ext", "aggregate")
	recs = append(recs, in(table(ctx, "Unidir_Put", "single", -1, 2, g, nil, true,
		row{bytes: 0, reps: 100, tmin: 5, tmax: 6, tavg: 5.5},
		row{bytes: 1024, reps: 100, tmin: 10, tmax: 10.24, tavg: 10.12, mbps: 95.367431640625}), "ext", "non-aggregate")...)
	recs = append(recs, in(table(ctx, "Accumulate", "collective", -1, 2, g, nil, true,
		row{bytes: 4, reps: 1000, tmin: 2, tmax: 3, tavg: 2.5}), "ext", "aggregate")...)
	recs = append(recs, in(table(ctx, "Window", "collective", -1, 2, g, nil, true,
		row{bytes: 0, reps: 1000, tmin: 20, tmax: 30, tavg: 25}), "ext", "")...)
	return scenario{name: "ext",
		header: &result.Header{Context: ctx, Suite: "ext", Part: "MPI-2", Check: true, Multi: -1, MaxLen: 4194304,
			Benchmarks: []string{"Unidir_Put", "Accumulate", "Window"}},
		recs: recs, finish: true}
}

// ioScenario is IMB-IO: sample 3's P_Write_Indv in both modes, a
// non-blocking benchmark with the overlap columns, a collective read with
// throughput (IMB-IO prints it for collectives) and Open_Close.
func ioScenario() scenario {
	ctx := testContext(2, "io", "P_Write_Indv", "P_IWrite_Indv", "C_Read_Indv", "Open_Close")
	g := [][]int{{0, 1}}
	recs := in(table(ctx, "P_Write_Indv", "parallel", -1, 2, g, nil, false,
		row{bytes: 0, reps: 50, tmin: 3, tmax: 4, tavg: 3.5},
		row{bytes: 524288, reps: 32, tmin: 500, tmax: 524.288, tavg: 512, mbps: 953.67431640625}), "io", "aggregate")
	recs = append(recs, in(table(ctx, "P_Write_Indv", "parallel", -1, 2, g, nil, false,
		row{bytes: 0, reps: 10, tmin: 30, tmax: 40, tavg: 35},
		row{bytes: 524288, reps: 10, tmin: 5000, tmax: 5242.88, tavg: 5120, mbps: 95.367431640625}), "io", "non-aggregate")...)
	nb := in(table(ctx, "P_IWrite_Indv", "parallel", -1, 2, g, nil, false,
		row{bytes: 2097152, reps: 8, tmin: 100500, tmax: 101000, tavg: 100750, mbps: 1000}), "io", "non-blocking")
	nb[0].TOvrl, nb[0].TPure, nb[0].TCPU, nb[0].Overlap = 101000, 2000, 100100, 55
	recs = append(recs, nb...)
	recs = append(recs, in(table(ctx, "C_Read_Indv", "collective", -1, 2, g, nil, false,
		row{bytes: 1048576, reps: 16, tmin: 900, tmax: 1048.576, tavg: 1000, mbps: 953.67431640625}), "io", "aggregate")...)
	recs = append(recs, in(table(ctx, "Open_Close", "collective", -1, 2, g, nil, false,
		row{reps: 50, tmin: 300, tmax: 310, tavg: 305}), "io", "")...)
	return scenario{name: "io",
		header: &result.Header{Context: ctx, Suite: "io", Part: "MPI-IO", Multi: -1, MaxLen: 16777216, CPUMflops: 1234.5678,
			Benchmarks: []string{"P_Write_Indv", "P_IWrite_Indv", "C_Read_Indv", "Open_Close"}},
		recs: recs, finish: true}
}

func render(t *testing.T, s scenario) string {
	t.Helper()
	var buf bytes.Buffer
	r := NewIMBText(&buf)
	if s.header != nil {
		if err := r.Start(*s.header); err != nil {
			t.Fatal(err)
		}
	}
	for i := range s.recs {
		if err := r.Row(&s.recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if s.finish {
		if err := r.Finish(s.failed); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	for _, s := range scenarios() {
		t.Run(s.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", s.name+".golden"), render(t, s))
		})
	}
}

// parsed is a table as an IMB output parser sees it.
type parsed struct {
	title  string   // the "# Benchmarking ..." line
	block  string   // the lines from the title to the second rule
	cols   []string // the column titles
	header string   // the column title line as printed
	rules  []string
	rows   [][]string // whitespace-split data rows
	lines  []string   // the data rows as printed
}

// parseIMB reads tables the way IMB parsers do: a table starts at a
// "# Benchmarking" line (after a rule); the column line is the one whose
// first field is #bytes, #repetitions or Group; data rows follow until the
// next comment.
func parseIMB(text string) []parsed {
	var tables []parsed
	var cur *parsed
	inRows, prev := false, ""
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		isRule := strings.HasPrefix(line, "#-")
		switch {
		case strings.HasPrefix(line, "# Benchmarking "):
			tables = append(tables, parsed{title: line, block: line + "\n"})
			cur = &tables[len(tables)-1]
			if strings.HasPrefix(prev, "#-") {
				cur.rules = append(cur.rules, prev)
			}
			inRows = false
		case cur == nil:
		case isRule && cur.cols == nil && len(cur.rules) == 1:
			cur.rules = append(cur.rules, line) // the rule under the process block
		case cur.cols == nil && len(cur.rules) == 1:
			cur.block += line + "\n"
		case len(f) > 0 && (f[0] == "#bytes" || f[0] == "#repetitions" || f[0] == "Group"):
			cur.cols, cur.header, inRows = f, line, true
		case inRows && len(f) > 0 && !strings.HasPrefix(f[0], "#") && !strings.HasPrefix(f[0], "!"):
			cur.rows = append(cur.rows, f)
			cur.lines = append(cur.lines, line)
		case inRows && len(f) > 0:
			inRows = false
		}
		prev = line
	}
	return tables
}

// wantColumns is section 6's column set for a record, written out.
func wantColumns(r *result.Record) []string {
	var cols []string
	if r.Multi == 1 {
		cols = append(cols, "Group")
	}
	switch {
	case r.Benchmark == "Barrier" || r.Benchmark == "Open_Close":
		return append(cols, "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	case r.Mode == "non-blocking":
		cols = append(cols, "#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]")
	case r.Class == "single" && r.Multi != 0:
		cols = append(cols, "#bytes", "#repetitions", "t[usec]", "Mbytes/sec")
	case r.Class == "collective" && r.Suite != "io":
		cols = append(cols, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	default:
		cols = append(cols, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec")
	}
	if r.Check && r.Benchmark != "Window" {
		cols = append(cols, "defects")
	}
	return cols
}

// TestParseBack renders every scenario, parses it as an IMB parser would
// and checks each number against the Record it came from.
func TestParseBack(t *testing.T) {
	for _, s := range scenarios() {
		tables := parseIMB(render(t, s))
		k := 0
		for ti, tb := range tables {
			if len(tb.rows) == 0 {
				t.Errorf("%s: table %d (%s) has no rows", s.name, ti, tb.title)
			}
			for ri, f := range tb.rows {
				if k >= len(s.recs) {
					t.Fatalf("%s: more rows than records", s.name)
				}
				rec := &s.recs[k]
				k++
				what := fmt.Sprintf("%s table %d row %d", s.name, ti, ri)
				if !slices.Equal(tb.cols, wantColumns(rec)) {
					t.Errorf("%s: columns %q, want %q", what, tb.cols, wantColumns(rec))
				}
				if len(f) != len(tb.cols) {
					t.Errorf("%s: %d fields under %d columns: %q", what, len(f), len(tb.cols), tb.lines[ri])
					continue
				}
				for ci, col := range tb.cols {
					var want float64
					isInt := false
					switch col {
					case "Group":
						want, isInt = float64(rec.Group), true
					case "#bytes":
						want, isInt = float64(rec.Bytes), true
					case "#repetitions":
						want, isInt = float64(rec.Reps), true
					case "t[usec]", "t_max[usec]":
						want = rec.TMax
					case "t_min[usec]":
						want = rec.TMin
					case "t_avg[usec]":
						want = rec.TAvg
					case "Mbytes/sec":
						want = rec.MBps
					case "defects":
						want = rec.Defects
					case "t_ovrl[usec]":
						want = rec.TOvrl
					case "t_pure[usec]":
						want = rec.TPure
					case "t_CPU[usec]":
						want = rec.TCPU
					case "overlap[%]":
						want = rec.Overlap
					default:
						t.Fatalf("%s: unknown column %q", what, col)
					}
					if isInt {
						n, err := strconv.Atoi(f[ci])
						if err != nil || float64(n) != want {
							t.Errorf("%s: %s = %q, want %v", what, col, f[ci], want)
						}
						continue
					}
					v, err := strconv.ParseFloat(f[ci], 64)
					if err != nil || math.Abs(v-want) > 0.005+1e-9 || !strings.Contains(f[ci], ".") || len(f[ci])-strings.Index(f[ci], ".") != 3 {
						t.Errorf("%s: %s = %q, want %.2f", what, col, f[ci], want)
					}
				}
			}
		}
		if k != len(s.recs) {
			t.Errorf("%s: parsed %d rows, rendered %d records", s.name, k, len(s.recs))
		}
	}
}

// TestColumnLayout checks the fixed-width layout of every table: titles
// right-aligned in 13 characters, rules of 13*columns characters, data
// right-aligned in 13-character fields.
func TestColumnLayout(t *testing.T) {
	for _, s := range scenarios() {
		for ti, tb := range parseIMB(render(t, s)) {
			what := fmt.Sprintf("%s table %d", s.name, ti)
			width := 13 * len(tb.cols)
			var b strings.Builder
			for _, c := range tb.cols {
				b.WriteString(strings.Repeat(" ", 13-len(c)) + c)
			}
			if tb.header != b.String() {
				t.Errorf("%s: header %q, want %q", what, tb.header, b.String())
			}
			if len(tb.rules) != 2 {
				t.Errorf("%s: %d rules, want 2", what, len(tb.rules))
			}
			for _, r := range tb.rules {
				if r != "#"+strings.Repeat("-", width-1) {
					t.Errorf("%s: rule %q is not '#' and %d dashes", what, r, width-1)
				}
			}
			for _, line := range tb.lines {
				if len(line) != width {
					t.Errorf("%s: row %q is %d wide, want %d", what, line, len(line), width)
					continue
				}
				for c := 0; c < len(tb.cols); c++ {
					field := line[13*c : 13*c+13]
					if field[12] == ' ' || field[0] != ' ' {
						t.Errorf("%s: field %d of %q is not right-aligned in 13", what, c, line)
					}
				}
			}
		}
	}
}

func TestHeaderLines(t *testing.T) {
	// Column title lines written out by hand, as IMB prints them.
	want := map[string][]string{
		"sample1": {
			"       #bytes #repetitions      t[usec]   Mbytes/sec",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
		"sendrecv": {
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
		},
		"barrier": {
			" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
			" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
		"check": {
			"       #bytes #repetitions      t[usec]   Mbytes/sec      defects",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects",
			" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
		"ext": {
			"       #bytes #repetitions      t[usec]   Mbytes/sec      defects",
			"       #bytes #repetitions      t[usec]   Mbytes/sec      defects",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]      defects",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
		"io": {
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
			"       #bytes #repetitions t_ovrl[usec] t_pure[usec]  t_CPU[usec]   overlap[%]",
			"       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
			" #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
		"multi1": {
			"        Group       #bytes #repetitions      t[usec]   Mbytes/sec",
			"        Group       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]   Mbytes/sec",
			"        Group #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]",
		},
	}
	compareTables(t, want, "header lines", func(tb parsed) string { return tb.header })
}

// compareTables renders every scenario named in want and compares one
// field of each parsed table with the wanted list.
func compareTables(t *testing.T, want map[string][]string, what string, field func(parsed) string) {
	t.Helper()
	for _, s := range scenarios() {
		w, ok := want[s.name]
		if !ok {
			continue
		}
		var got []string
		for _, tb := range parseIMB(render(t, s)) {
			got = append(got, field(tb))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: %s\n%q\nwant\n%q", s.name, what, got, w)
		}
	}
}

func TestProcessBlock(t *testing.T) {
	// The lines between the first rule and the second of each table,
	// written out from IMB_show_procids.
	want := map[string][]string{
		"sample1": {
			"# Benchmarking PingPong \n# #processes = 2 \n",
			"# Benchmarking Allreduce \n# #processes = 2 \n",
		},
		"multi0": {
			"# Benchmarking Multi-PingPing \n# ( 2 groups of 2 processes each running simultaneous ) \n" +
				"# Group  0:     0    2\n# \n# Group  1:     1    3\n# \n",
			"# Benchmarking Multi-Allreduce \n# ( 2 groups of 2 processes each running simultaneous ) \n" +
				"# Group  0:     0    2\n# \n# Group  1:     1    3\n# \n",
			"# Benchmarking Allreduce \n# #processes = 4; rank order (rowwise): \n" +
				"#     0    2\n# \n#     1    3\n# \n",
		},
		"map": {
			"# Benchmarking Allreduce \n# #processes = 2; rank order (rowwise): \n" +
				"#     0    2\n# \n# ( 4 additional processes waiting in MPI_Barrier)\n",
			"# Benchmarking Allreduce \n# #processes = 4; rank order (rowwise): \n" +
				"#     0    2    4\n# \n#     1\n# \n# ( 2 additional processes waiting in MPI_Barrier)\n",
			"# Benchmarking Allreduce \n# #processes = 6; rank order (rowwise): \n" +
				"#     0    2    4\n# \n#     1    3    5\n# \n",
		},
		"idle": {
			"# Benchmarking Allreduce \n# #processes = 2 \n# ( 3 additional processes waiting in MPI_Barrier)\n",
			"# Benchmarking Allreduce \n# #processes = 4 \n# ( 1 additional process waiting in MPI_Barrier)\n",
			"# Benchmarking Allreduce \n# #processes = 5 \n",
			"# Benchmarking Multi-PingPong \n# ( 2 groups of 2 processes each running simultaneous ) \n" +
				"# Group  0:     0    1\n# \n# Group  1:     2    3\n# \n" +
				"# ( 1 additional process waiting in MPI_Barrier)\n",
		},
		"wide": {
			"# Benchmarking Allreduce \n# #processes = 36; rank order (rowwise): \n" +
				"#     0    2    4    6    8   10   12   14   16   18   20   22   24   26   28   30\n" +
				"#    32   34\n# \n" +
				"#     1    3    5    7    9   11   13   15   17   19   21   23   25   27   29   31\n" +
				"#    33   35\n# \n",
		},
	}
	compareTables(t, want, "process blocks", func(tb parsed) string { return tb.block })
}

func TestWriteError(t *testing.T) {
	r := NewIMBText(failWriter{})
	s := scenarios()[0]
	if err := r.Start(*s.header); err == nil {
		t.Error("Start on a failing writer returned nil")
	}
	if err := r.Row(&s.recs[0]); err == nil {
		t.Error("Row on a failing writer returned nil")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("pipe closed") }

func TestCommentAndDate(t *testing.T) {
	var buf bytes.Buffer
	r := NewIMBText(&buf)
	ctx := testContext(1, "PingPong")
	ctx.Start = "not a time"
	if err := r.Start(result.Header{Context: ctx, Part: "MPI-1", Benchmarks: []string{"PingPong"}, Multi: -1, MaxLen: 4194304}); err != nil {
		t.Fatal(err)
	}
	if err := r.Comment("\n# !! Benchmark PingPong invalid for 1 process   !! \n"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "\n# Date                  : not a time\n") {
		t.Errorf("an unparsable start time is not printed as is:\n%s", out)
	}
	if !strings.HasSuffix(out, "# PingPong\n\n# !! Benchmark PingPong invalid for 1 process   !! \n\n") {
		t.Errorf("comment not printed verbatim after the list:\n%q", out[len(out)-80:])
	}
	// C's asctime pads a one-digit day with a space.
	for start, want := range map[string]string{
		"2006-07-11T16:23:46Z":      "Tue Jul 11 16:23:46 2006",
		"2024-03-05T09:07:02+01:00": "Tue Mar  5 09:07:02 2024",
	} {
		if got := asctime(start); got != want {
			t.Errorf("asctime(%s) = %q, want %q", start, got, want)
		}
	}
}
