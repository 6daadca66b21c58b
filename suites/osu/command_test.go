package osu

import (
	"slices"
	"strings"
	"testing"
)

// TestUsageBig: the tests the help names for 2 GiB and more (with their
// -T) are exactly those Parse lets through at -m 4G, every test of the
// table tried with each datatype.
func TestUsageBig(t *testing.T) {
	const marker = "2 GiB and more, up to 1 TiB, only for"
	_, after, ok := strings.Cut(Usage, marker)
	text, _, ok2 := strings.Cut(after, "\n  -")
	if !ok || !ok2 {
		t.Fatalf("the help has no %q in -m's entry:\n%s", marker, Usage)
	}
	got := strings.Split(strings.TrimSuffix(strings.Join(strings.Fields(text), " "), ")"), ", ")
	var want []string
	for _, b := range Benchmarks() {
		if _, err := Parse([]string{b.Name, "-m", "4G"}); err == nil {
			want = append(want, b.Name)
		}
		for _, typ := range typeNames[1:] {
			if _, err := Parse([]string{b.Name, "-m", "4G", "-T", typ}); err == nil {
				want = append(want, b.Name+" (-T "+strings.ToLower(typ)+")")
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the help names %q for 2 GiB and more; -m 4G runs %q", got, want)
	}
}

// TestListingDatatype: mpibench list says "(-T)" for exactly the tests
// that Parse lets take -T, and "-" for the others (the barriers).
func TestListingDatatype(t *testing.T) {
	rows := listing().Rows
	for i, b := range Benchmarks() {
		want := "-"
		if _, err := Parse([]string{b.Name, "-T", "mpi_int"}); err == nil {
			want = "MPI_CHAR (-T)"
		}
		if got := rows[i][3]; rows[i][1] != b.Name || got != want {
			t.Errorf("%s: list's datatype %q, want %q", b.Name, got, want)
		}
	}
}
