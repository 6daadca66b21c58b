package plots

import (
	"math"
	"strings"
	"testing"
)

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {1, "1"}, {250, "250"}, {10630.4, "10630"}, {1.063e4, "10630"},
		{4.18832, "4.188"}, {42.1749, "42.17"}, {123.45, "123.5"}, {999.96, "1000"},
		{9.99996, "10"}, {0.99996, "1"}, {0.2233617, "0.2234"}, {0.000123456, "0.0001235"},
		{1.5e-9, "0.0000000015"}, {-3.14159, "-3.142"}, {2.5e12, "2500000000000"},
		{-0.00001, "-0.00001"}, {1234567.8, "1234568"},
	} {
		if got := Num(c.v); got != c.want {
			t.Errorf("Num(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := Num(v); got == "" || got == "NaN" || got[0] == '+' {
			t.Errorf("Num(%v) = %q", v, got)
		}
	}
}

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
