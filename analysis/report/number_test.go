package report

import (
	"strings"
	"testing"
)

// No tick label of a linear or log axis is written with an exponent.
func TestTickLabelsPlain(t *testing.T) {
	var labels []string
	for _, r := range [][2]float64{{0, 2e6}, {-3e7, 1e7}, {0, 1.2e-5}, {1e-6, 1e-3}} {
		for _, tk := range (plainTicks{}).Ticks(r[0], r[1]) {
			labels = append(labels, tk.Label)
		}
		if r[0] > 0 {
			for _, tk := range (logTicks{}).Ticks(r[0], r[1]) {
				labels = append(labels, tk.Label)
			}
		}
	}
	for _, l := range labels {
		if strings.ContainsAny(l, "eE") {
			t.Errorf("tick label %q", l)
		}
	}
	if got := strings.Join(labels, " "); !strings.Contains(got, "2M") || !strings.Contains(got, "-30M") || !strings.Contains(got, "0.00001") {
		t.Errorf("labels %s", got)
	}
}

// Zero, drawn on a log axis at half the smallest length, takes the place
// of a tick there: lengths 0, 4, 8 put it at 2, which is not labelled "2"
// over the "0".
func TestLogTicksZero(t *testing.T) {
	var at2 []string
	for _, tk := range (logTicks{zero: 2}).Ticks(2, 16) {
		if tk.Value == 2 {
			at2 = append(at2, tk.Label)
		}
	}
	if len(at2) != 1 || at2[0] != "0" {
		t.Errorf("ticks at 2: %q, want only \"0\"", at2)
	}
}
