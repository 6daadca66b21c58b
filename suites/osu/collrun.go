package osu

import (
	"fmt"
	"math"

	"mpibench/analysis/result"
	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

// collBuffers are a collective run's buffers, allocated once for the
// largest size: send and receive buffers of nprocs·max bytes (what the
// all-to-all kinds need; OSU allocates max·nprocs for them too) and the
// per-rank counts and displacements.
type collBuffers struct {
	send, recv, counts, displs mpi.Buffer
	ranks                      int // the blocks: the processes, or more neighbours
}

func newCollBuffers(np int, maxBytes int64) (*collBuffers, error) {
	n := int64(np) * max(maxBytes, 1)
	if n > math.MaxInt32*int64(4) {
		return nil, fmt.Errorf("%d processes × %d bytes: buffers too large", np, maxBytes)
	}
	b := &collBuffers{ranks: np}
	var err error
	for _, p := range []struct {
		buf  *mpi.Buffer
		size int64
	}{{&b.send, n}, {&b.recv, n}, {&b.counts, 4 * int64(np)}, {&b.displs, 4 * int64(np)}} {
		if *p.buf, err = mpi.Alloc(int(p.size)); err != nil {
			b.free()
			return nil, err
		}
	}
	return b, nil
}

func (b *collBuffers) free() {
	b.send.Free()
	b.recv.Free()
	b.counts.Free()
	b.displs.Free()
}

// collSetup is one size and datatype of a collective test, as every rank
// runs it.
type collSetup struct {
	comm        mpi.Comm
	test        collTest
	nb          bool
	opts        *Options
	bufs        *collBuffers
	typ         kernel.Type
	size        int64
	iters, skip int
	graph       *kernel.Graph // the neighbourhood tests'
}

// run makes the OSUColl of the setup: count elements of the type per
// process (OSU: num_elements = size / type size), the v-variants' counts
// and displacements, the root (-k), -l, and samples when -z or --samples
// asks for them.
func (s *collSetup) run() kernel.Coll {
	count := int(s.size) / s.typ.Size()
	switch s.test.kind {
	case mpi.OSUBarrier:
		count = 0
	case mpi.OSUReduceScatterBlock:
		count /= s.comm.Size() // osu_reduce_scatter_block.c: portion = num_elements / numprocs
	}
	elements := count
	if s.opts.DDT != nil {
		// omb_ddt_get_size: one of the derived type, per rank (v-variants:
		// counts 1, displacements p extents: osu_allgatherv.c ...).
		count = 1
	}
	ones := count
	if s.test.persistent() {
		ones = int(s.size) // osu_reduce_scatter_persistent.c: "if (i < size)"
	}
	counts, displs := collCounts(s.test.kind, count, s.bufs.ranks, ones)
	collDispls(s.test.kind, displs, s.typ.Size())
	copy(s.bufs.counts.Int32s(), counts)
	copy(s.bufs.displs.Int32s(), displs)
	root, inPlace, vwarm := s.opts.Root, s.opts.InPlace, s.opts.ValidationWarmup
	if s.test.kind == mpi.OSUBcast || s.test.persistent() {
		// osu_bcast.c and osu_ibcast.c: root 0, no -k; the persistent tests
		// root every call at 0 and have no -k.
		root = 0
	}
	pre := 0
	if s.test.persistent() {
		inPlace = inPlace && persistentInPlace(s.test.kind)
		if noValidationWarmup(&Benchmark{Persistent: true, Kind: Collective, Name: s.test.name}, s.opts) {
			vwarm = 0
		}
		pre = collBarriers[s.test.name].pre // after the request is made (collbarriers.go)
	}
	return kernel.Coll{Comm: s.comm, Kind: s.test.kind, NB: s.nb, Type: s.typ, Send: s.bufs.send,
		Recv: s.bufs.recv, Count: count, Counts: s.bufs.counts, Displs: s.bufs.displs, Skip: s.skip,
		Iters: s.iters, InPlace: inPlace, Root: root, Compute: -1, Probes: s.opts.Probes,
		Samples: len(s.opts.Percentiles) > 0 || s.opts.Samples, ValidationWarmup: vwarm,
		DDT: s.opts.DDT.kernel(), Elements: int64(elements), Graph: s.graph, Persistent: s.test.persistent(),
		PreBarriers: pre}
}

// measure runs the setup on every rank and returns rank 0's Result (and
// for a non-blocking test its row), with OSU's untimed barriers around
// the passes (collbarriers.go).
func (s *collSetup) measure() (Result, *result.OSUNBC, error) {
	r := s.run()
	bars := collBarriers[s.test.name]
	if err := s.barriers(bars.pre - r.PreBarriers); err != nil { // the persistent tests': the kernel's
		return Result{}, nil, err
	}
	pure, err := r.Exec(s.opts.Validate)
	if err != nil {
		return Result{}, nil, err
	}
	if !s.nb {
		res, err := s.blockingResult(pure)
		return res, nil, err
	}
	// osu_iallreduce.c: the pure pass's latency, per rank, is the dummy
	// compute of the overlap pass (init_arrays does nothing on the CPU).
	r.Compute = pure.Total / float64(s.iters)
	if err := s.barriers(bars.between); err != nil {
		return Result{}, nil, err
	}
	ovl, err := r.Exec(s.opts.Validate)
	if err == nil {
		err = s.barriers(bars.after)
	}
	if err != nil {
		return Result{}, nil, err
	}
	return s.nbcResult(pure, ovl)
}

// barriers calls MPI_Barrier n times.
func (s *collSetup) barriers(n int) error {
	for range n {
		if err := s.comm.Barrier(); err != nil {
			return err
		}
	}
	return nil
}

// perRank gathers each rank's figures (the same number on every rank) to
// rank 0: one slice per rank there, nil elsewhere.
func (s *collSetup) perRank(v ...float64) ([][]float64, error) {
	all, err := s.comm.GatherFloat64s(v)
	if err != nil || all == nil {
		return nil, err
	}
	out := make([][]float64, s.comm.Size())
	for p := range out {
		out[p] = all[p*len(v) : (p+1)*len(v)]
	}
	return out, nil
}

// errors is OSU's -c outcome on every rank: the sum of the ranks' wrong
// items, capped (an MPI_Allreduce in OSU; here the maximum over ranks of
// each rank's capped count, which is zero exactly when the sum is).
func (s *collSetup) errors(defects int64) (int, error) {
	if !s.opts.Validate {
		return 0, nil
	}
	return s.comm.AllreduceMax(int(min(defects, math.MaxInt32)))
}

// blockingResult is print_stats's figures: each rank's latency (timer·1e6
// / iterations) and their average, minimum and maximum over the ranks.
func (s *collSetup) blockingResult(t mpi.OSUCollTimes) (Result, error) {
	lat := t.Total * 1e6 / float64(s.iters)
	errs, err := s.errors(t.Defects)
	if err != nil {
		return Result{}, err
	}
	res := Result{Min: math.Inf(1), Max: math.Inf(-1), Errors: errs}
	if res.Samples, err = s.samples(t.Samples); err != nil {
		return Result{}, err
	}
	res.Times = res.Samples
	ranks, err := s.perRank(lat)
	if err == nil {
		err = s.barriers(collBarriers[s.test.name].after)
	}
	if err != nil || ranks == nil {
		return Result{Errors: errs}, err
	}
	for _, v := range ranks {
		res.Avg += v[0]
		res.Min, res.Max = min(res.Min, v[0]), max(res.Max, v[0])
	}
	res.Avg /= float64(len(ranks))
	return res, nil
}

// samples are OSU's -z array (omb_get_stats: each iteration's latency
// summed over the ranks by MPI_Reduce; the percentile, taken from the
// sorted sums, is divided by the number of ranks, so it is the percentile
// of the per-iteration averages over the ranks): those averages in µs, on
// rank 0, for -z and for --samples (their mean is the row's average).
// Every rank calls it.
func (s *collSetup) samples(own []float64) ([]float64, error) {
	if own == nil {
		return nil, nil
	}
	all, err := s.comm.GatherFloat64s(own)
	if err != nil || all == nil {
		return nil, err
	}
	n := len(own)
	avg := make([]float64, n)
	for i := range all {
		avg[i%n] += all[i] * 1e6 / float64(s.comm.Size())
	}
	return avg, nil
}

// nbcResult is calculate_and_print_stats: per rank, µs per iteration of
// the overlap pass's total (Overall), compute, MPI_Test, MPI_Wait and
// call (Coll. Init) and the pure pass's latency (Pure Comm.), averaged over
// the ranks, the pure latency's minimum and maximum, and the overlap
// max(0, 100 - (overall - (compute - test)) / pure · 100), where compute
// includes the MPI_Test calls and the Compute column shows compute - test
// (print_stats_nbc).
func (s *collSetup) nbcResult(pure, ovl mpi.OSUCollTimes) (Result, *result.OSUNBC, error) {
	us := 1e6 / float64(s.iters)
	errs, err := s.errors(pure.Defects + ovl.Defects)
	if err != nil {
		return Result{}, nil, err
	}
	res := Result{Errors: errs}
	if res.Samples, err = s.samples(ovl.Samples); err != nil {
		return Result{}, nil, err
	}
	res.Times = res.Samples
	ranks, err := s.perRank(ovl.Total*us, ovl.Compute*us, ovl.Init*us, ovl.Test*us, ovl.Wait*us, pure.Total*us)
	if err == nil {
		err = s.comm.Barrier() // calculate_and_print_stats's, after its reductions (osu_util_mpi.c)
	}
	if err != nil || ranks == nil {
		return Result{Errors: errs}, nil, err
	}
	f := &result.OSUNBC{PureMin: math.Inf(1), PureMax: math.Inf(-1)}
	for _, v := range ranks {
		f.Overall, f.Compute, f.Init, f.Test, f.Wait = f.Overall+v[0], f.Compute+v[1], f.Init+v[2], f.Test+v[3], f.Wait+v[4]
		f.Pure += v[5]
		f.PureMin, f.PureMax = min(f.PureMin, v[5]), max(f.PureMax, v[5])
	}
	np := float64(len(ranks))
	f.Overall, f.Compute, f.Init, f.Test, f.Wait, f.Pure = f.Overall/np, f.Compute/np, f.Init/np, f.Test/np, f.Wait/np, f.Pure/np
	if f.Pure > 0 {
		f.Overlap = max(0, 100-(f.Overall-(f.Compute-f.Test))/f.Pure*100)
	}
	f.Compute -= f.Test
	res.Avg, res.Min, res.Max = f.Overall, f.PureMin, f.PureMax
	return res, f, nil
}
