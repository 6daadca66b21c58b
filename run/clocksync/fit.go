// Package clocksync synchronises the MPI_Wtime clocks of a communicator's
// ranks against rank 0 and times collectives in start windows, the method
// of ReproMPI (Hunold and Carpen-Amarie, "Reproducible MPI Benchmarking Is
// Still Not As Easy As You Think", IEEE TPDS 2016), so that a collective's
// time is the last rank's end minus a start common to every rank, free of
// the barrier's skew and of a fast rank's early exit.
//
// The clock is MPI_Wtime (what every timed loop of mpibench reads; Open
// MPI's counts from each process's own MPI_Init, so even the ranks of one
// node differ by a constant). The synchronisation is HCA-style
// (Hunold-Carpen-Amarie's hierarchical algorithm): in rounds over a
// binomial tree, from the largest distance down, a client rank measures
// its offset to its reference rank by ping-pongs, keeps the fit points of
// short round trips (Fast) and fits a linear model
// offset(t) = a + b·t (the drift b) by least squares; the reference then
// sends its own model against rank 0, which the client composes with its
// fit. ⌈log2 P⌉ rounds instead of P-1 (JK, SKaMPI). Why a linear model:
// clocks drift, and a constant offset (SKaMPI) is wrong after a long run;
// why hierarchical: the time of the step grows with log P. The drift is
// kept only where the fit finds it significant (|b| > 3 standard
// errors): over the milliseconds a synchronisation lasts, an insignificant
// slope is noise that would grow with time, so the model is then the mean
// offset, as SKaMPI's.
package clocksync

import (
	"math"
	"slices"
)

// Point is one fit point of a client: its local time X (the midpoint of
// the exchange), Off = the reference's time - X, and the exchange's round
// trip RTT. The true offset at X lies within ±RTT/2 of Off.
type Point struct{ X, Off, RTT float64 }

// Model maps a rank's local time t to the global time (rank 0's) A + S·t.
// Err is the estimated error of the global time it gives, in seconds.
type Model struct{ A, S, Err float64 }

// Identity is rank 0's model.
var Identity = Model{S: 1}

// Global is the global time of local time t.
func (m Model) Global(t float64) float64 { return m.A + m.S*t }

// Local is the local time of global time g.
func (m Model) Local(g float64) float64 { return (g - m.A) / m.S }

// Then is the model of a client whose model against its reference is m,
// where ref is the reference's model against rank 0: the composition
// ref(m(t)); the errors add.
func (m Model) Then(ref Model) Model {
	return Model{A: ref.A + ref.S*m.A, S: ref.S * m.S, Err: m.Err + ref.Err}
}

// Fit is the least-squares line through a client's points.
type Fit struct {
	Intercept, Slope float64 // offset(t) = Intercept + Slope·t
	SlopeSE          float64 // standard error of the slope; +Inf with fewer than 3 points
	Drift            bool    // the slope is significant and kept
	Err              float64 // max over the points of |residual| + RTT/2
}

// FitPoints fits offset = a + b·x to pts, keeping b only when it exceeds
// three standard errors (else a is the mean offset and b = 0). x is
// centred before the sums, so large clock values lose no precision.
func FitPoints(pts []Point) Fit {
	n := float64(len(pts))
	if len(pts) == 0 {
		return Fit{SlopeSE: math.Inf(1)}
	}
	var mx, my float64
	for _, p := range pts {
		mx += p.X
		my += p.Off
	}
	mx, my = mx/n, my/n
	var sxx, sxy float64
	for _, p := range pts {
		sxx += (p.X - mx) * (p.X - mx)
		sxy += (p.X - mx) * (p.Off - my)
	}
	f := Fit{Intercept: my, SlopeSE: math.Inf(1)}
	if len(pts) >= 3 && sxx > 0 {
		b := sxy / sxx
		var ss float64
		for _, p := range pts {
			r := p.Off - (my + b*(p.X-mx))
			ss += r * r
		}
		f.SlopeSE = math.Sqrt(ss / (n - 2) / sxx)
		if math.Abs(b) > 3*f.SlopeSE {
			f.Slope, f.Intercept, f.Drift = b, my-b*mx, true
		}
	}
	for _, p := range pts {
		f.Err = math.Max(f.Err, math.Abs(p.Off-f.Offset(p.X))+p.RTT/2)
	}
	return f
}

// Fast keeps the points whose round trip is at most twice the median
// round trip (at least half of them): an exchange delayed by the
// scheduler bounds its offset loosely, and one such point would
// dominate the fit and the error bound.
func Fast(pts []Point) []Point {
	if len(pts) == 0 {
		return nil
	}
	r := make([]float64, len(pts))
	for i, p := range pts {
		r[i] = p.RTT
	}
	slices.Sort(r)
	limit := 2 * r[(len(r)-1)/2]
	var out []Point
	for _, p := range pts {
		if p.RTT <= limit {
			out = append(out, p)
		}
	}
	return out
}

// Offset is the fitted offset at local time x.
func (f Fit) Offset(x float64) float64 { return f.Intercept + f.Slope*x }

// Model is the fit as a clock model against the reference:
// reference time = t + a + b·t.
func (f Fit) Model() Model { return Model{A: f.Intercept, S: 1 + f.Slope, Err: f.Err} }
