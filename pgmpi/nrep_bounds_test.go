package pgmpi

import (
	"fmt"
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

	if _, err := ParseSizes("16,1073741825"); err == nil || !strings.Contains(err.Error(), "1073741825") {
		t.Errorf("ParseSizes above 1 GiB: %v", err)
	}
	if got, err := ParseSizes("0,1073741824"); err != nil || got[1] != MaxBytes {
		t.Errorf("ParseSizes at the bound: %v %v", got, err)
	}
	// Volume rounds within int at the bound.
	if v := Volume(MaxBytes, 3); v < MaxBytes || v%12 != 0 {
		t.Errorf("Volume(MaxBytes, 3) = %d", v)
	}
}
