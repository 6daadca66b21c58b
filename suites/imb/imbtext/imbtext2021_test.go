package imbtext

import (
	"bytes"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// TestMsgRateTable: Uniband's and Biband's table has IMB 2021.11's shape
// (IMB_output.c, OUT_BW_AND_MSG_RATE): #bytes, #repetitions, Mbytes/sec
// with two decimals and Msg/sec without, 13 characters each, under a rule
// of 4·13−1 dashes.
func TestMsgRateTable(t *testing.T) {
	var buf bytes.Buffer
	w := NewIMBText(&buf)
	for _, x := range []int{0, 1024} {
		r := &result.Record{Suite: result.SuiteMPI1, Benchmark: "Uniband", Class: "parallel", Multi: -1, Group: -1,
			NProcs: 2, Groups: [][]int{{0, 1}}, Bytes: x, Reps: 1000, TMax: 10, Window: 64,
			MsgRate: 6.4e6, MBps: 6.4e6 * float64(x) / 1e6, Context: testContext(2)}
		if err := w.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	want := "#" + strings.Repeat("-", 51) + "\n# Benchmarking Uniband \n# #processes = 2 \n#" + strings.Repeat("-", 51) +
		"\n       #bytes #repetitions   Mbytes/sec      Msg/sec\n" +
		"            0         1000         0.00      6400000\n" +
		"         1024         1000      6553.60      6400000\n"
	if got := buf.String(); !strings.Contains(got, want) {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

// TestHeader2021Suites: the headers of nbc, rma, mpi4 and ext have their
// IMB 2021.11 program's blanks (src_cpp/<suite>/<suite>_suite.cpp,
// declare_args), IMB-RMA's list its comments, and no suite the IMB 3.0
// lines (MPI Library, Hosts, -time, the 51-dash rule).
func TestHeader2021Suites(t *testing.T) {
	for _, c := range []struct {
		suite, part string
		names       []string
		want        string
	}{
		{result.SuiteNBC, "MPI-NBC", []string{"Ibcast"}, "# mpibench nbc\n\n# Message lengths were user defined\n#\n" +
			"# MPI_Datatype                   :   MPI_BYTE \n# MPI_Datatype for reductions    :   MPI_FLOAT\n" +
			"# MPI_Op                         :   MPI_SUM  \n#\n#\n\n# List of Benchmarks to run:\n\n# Ibcast\n"},
		{result.SuiteRMA, "MPI-RMA", []string{"Unidir_put", "Compare_and_swap"}, "# mpibench rma \n\n" +
			"# Message lengths were user defined\n#\n" +
			"# MPI_Datatype                   :   MPI_BYTE \n# MPI_Datatype for reductions    :   MPI_FLOAT\n" +
			"# MPI_Op                         :   MPI_SUM  \n# \n# \n\n# List of Benchmarks to run:\n\n" +
			"# Unidir_put\n# Compare_and_swap\n#     Uses MPI_INT data type\n"},
		{result.SuiteMPI4, "MPI-4", []string{"Bcast_persist"}, "# mpibench mpi4\n\n# Message lengths were user defined\n#\n" +
			"# MPI_Datatype                   :   MPI_BYTE \n# MPI_Datatype for reductions    :   MPI_FLOAT\n" +
			"# MPI_Op                         :   MPI_SUM  \n# \n# \n\n# List of Benchmarks to run:\n\n# Bcast_persist\n"},
		{result.SuiteEXT, "MPI-2", []string{"Window"}, "# mpibench ext\n\n# Message lengths were user defined\n#\n" +
			"# MPI_Datatype                   :   MPI_BYTE \n# MPI_Datatype for reductions    :   MPI_FLOAT\n" +
			"# MPI_Op                         :   MPI_SUM  \n#\n#\n\n# List of Benchmarks to run:\n\n# Window\n"},
	} {
		var buf bytes.Buffer
		h := result.Header{Context: testContext(2, c.suite), Suite: c.suite, Part: c.part, Benchmarks: c.names,
			Multi: 0, UserLens: true, TimeLimit: 10, IMB2021: true}
		if err := NewIMBText(&buf).Start(h); err != nil {
			t.Fatal(err)
		}
		got := buf.String()
		title := "#" + strings.Repeat("-", 64) + "\n#    mpibench 0.1.0 (IMB 2021.11), " + c.part + " part\n"
		if !strings.HasPrefix(got, title) || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s header\n%s\nwant it to start\n%s\nand end\n%s", c.suite, got, title, c.want)
		}
		for _, bad := range []string{"MPI Library", "Hosts", "-time", "(Multi-)"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s header has %q:\n%s", c.suite, bad, got)
			}
		}
	}
}

// TestNote: Note starts the record's table as Row would, prints its line
// in it, and a row of the same table that follows gets no second header.
func TestNote(t *testing.T) {
	var buf bytes.Buffer
	w := NewIMBText(&buf)
	r := &result.Record{Suite: result.SuiteMPI1, Benchmark: "Allreduce", Class: "collective", Multi: -1, Group: -1,
		NProcs: 2, Groups: [][]int{{0, 1}}, Bytes: 4, Reps: 10, TMax: 1, Context: testContext(2)}
	if err := w.Note(r, "            0 time-out."); err != nil {
		t.Fatal(err)
	}
	if err := w.Row(r); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if strings.Count(got, "# Benchmarking Allreduce") != 1 ||
		!strings.Contains(got, "t_avg[usec]\n            0 time-out.\n            4           10") {
		t.Errorf("table:\n%s", got)
	}
}
