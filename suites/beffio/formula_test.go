package beffio

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestFormula(t *testing.T) {
	// (2·60 + 30 + 90 + 45 + 15) / 6 = 300/6 = 50
	if got := AccessValue([Types]float64{60, 30, 90, 45, 15}); !near(got, 50) {
		t.Errorf("AccessValue = %g, want 50", got)
	}
	// 0.25·40 + 0.25·80 + 0.5·100 = 80
	if got := PartitionValue([3]float64{40, 80, 100}); !near(got, 80) {
		t.Errorf("PartitionValue = %g, want 80", got)
	}
	if got, at := SystemValue([]float64{80, 120, 95}); got != 120 || at != 1 {
		t.Errorf("SystemValue = %g at %d, want 120 at 1", got, at)
	}
	if got := Bandwidth(3e6, 2); got != 1.5 {
		t.Errorf("Bandwidth = %g, want 1.5", got)
	}
	if got := Bandwidth(1, 0); got != 0 {
		t.Errorf("Bandwidth without time = %g", got)
	}
}
