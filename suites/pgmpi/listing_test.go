package pgmpi

import (
	"slices"
	"testing"
)

// The suite brings its own rows of `mpibench list`: one per call or
// mock-up, under its own header.
func TestListing(t *testing.T) {
	if Command.List == nil {
		t.Fatal("pgmpi.Command has no listing")
	}
	l := Command.List()
	if len(l.Rows) != len(Calls) {
		t.Errorf("%d rows for %d calls", len(l.Rows), len(Calls))
	}
	want := []string{"pgmpi", "Reduce_scatter_as_Reduce_Scatterv", "mockup", "GL17", "MPI_Reduce, MPI_Scatterv"}
	if !slices.ContainsFunc(l.Rows, func(r []string) bool { return slices.Equal(r, want) }) {
		t.Errorf("no row %q in %q", want, l.Rows)
	}
	for _, r := range l.Rows {
		if len(r) != len(l.Header) {
			t.Errorf("row %q under header %q", r, l.Header)
		}
	}
}
