package result

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestWriterLayoutOnce: -multi 1 at P processes writes P/q records that
// share one layout. The Writer compares it with its description once, not
// once a record (O(P) each, O(P²/q) a length): the records after the
// first allocate nothing that grows with P.
func TestWriterLayoutOnce(t *testing.T) {
	const procs, q = 4096, 2
	groups := Layout(procs, q, MapOrder(procs, 0, 0), true)
	r := Record{Suite: SuiteMPI1, Benchmark: "PingPong", Multi: 1, NProcs: q, Groups: groups, Bytes: 8, Reps: 1}
	r.Context.Procs = procs
	w := NewWriter(io.Discard)
	if err := w.Write(&r); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		r.Group++
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 50 {
		t.Errorf("a record of a layout already written allocates %.0f times at P = %d, want a constant (< 50)", allocs, procs)
	}
}

// TestWriterLayoutChanged: the remembered layout is used only for the
// same slice under the same description; other groups are compared again
// and written out when they differ.
func TestWriterLayoutChanged(t *testing.T) {
	groups := Layout(8, 2, MapOrder(8, 0, 0), true)
	r := Record{Suite: SuiteMPI1, Benchmark: "PingPong", Multi: 1, NProcs: 2, Groups: groups, Bytes: 8, Reps: 1}
	r.Context.Procs = 8
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, step := range []struct {
		name   string
		change func()
		listed bool // the line lists the groups
	}{
		{"described", func() {}, false},
		{"same slice again", func() {}, false},
		{"same slice, other q", func() { r.NProcs = 4 }, true},
		{"copy, changed", func() {
			r.NProcs = 2
			r.Groups = append([][]int{{1, 0}}, groups[1:]...)
		}, true},
		{"primary", func() { r.Groups, r.Multi = [][]int{{0, 1}}, -1 }, false},
	} {
		step.change()
		b.Reset()
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), `"groups"`); got != step.listed {
			t.Errorf("%s: groups listed %v, want %v: %s", step.name, got, step.listed, b.String())
		}
	}
}
