package osu

import (
	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

func init() {
	register(
		&Benchmark{Name: "osu_latency", Title: "Latency Test", Kind: Latency, Opts: optsLat,
			Calls: "MPI_Send, MPI_Recv", Procs: exactly(2), Measure: measureP2P(mpi.OSULatency)},
		&Benchmark{Name: "osu_bw", Title: "Bandwidth Test", Kind: Bandwidth, Opts: optsBW,
			Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall", Procs: exactly(2), Measure: measureP2P(mpi.OSUBw)},
		&Benchmark{Name: "osu_bibw", Title: "Bi-Directional Bandwidth Test", Kind: Bandwidth, Opts: optsBW,
			Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall", Procs: exactly(2), Measure: measureP2P(mpi.OSUBibw)},
		&Benchmark{Name: "osu_mbw_mr", Title: "Multiple Bandwidth / Message Rate Test", Kind: MultiBandwidth,
			Opts: optsMBWMR, Calls: "MPI_Isend, MPI_Irecv, MPI_Waitall", Procs: even,
			Measure: measureP2P(mpi.OSUMbwMr)},
		&Benchmark{Name: "osu_multi_lat", Title: "Multi Latency Test", Kind: MultiLatency, Opts: optsLat,
			Calls: "MPI_Send, MPI_Recv", Procs: even, Measure: measureP2P(mpi.OSUMultiLat)},
		&Benchmark{Name: "osu_latency_persistent", Title: "Latency Persistent Test", Kind: Latency, Opts: optsLat,
			Calls: "MPI_Send_init, MPI_Recv_init, MPI_Start, MPI_Wait", Procs: exactly(2), Persistent: true,
			Measure: measureP2P(mpi.OSULatency)},
		&Benchmark{Name: "osu_bw_persistent", Title: "Bandwidth Persistent Test", Kind: Bandwidth, Opts: optsBW,
			Calls: "MPI_Send_init, MPI_Recv_init, MPI_Startall, MPI_Waitall", Procs: exactly(2), Persistent: true,
			Measure: measureP2P(mpi.OSUBw)},
		&Benchmark{Name: "osu_bibw_persistent", Title: "Bi-Directional Bandwidth Persistent Test", Kind: Bandwidth,
			Opts: optsBW, Calls: "MPI_Send_init, MPI_Recv_init, MPI_Startall, MPI_Waitall", Procs: exactly(2),
			Persistent: true, Measure: measureP2P(mpi.OSUBibw)},
		&Benchmark{Name: "osu_latency_mt", Title: "Multi-threaded Latency Test", Kind: LatencyMT, Opts: optsLatMT,
			Calls: "MPI_Send, MPI_Recv (threads)", Procs: exactly(2), Measure: measureP2P(mpi.OSULatMT)},
	)
}

// typeIndex is -T's type as kernel.Spec numbers it.
var typeIndex = map[string]int{"MPI_CHAR": 0, "MPI_INT": 1, "MPI_FLOAT": 2}

// spec is the kernel's part of a measurement at size bytes.
func (r *Run) spec(kind mpi.OSUKind, size int64) *kernel.Spec {
	o := r.Opts
	iters, skip := o.Counts(size)
	s := &kernel.Spec{Kind: kind, Type: typeIndex[r.TypeName], TypeSize: r.TypeSize, Elements: r.Elements(size),
		Iters: iters, Skip: skip, Window: 1, VWarm: o.ValidationWarmup, Pairs: r.Pairs, Check: o.Validate,
		Samples: len(o.Percentiles) > 0 || o.Samples, Persistent: r.Bench.Persistent}
	if r.Bench.Kind == Bandwidth || r.Bench.Kind == MultiBandwidth || r.Bench.Kind == Congestion {
		s.Window, s.Multiple = o.Window, o.MultipleBuffers
	}
	if kind == mpi.OSULatMT {
		s.Threads, s.Tagged = o.ReceiverThreads, o.Senders() > 1
		if r.Rank == 0 {
			s.Threads = o.Senders()
		}
	}
	s.DDT = o.DDT.kernel()
	return s
}

// measureP2P is Measure for one of the point-to-point loops.
func measureP2P(kind mpi.OSUKind) func(r *Run, size int64) (Result, error) {
	return func(r *Run, size int64) (Result, error) {
		if mpi.IsBig(size) {
			return measureBig(r, kind, size) // big.go
		}
		s := r.spec(kind, size)
		res, err := kernel.Run(r.World, s)
		if err != nil {
			return Result{}, err // named by Run.inCase
		}
		all, err := r.World.GatherFloat64s([]float64{res.Time, float64(res.Errors)})
		if err != nil || r.Rank != 0 {
			return Result{}, err
		}
		return r.figures(kind, s, size, all, res.Samples), nil
	}
}

// figures are OSU's figures of one size on rank 0 from every rank's time
// and errors (all: time, errors of rank 0, 1, ...) and rank 0's samples.
func (r *Run) figures(kind mpi.OSUKind, s *kernel.Spec, size int64, all, samples []float64) Result {
	var out Result
	t := all[0]
	for i := 0; i < len(all); i += 2 {
		out.Errors += int(all[i+1])
	}
	if kind == mpi.OSUMbwMr || kind == mpi.OSUMultiLat {
		// osu_mbw_mr.c, osu_multi_lat.c: MPI_Reduce(SUM) of the senders'
		// times over the pairs.
		t = 0
		for i := 0; i < r.Pairs; i++ {
			t += all[2*i]
		}
		t /= float64(r.Pairs)
	}
	for _, x := range samples {
		out.Times = append(out.Times, x*1e6)
	}
	switch kind {
	case mpi.OSULatency, mpi.OSUMultiLat, mpi.OSULatMT:
		// (t_total * 1e6) / (2.0 * iterations); -z: each iteration's t * 1e6 / 2;
		// osu_latency_mt: t_total of all sender threads over
		// 2.0 * iterations / num_threads_sender.
		out.Avg = t * 1e6 / (2 * float64(s.Iters))
		if kind == mpi.OSULatMT {
			out.Avg *= float64(r.Opts.Senders())
		}
		for _, x := range samples {
			out.Samples = append(out.Samples, x*1e6/2)
		}
		return out
	}
	// Bandwidth: size / 1e6 * iterations * window (bibw: * 2; mbw_mr:
	// * pairs) / t, with -D the transmit size for size.
	bytes := float64(size)
	if r.Opts.DDT != nil {
		bytes = float64(r.Transmit(size))
	}
	per := bytes / 1e6 * float64(s.Window)
	switch kind {
	case mpi.OSUBibw:
		per *= 2
	case mpi.OSUMbwMr:
		per *= float64(r.Pairs)
	}
	out.Avg = per * float64(s.Iters) / t
	for _, x := range samples {
		out.Samples = append(out.Samples, per/x)
	}
	if kind == mpi.OSUMbwMr {
		out.MsgRate = 1e6 * out.Avg / bytes // rate = 1e6 * bw / size
	}
	return out
}
