package beff

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// samples makes the samples of one pattern: at length index i the best
// method and repetition has b = best(i); the others are lower and must
// not count.
func samples(pat, group string, lens []int, best func(i int) float64) []Sample {
	var out []Sample
	for i, l := range lens {
		for mi, m := range AllMethods {
			for rep := 1; rep <= 3; rep++ {
				b := best(i) * 0.5
				if mi == 1 && rep == 2 {
					b = best(i)
				}
				out = append(out, Sample{pat, group, l, m, rep, b})
			}
		}
	}
	return out
}

func TestCompute(t *testing.T) {
	lens := Lengths(8192)
	var s []Sample
	s = append(s, samples("A", Cartesian, lens, func(i int) float64 { return float64(i + 1) })...) // avg (1+...+21)/21 = 11
	s = append(s, samples("B", Cartesian, lens, func(int) float64 { return 44 })...)
	s = append(s, samples("C", Random, lens, func(int) float64 { return 8 })...)
	s = append(s, samples("D", Random, lens, func(int) float64 { return 2 })...)
	s = append(s, samples("E", Analysis, lens, func(int) float64 { return 1e6 })...)
	s = append(s, Sample{PingPong, Analysis, 8192, Sendrecv, 1, 700}, Sample{PingPong, Analysis, 8192, Sendrecv, 2, 750})
	r := Compute(s, 8192)
	// By hand: Cartesian logavg(11, 44) = 22, random logavg(8, 2) = 4,
	// b_eff = sqrt(22·4) = sqrt(88). At L_max: sqrt(21·44) and 4.
	checks := []struct {
		name      string
		got, want float64
	}{
		{"primary", r.Primary, 22},
		{"random", r.Random, 4},
		{"b_eff", r.Beff, math.Sqrt(88)},
		{"primary at L_max", r.PrimaryMax, math.Sqrt(21 * 44)},
		{"b_eff at L_max", r.BeffLmax, math.Sqrt(math.Sqrt(21*44) * 4)},
		{"ping-pong", r.PingPong, 750},
		{"A avg", r.Patterns[0].Avg, 11},
		{"A at L_max", r.Patterns[0].AtLmax, 21},
		{"A alltoallv", r.Patterns[0].Methods[Alltoallv], 11},
		{"A sendrecv", r.Patterns[0].Methods[Sendrecv], 5.5},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s = %.12g, want %.12g", c.name, c.got, c.want)
		}
	}
	if math.Abs(r.Beff-9.38083151964686) > 1e-9 {
		t.Errorf("b_eff = %.12g, want 9.38083151964686", r.Beff)
	}
	if len(r.Patterns) != 6 || r.Patterns[4].Name != "E" {
		t.Errorf("patterns %+v", r.Patterns)
	}
}

func TestLogAvg(t *testing.T) {
	if got := LogAvg([]float64{1, 10, 100}); !near(got, 10) {
		t.Errorf("LogAvg(1,10,100) = %g", got)
	}
	if LogAvg(nil) != 0 || LogAvg([]float64{3, 0}) != 0 {
		t.Error("LogAvg of nothing or of a zero must be 0")
	}
}

func TestBandwidth(t *testing.T) {
	// 1000 B · 4 messages · 300 loops / 1.2 ms = 10^9 B/s = 1000 MB/s.
	if got := Bandwidth(1000, 4, 300, 1.2e-3); !near(got, 1000) {
		t.Errorf("Bandwidth = %g, want 1000", got)
	}
}
