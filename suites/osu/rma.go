package osu

import (
	"fmt"
	"strings"

	"mpibench/suites/osu/kernel"
)

// The getopt strings of OSU 7.4's one-sided tests (osu_util.c,
// process_options: "+:w:s:hvm:x:i:G:Iz::", W: for the bandwidth tests,
// P: without an accelerator; cT: only for the tests that validate).
const (
	optsRMALat = "+:w:s:hvm:x:i:G:Iz::P:"
	optsRMABW  = "+:w:s:hvm:x:i:G:Iz::W:P:"
)

// rmaTest is what a one-sided test adds to a Benchmark.
type rmaTest struct {
	op    int // kernel.OpPut, kernel.OpGet
	shape int // kernel.ShapeLat, ShapeBW, ShapeBiBW
	// sync is the default -s (MPI >= 3: flush; osu_put_bibw pscw).
	sync int
	// active: -s takes only pscw and fence (OSU's ACTIVE_SYNC).
	active bool
	// pscwBarriers are OSU's MPI_Barrier calls before the loop under pscw:
	// osu_get_latency makes two, the others one (fence: one; the
	// passive synchronisations: none).
	pscwBarriers int
	// create: -w's default is create (osu_get_acc_latency, whose main
	// leaves options.win at 0), not allocate.
	create bool
	// atom is an atomic test's definition (osu/atom.go); nil for the others.
	atom *atomTest
}

func init() {
	lat := func(name, title string, op, pscwBarriers int, calls string) *Benchmark {
		return &Benchmark{Name: name, Title: title, Kind: RMALatency, Opts: optsRMALat, Calls: calls,
			Procs: exactly(2), Measure: measureRMA,
			RMA: &rmaTest{op: op, shape: kernel.ShapeLat, sync: kernel.SyncFlush, pscwBarriers: pscwBarriers}}
	}
	bw := func(name, title string, op, shape, sync int, calls string) *Benchmark {
		return &Benchmark{Name: name, Title: title, Kind: RMABandwidth, Opts: optsRMABW, Calls: calls,
			Procs: exactly(2), Measure: measureRMA,
			RMA: &rmaTest{op: op, shape: shape, sync: sync, active: shape == kernel.ShapeBiBW, pscwBarriers: 1}}
	}
	mbw := bw("osu_get_mbw", "MPI_Get Multiple Bandwidth Bandwidth Test", kernel.OpGet, kernel.ShapeMBW,
		kernel.SyncFlush, "MPI_Get (pairs under pscw)")
	mbw.Procs = atLeastTwo
	multi := lat("osu_get_multi_lat", "MPI_Get Multi Latency Test", kernel.OpGet, 1, "MPI_Get (pairs, pscw)")
	multi.RMA.shape, multi.Procs = kernel.ShapeMulti, even
	register(
		lat("osu_put_latency", "MPI_Put Latency Test", kernel.OpPut, 1, "MPI_Put"),
		lat("osu_get_latency", "MPI_Get latency Test", kernel.OpGet, 2, "MPI_Get"),
		bw("osu_put_bw", "MPI_Put Bandwidth Test", kernel.OpPut, kernel.ShapeBW, kernel.SyncFlush, "MPI_Put"),
		bw("osu_get_bw", "MPI_Get Bandwidth Test", kernel.OpGet, kernel.ShapeBW, kernel.SyncFlush, "MPI_Get"),
		bw("osu_put_bibw", "MPI_Put Bi-directional Bandwidth Test", kernel.OpPut, kernel.ShapeBiBW, kernel.SyncPSCW,
			"MPI_Put (both ranks)"),
		mbw, multi,
	)
}

// checkPairs refuses osu_get_mbw under pscw on an odd number of
// processes: OSU's unpaired last rank skips the barrier that opens every
// iteration of the others, and the run waits forever.
func checkPairs(b *Benchmark, o *Options, np int) error {
	if b.RMA == nil || b.RMA.shape != kernel.ShapeMBW || o.Sync != syncNames[kernel.SyncPSCW] || np%2 == 0 {
		return nil
	}
	return fmt.Errorf("-s pscw pairs the processes: this test needs an even number of them under pscw, have %d "+
		"(OSU 7.4 would wait forever)", np)
}

// syncNames are -s's values in kernel.Sync* order, and syncInfo what
// OSU's header prints for each (osu_util_mpi.c: sync_info).
var (
	syncNames = []string{"lock", "pscw", "fence", "flush", "flush_local", "lock_all"}
	syncInfo  = []string{"MPI_Win_lock/unlock", "MPI_Win_post/start/complete/wait", "MPI_Win_fence",
		"MPI_Win_flush", "MPI_Win_flush_local", "MPI_Win_lock_all/unlock_all"}
	winNames = []string{"create", "allocate", "dynamic"}
	winInfo  = []string{"MPI_Win_create", "MPI_Win_allocate", "MPI_Win_create_dynamic"}
)

// index is the position of v in names, compared as OSU compares
// (strcasecmp), or -1.
func index(names []string, v string) int {
	for i, n := range names {
		if strings.EqualFold(n, v) {
			return i
		}
	}
	return -1
}

// setWin is -w create | allocate | dynamic.
func (o *Options) setWin(v string) error {
	i := index(winNames, v)
	if i < 0 {
		return fmt.Errorf("want create, allocate or dynamic")
	}
	o.Win = winNames[i]
	return nil
}

// setSync is -s: pscw or fence, and for the tests of every
// synchronisation lock, flush, flush_local, lock_all
// (process_one_sided_options).
func (o *Options) setSync(b *Benchmark, v string) error {
	i := index(syncNames, v)
	if b.RMA.active && i != kernel.SyncPSCW && i != kernel.SyncFence {
		return fmt.Errorf("%s takes pscw or fence (OSU 7.4)", b.Name)
	}
	if i < 0 {
		return fmt.Errorf("want pscw, fence, lock, flush, flush_local or lock_all")
	}
	o.Sync = syncNames[i]
	return nil
}

// rmaSpec is the kernel's part of a one-sided measurement at size bytes.
func (r *Run) rmaSpec(size int64) *kernel.RMASpec {
	t := r.Bench.RMA
	iters, skip := r.Opts.Counts(size)
	s := &kernel.RMASpec{Op: t.op, Sync: index(syncNames, r.Opts.Sync), Win: index(winNames, r.Opts.Win),
		Shape: t.shape, Size: size, Window: 1, Iters: iters, Skip: skip, Pairs: r.Pairs}
	if t.shape != kernel.ShapeLat && t.shape != kernel.ShapeMulti {
		s.Window = r.Opts.Window
	}
	if t.shape == kernel.ShapeMulti {
		s.Sync = kernel.SyncPSCW // osu_get_multi_lat runs pscw whatever -s says
	}
	switch s.Sync {
	case kernel.SyncPSCW:
		s.PreBarriers = t.pscwBarriers
	case kernel.SyncFence:
		s.PreBarriers = 1
	}
	return s
}

// measureRMA is Measure for the one-sided tests: rank 0's time and
// per-iteration figures as OSU prints them.
func measureRMA(r *Run, size int64) (Result, error) {
	s := r.rmaSpec(size)
	res, err := kernel.RunRMA(r.World, s)
	if err != nil {
		return Result{}, err
	}
	if s.Shape == kernel.ShapeMulti || (s.Shape == kernel.ShapeMBW && s.Sync == kernel.SyncPSCW) {
		// OSU's MPI_Reduce(SUM) of the ranks' times (the targets' are 0)
		// over the pairs, outside the time.
		all, err := r.World.GatherFloat64s([]float64{res.Time})
		if err != nil || r.Rank != 0 {
			return Result{}, err
		}
		res.Time = 0
		for _, t := range all {
			res.Time += t
		}
		res.Time /= float64(s.Pairs)
	}
	if r.Rank != 0 {
		return Result{}, nil
	}
	return rmaFigures(s, res), nil
}

// rmaFigures are OSU's figures of one size. Latency: t·10^6/iterations,
// halved under fence and pscw, where each iteration carries an
// operation each way (osu_put_latency.c: print_latency and the fence and
// pscw loops; osu_get_multi_lat: print_multi_latency); each iteration's
// the same. Bandwidth: size/10^6 · iterations · window / t, doubled for
// osu_put_bibw (print_bw), times the pairs for osu_get_mbw, whose
// print_bw adds 10^6 · pairs · iterations · window / t as a rate; each
// iteration's size/10^6 · window / its time (osu_put_bibw: doubled).
func rmaFigures(s *kernel.RMASpec, res kernel.RMAResult) Result {
	var out Result
	for _, x := range res.Samples {
		out.Times = append(out.Times, x*1e6)
	}
	if s.Shape == kernel.ShapeLat || s.Shape == kernel.ShapeMulti {
		div := 1.0
		if s.Sync == kernel.SyncFence || s.Sync == kernel.SyncPSCW {
			div = 2
		}
		out.Avg = res.Time * 1e6 / float64(s.Iters) / div
		for _, x := range res.Samples {
			out.Samples = append(out.Samples, x*1e6/div)
		}
		return out
	}
	per := float64(s.Size) / 1e6 * float64(s.Window)
	if s.Shape == kernel.ShapeBiBW {
		per *= 2
	}
	out.Avg = per * float64(s.Iters) / res.Time
	for _, x := range res.Samples {
		out.Samples = append(out.Samples, per/x)
	}
	if s.Shape == kernel.ShapeMBW {
		out.Avg *= float64(s.Pairs)
		out.MsgRate = 1e6 * float64(s.Pairs*s.Iters*s.Window) / res.Time
	}
	return out
}

// rmaPreamble is print_header_one_sided's lines before the datatype;
// osu_get_multi_lat prints its own (the pairs, "# Window:", always PSCW).
func (t *Text) rmaPreamble(b *Benchmark, o *Options, pairs int) error {
	if b.RMA.shape == kernel.ShapeMulti {
		t.Printf("%s\n# Pairs: %d\n# Window: %s\n# Synchronization: PSCW\n", Title(b), pairs,
			winInfo[index(winNames, o.Win)])
		return t.Err()
	}
	t.Printf("%s\n# Window creation: %s\n# Synchronization: %s\n", Title(b), winInfo[index(winNames, o.Win)],
		syncInfo[index(syncNames, o.Sync)])
	return t.Err()
}
