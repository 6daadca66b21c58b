package report

import (
	"bytes"
	"strings"
	"testing"

	"mpibench/result"
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
