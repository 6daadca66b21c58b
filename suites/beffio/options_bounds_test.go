package beffio

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"mpibench/run/cases"
)

// -T and -mem are bounded: beyond, a usage error, not a watchdog that
// fires at once or an overflowed size.
func TestParseArgsBounds(t *testing.T) {
	for _, bad := range [][]string{
		{"-T", "99999999999"}, {"-T", "1e308"}, {"-T", "1000000.5"}, {"-T", "Inf"}, {"-T", "NaN"},
		{"-mem", "9999999999"}, {"-mem", "1048577"}, {"-mem", "99999999999999999999"},
	} {
		_, err := ParseArgs(bad)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%q: got %v, want a usage error naming %s", bad, err, bad[0])
		}
	}
	o, err := ParseArgs([]string{"-T", "1000000", "-mem", "1048576"})
	if err != nil || o.T != MaxT || o.Mem != MaxMemMB {
		t.Errorf("at the bounds: %+v, %v", o, err)
	}
}

// caseOf adds the schedule in seconds and saturates: a huge -T (one
// that ParseArgs now refuses) no longer wraps the expected time round to
// a negative Duration, which made the watchdog fire at once.
func TestCaseOfHugeT(t *testing.T) {
	for _, T := range []float64{99999999999, 1e308, math.Inf(1)} {
		plan, err := NewPlan(Options{T: T}, 2, 64)
		if err != nil {
			t.Fatal(err)
		}
		m := &meter{plan: plan, parts: []*state{{reps: make([]int64, len(plan.Table))}}}
		c := m.caseOf(0, 0, 0, 2, "k", false)
		if c.Expect <= 0 {
			t.Errorf("T %g: Expect %v", T, c.Expect)
		}
		if l := cases.DefaultLimit(c); l != cases.MaxDefaultLimit {
			t.Errorf("T %g: limit %v, want %v", T, l, cases.MaxDefaultLimit)
		}
	}
	plan, _ := NewPlan(Options{T: 192}, 2, 64)
	m := &meter{plan: plan, parts: []*state{{reps: make([]int64, len(plan.Table))}}}
	// Type 0 has 22 of the 64 units: 192·22/64/3 = 22 s.
	if c := m.caseOf(0, 0, 0, 2, "k", false); c.Expect != 22*time.Second {
		t.Errorf("T 192: Expect %v, want 22s", c.Expect)
	}
}
