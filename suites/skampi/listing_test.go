package skampi

import (
	"slices"
	"testing"
)

// The suite brings its own rows of `mpibench list`: one per operation,
// under its own header.
func TestListing(t *testing.T) {
	if Command.List == nil {
		t.Fatal("skampi.Command has no listing")
	}
	l := Command.List()
	if len(l.Rows) != len(Operations()) {
		t.Errorf("%d rows for %d operations", len(l.Rows), len(Operations()))
	}
	want := []string{"skampi", "Send_Recv_AT", "pingpong", "MPI_Send/MPI_Recv(MPI_ANY_TAG)"}
	if !slices.ContainsFunc(l.Rows, func(r []string) bool { return slices.Equal(r, want) }) {
		t.Errorf("no row %q in %q", want, l.Rows)
	}
	for _, r := range l.Rows {
		if len(r) != len(l.Header) {
			t.Errorf("row %q under header %q", r, l.Header)
		}
	}
}
