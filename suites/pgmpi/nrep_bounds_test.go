package pgmpi

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Repetitions and volumes are bounded wherever they come in: the
// criteria of Step NREP, the entries of an NREP file and -sizes.
func TestBounds(t *testing.T) {
	c := DefaultCriteria()
	c.Max, c.Step = MaxReps, MaxReps
	if err := c.Check(); err != nil {
		t.Errorf("max=step=%d: %v", MaxReps, err)
	}
	for _, set := range []func(*Criteria){
		func(c *Criteria) { c.Max = MaxReps + 1 },
		func(c *Criteria) { c.Max = 9_000_000_000_000_000_000 },
		func(c *Criteria) { c.Step = MaxReps + 1 },
		func(c *Criteria) { c.Methods = []string{CovMean}; c.Windows[CovMean] = MaxReps + 1 },
	} {
		c := DefaultCriteria()
		set(&c)
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), "10000000") {
			t.Errorf("%+v: %v, want an error naming the bound", c, err)
		}
	}

	for _, e := range []string{
		`{"call":"MPI_Bcast","bytes":16,"reps":10000001}`,
		`{"call":"MPI_Bcast","bytes":16,"reps":9000000000000000000}`,
		`{"call":"MPI_Bcast","bytes":1073741825,"reps":1}`,
	} {
		if _, err := ReadNrep(strings.NewReader(`{"procs":2,"entries":[` + e + `]}`)); err == nil {
			t.Errorf("ReadNrep accepted %s", e)
		}
	}
	if _, err := ReadNrep(strings.NewReader(fmt.Sprintf(`{"procs":2,"entries":[{"call":"MPI_Bcast","bytes":%d,"reps":%d}]}`,
		MaxBytes, MaxReps))); err != nil {
		t.Errorf("ReadNrep at the bounds: %v", err)
	}

	if _, _, err := parseMeasure([]string{"-calls", "MPI_Bcast", "-sizes", "16,1073741825", "-verify"}, 1, false); err == nil ||
		!strings.Contains(err.Error(), "1073741825") {
		t.Errorf("-sizes above 1 GiB: %v", err)
	}
	if p, _, err := parseMeasure([]string{"-calls", "MPI_Bcast", "-sizes", "0,1073741824", "-verify"}, 1, false); err != nil ||
		len(p.Items) != 2 || p.Items[1].Bytes != MaxBytes {
		t.Errorf("-sizes at the bound: %+v %v", p, err)
	}
	// Volume rounds within int at the bound.
	if v := Volume(MaxBytes, 3); v < MaxBytes || v%12 != 0 {
		t.Errorf("Volume(MaxBytes, 3) = %d", v)
	}
}

// -sizes is defaultSizes until given, and a list given replaces it, in
// the order given.
func TestSizesFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []int
	}{
		{nil, []int{16, 256, 4096, 65536}},
		{[]string{"-sizes", "8, 0,8"}, []int{8, 0, 8}},
		{[]string{"-sizes=1024"}, []int{1024}},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		got := sizesFlag(fs)
		if err := fs.Parse(c.args); err != nil || !slices.Equal(*got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.args, *got, err, c.want)
		}
	}
}
