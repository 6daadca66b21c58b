package imbtext

import (
	"bytes"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// TestWindowColumns: a -sync window record adds valid, invalid, the window
// and the clock error (µs) after the times, in IMB's 13-character columns.
func TestWindowColumns(t *testing.T) {
	var buf bytes.Buffer
	tx := NewIMBText(&buf)
	invalid := 3
	r := &result.Record{Suite: "mpi1", Benchmark: "Allreduce", Class: "collective", Multi: -1, Group: -1, NProcs: 2,
		Groups: [][]int{{0, 1}}, Bytes: 4, Reps: 10, TMin: 1.5, TMax: 1.5, TAvg: 1.5, Starts: result.Starts{Sync: "window", WindowS: 0.001, ClockErr: 2.5e-6, ValidReps: 7, InvalidReps: &invalid}}
	if err := tx.Row(r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	head := "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]        valid      invalid window[usec] clkerr[usec]\n"
	row := "            4           10         1.50         1.50         1.50            7            3      1000.00         2.50\n"
	if !strings.Contains(out, head) || !strings.HasSuffix(out, row) {
		t.Errorf("got\n%s\nwant the header\n%s and the row\n%s", out, head, row)
	}
}
