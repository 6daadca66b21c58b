package clocksync

import (
	"fmt"
	"math"

	"mpibench/mpi"
	"mpibench/run/clocksync/kernel"
)

// Options are the sizes of the synchronisation: Points fit points per
// client, each the fastest of Exchanges ping-pongs (ReproMPI's HCA takes
// the same two numbers; the fastest exchange has the tightest bound).
type Options struct{ Points, Exchanges int }

// Defaults are 20 fit points of 10 exchanges: 200 ping-pongs a client,
// a few milliseconds on one node.
var Defaults = Options{Points: 20, Exchanges: 10}

// Clock is this rank's clock model against rank 0 of the communicator and
// the estimated clock error of the whole communicator: the largest Err of
// its ranks' models, in seconds.
type Clock struct {
	Model
	MaxErr float64
}

// Sync synchronises the clocks of c (every rank calls it): in the round of
// distance d (the largest power of two below the size first, halving), rank
// r with r mod 2d = d is the client of r-d, whose own model is complete by
// then because its lowest set bit is larger. Rank 0 keeps the identity.
func Sync(c mpi.Comm, o Options) (Clock, error) {
	if o.Points < 1 || o.Exchanges < 1 {
		return Clock{}, fmt.Errorf("clock synchronisation of %d points of %d exchanges", o.Points, o.Exchanges)
	}
	rank, size := c.Rank(), c.Size()
	m := Identity
	fitted := 0.0 // a client's last fit point, where its bound still holds
	top := 1
	for top*2 < size {
		top *= 2
	}
	for d := top; d >= 1 && size > 1; d /= 2 {
		switch {
		case rank%(2*d) == 0 && rank+d < size:
			if _, _, _, _, err := kernel.Pair(c, rank+d, false, o.Points, o.Exchanges, [3]float64{m.A, m.S, m.Err}); err != nil {
				return Clock{}, err
			}
		case rank%(2*d) == d:
			x, off, rtt, ref, err := kernel.Pair(c, rank-d, true, o.Points, o.Exchanges, [3]float64{})
			if err != nil {
				return Clock{}, err
			}
			pts := Fast(points(x, off, rtt))
			m = FitPoints(pts).Model().Then(Model{A: ref[0], S: ref[1], Err: ref[2]})
			fitted = lastX(pts)
		}
	}
	e := []float64{m.Err}
	if err := kernel.Max(c, e); err != nil {
		return Clock{}, err
	}
	clk := Clock{Model: m, MaxErr: e[0]}
	if synced != nil {
		synced(c, clk, fitted)
	}
	return clk, nil
}

// synced, nil but in a mutant build (mutant.go), sees every clock Sync
// made and the local time of its last fit point (0 on rank 0).
var synced func(c mpi.Comm, clk Clock, fitted float64)

func points(x, off, rtt []float64) []Point {
	pts := make([]Point, len(x))
	for i := range x {
		pts[i] = Point{X: x[i], Off: off[i], RTT: rtt[i]}
	}
	return pts
}

// lastX is the latest local time among pts. The bound of a linear fit
// (max |residual| + RTT/2) holds at every point and so, the error being
// linear in time, between them; past the last point it grows by the
// slope's error times the distance, so the truth is checked there.
func lastX(pts []Point) float64 {
	t := math.Inf(-1) // Open MPI's clock starts at MPI_Init; the mutant's may be negative
	for _, p := range pts {
		t = max(t, p.X)
	}
	return t
}
