package pgmpi

import (
	"fmt"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/mpi"
	"mpibench/suites/pgmpi/kernel"
)

// newCase prepares call at volume n bytes on c; the root's broadcast
// buffer of MPI_Bcast and its mock-up starts with the input.
func newCase(c mpi.Comm, call *Call, n int) (*kernel.Case, error) {
	return kernel.NewCase(c, call.Kernel, n/IntSize, call.Emulates == "MPI_Bcast")
}

// Measure runs call at volume n (bytes, a Volume) reps times after one
// untimed warm-up call and returns on rank 0 every repetition's time in
// µs (nil on the others).
func Measure(c mpi.Comm, call *Call, n, reps int) ([]float64, error) {
	pc, err := newCase(c, call, n)
	if err != nil {
		return nil, err
	}
	defer pc.Free()
	if err := pc.Call(); err != nil {
		return nil, err
	}
	t, err := pc.Run(reps)
	for i := range t {
		t[i] *= 1e6
	}
	return t, err
}

// Record is the record of one measurement of launch k.
func Record(call *Call, n, procs, launch int, samples []float64, ctx result.Context) *result.Record {
	s := stats.Summarize(samples)
	return &result.Record{
		Suite: result.SuitePGMPI, Benchmark: call.Name, Class: call.Class(), Multi: -1, Group: -1,
		NProcs: procs, Bytes: n, Reps: len(samples), Launch: launch,
		TMin: s.Min, TMax: s.Max, TAvg: s.Mean,
		Samples: samples, Stats: &s, Context: ctx,
	}
}

// Predict makes Predictions predictions of the repetitions of call at
// volume n with the criteria; the entry is the same on every rank.
func Predict(c mpi.Comm, call *Call, n int, crit Criteria) (NrepEntry, error) {
	e := NrepEntry{Call: call.Name, Bytes: n}
	pc, err := newCase(c, call, n)
	if err != nil {
		return e, err
	}
	defer pc.Free()
	if err := pc.Call(); err != nil {
		return e, err
	}
	for range Predictions {
		reps, reached, err := predictOnce(c, pc, crit)
		if err != nil {
			return e, err
		}
		e.Predictions = append(e.Predictions, reps)
		e.Reached = append(e.Reached, reached)
	}
	e.Keep()
	return e, nil
}

// predictOnce takes batches until rank 0's predictor stops, which it
// broadcasts after every batch.
func predictOnce(c mpi.Comm, pc *kernel.Case, crit Criteria) (int, bool, error) {
	p := &Predictor{Crit: crit}
	taken := 0
	for {
		n := crit.Next(taken)
		t, err := pc.Run(n)
		if err != nil {
			return 0, false, err
		}
		taken += n
		stop := 0
		if c.Rank() == 0 && p.Add(t) {
			stop = 1
			if p.Passed() {
				stop = 2
			}
		}
		if stop, err = c.BcastInt(stop); err != nil || stop > 0 {
			return taken, stop == 2, err
		}
	}
}

// Verify runs call once at volume n and compares every rank's output
// with Expected; it returns on every rank the largest number of wrong
// ints found on one rank, and on each rank a description of its first.
func Verify(c mpi.Comm, call *Call, n int) (int, string, error) {
	pc, err := newCase(c, call, n)
	if err != nil {
		return 0, "", err
	}
	defer pc.Free()
	if err := pc.Call(); err != nil {
		return 0, "", err
	}
	rank, p, count := c.Rank(), c.Size(), n/IntSize
	bad, first := Mismatch(call.Expected(rank, p, count), pc.Output(), rank)
	worst, err := c.AllreduceMax(bad)
	return worst, first, err
}

// Mismatch counts the ints of got that differ from want (got may be
// longer: only the defined part is compared) and describes the first.
func Mismatch(want, got []int32, rank int) (int, string) {
	bad, first := 0, ""
	for i, w := range want {
		if i >= len(got) || got[i] != w {
			if bad == 0 {
				first = fmt.Sprintf("rank %d: int %d wrong, want %d", rank, i, w)
			}
			bad++
		}
	}
	return bad, first
}
