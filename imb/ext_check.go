package imb

import (
	"math"

	"mpibench/mpi"
)

// measureChecked runs the pattern of length x in mode m with results
// checking; its timings are not valid benchmark data. An aggregate run is
// executed whole (n_sample transfers, one fence) and all its sections are
// verified after the fence, as IMB does; a non-aggregate run is executed
// one transfer per call, each verified. Every call opens with an extra
// MPI_Win_fence, so that the buffer reset before it is part of the
// window's public copy before any transfer starts.
func (c *rmaCase) measureChecked(run *mpi.RMARun, x int, m Mode) (Sample, error) {
	calls := 1
	if m != Aggregate {
		calls, run.Reps = run.Reps, 1
	}
	run.OpenFence = true
	checked := c.recv.Bytes()[:rmaWindowSize(c.set, x, m)]
	total, defects := 0.0, 0
	for i := 0; i < calls; i++ {
		c.resetChecked(checked)
		run.First = i
		t, err := run.Exec()
		if err != nil {
			return Sample{}, err
		}
		total += t
		defects += c.defects(checked)
	}
	return Sample{T: total / float64(calls), Defects: defects}, nil
}

// resetChecked prepares the buffer a run writes into recv (the window of
// Put and Accumulate, the landing zone of Get): poisoned where data is to
// arrive, so missing data cannot pass; for Accumulate, the root's initial
// pattern, which the sums add to.
func (c *rmaCase) resetChecked(checked []byte) {
	switch {
	case c.spec.Op == mpi.RMAAccumulate && c.rank == 0:
		FillFloats(c.recv.Float32s()[:len(checked)/4], 0, 0)
	case c.spec.Op != mpi.RMAAccumulate && c.spec.source(c.rank) >= 0:
		poison(checked)
	}
}

// defects verifies recv after a run: the sums at the root of Accumulate,
// the source's bytes where a Put or Get delivered them.
func (c *rmaCase) defects(checked []byte) int {
	if c.spec.Op == mpi.RMAAccumulate {
		if c.rank != 0 {
			return 0
		}
		return extAccDefects(c.recv.Float32s()[:len(checked)/4], c.q)
	}
	if src := c.spec.source(c.rank); src >= 0 {
		return extByteDefects(&c.v, checked, src)
	}
	return 0
}

// extByteDefects counts the bytes of got that differ from rank src's
// pattern. Got is the run's sections [0, M·x): transfer i moves the bytes
// at offset i·x of the origin buffer to offset i·x of the target window,
// and the Get target's window is its send buffer, so after a correct run
// got holds src's send buffer byte for byte.
func extByteDefects(v *Verifier, got []byte, src int) int {
	return v.countBytes(got, src, 0)
}

// extAccDefects counts the floats of the root's window that are not their
// expected sums after an Accumulate run of n ranks. Before the run float j
// of the window holds the root's pattern BUF_VALUE(0, j); every rank s
// adds float j of its send buffer, BUF_VALUE(s, j), to it (transfer i
// moves floats [i·L, (i+1)·L) of the origin buffer to the same floats of
// the window). So float j must be BUF_VALUE(0, j) + Σ_s BUF_VALUE(s, j).
// The n+1 terms are positive and MPI may add them in any order in float,
// so each addition may round by 2^-24 of the sum: the tolerance is
// 2(n+1)·2^-24 of the exact sum.
func extAccDefects(got []float32, n int) int {
	tol := 2 * float64(n+1) * math.Pow(2, -24)
	bad := 0
	for j, g := range got {
		want := float64(BufValue(0, j))
		for s := 0; s < n; s++ {
			want += float64(BufValue(s, j))
		}
		if d := math.Abs(float64(g) - want); !(d <= tol*want) {
			bad++
		}
	}
	return bad
}
