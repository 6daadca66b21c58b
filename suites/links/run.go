package links

import (
	"fmt"
	"math"
	"mpibench/suites/links/kernel"
	"slices"

	"mpibench/analysis/matrix"
	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/internal/textout"
	"mpibench/mpi"
	"mpibench/run/cases"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
)

// perPair is what one rank keeps of each figure per partner: the
// minimum, mean and maximum over the iterations, µs.
const perPair = 3

// measure is the run of mpibench links: every distance, then one gather
// of every rank's per-partner figures and the records on rank 0.
func measure(cfg *Config, env *mpijob.Env) int {
	need := memcheck.Need{What: fmt.Sprintf("%d messages of %d bytes, sent and received", cfg.Window, cfg.Size),
		Bytes: 2*int64(cfg.Window)*int64(max(cfg.Size, 1)) + 4096*int64(cfg.Window) + 24*int64(cfg.Times)}
	if code, ok := mpijob.CheckMemory(env, need, 0); !ok {
		return code
	}
	env.ResumeNote(false)
	if err := run(cfg, env); err != nil {
		return env.Fail(err)
	}
	return 0
}

func run(cfg *Config, env *mpijob.Env) error {
	w := env.World
	p := w.Size()
	env.Cases.SetTotal(1)
	_, _, err := mpijob.Speaking(w, env.Cases).Run(mpijob.Step{
		Case: cases.Case{Suite: result.SuiteLinks, Benchmark: "links", Bytes: int64(cfg.Size), Procs: p,
			Reps: 2 * (p - 1) * (cfg.Times + cfg.Warm) * (cfg.Window + 1),
			Key:  fmt.Sprintf("%s/np%d/%d/%d/%d", result.SuiteLinks, p, cfg.Size, cfg.Times, cfg.Window)},
		Measure: func() ([]*result.Record, error) { return gather(cfg, env) },
		Show:    func(recs []*result.Record) error { return show(env, cfg, recs) },
	})
	return err
}

// gather measures every distance and gathers every rank's figures: the
// records on rank 0.
func gather(cfg *Config, env *mpijob.Env) ([]*result.Record, error) {
	w := env.World
	mine, err := measureAll(w, cfg)
	if err != nil {
		return nil, err
	}
	all, err := w.GatherFloat64s(mine)
	if err != nil {
		return nil, err
	}
	hosts, err := w.GatherProcessorNames()
	if err != nil || w.Rank() != 0 {
		return nil, err
	}
	ctx := env.Ctx
	slow := cfg.Slow
	ctx.SlowPct = &slow // the report flags the pairs this run did
	recs := records(cfg, ctx, w.Size(), all, hosts)
	ptrs := make([]*result.Record, len(recs))
	for i := range recs {
		ptrs[i] = &recs[i]
	}
	return ptrs, nil
}

// measureAll runs every distance on this rank and returns its figures:
// for each figure (send, recv, latency) and each rank k, perPair values
// (NaN for itself); send and latency are to k, recv from k.
func measureAll(w mpi.Comm, cfg *Config) ([]float64, error) {
	p, rank := w.Size(), w.Rank()
	l, err := kernel.NewLinks(w, cfg.Size, cfg.Times, cfg.Window, cfg.Warm)
	if ok, aerr := mpijob.AgreeOK(w, err == nil); aerr != nil || !ok {
		if err == nil {
			err = fmt.Errorf("links: another rank could not allocate its buffers")
		}
		return nil, err
	}
	defer l.Free()
	out := make([]float64, len(matrix.Modes)*p*perPair)
	for i := range out {
		out[i] = math.NaN()
	}
	put := func(mode, k int, v []float64) {
		o := (mode*p + k) * perPair
		out[o], out[o+1], out[o+2] = stats.Min(v), stats.Mean(v), stats.Max(v)
	}
	for d := 1; d < p; d++ {
		res, err := l.Run(d)
		if err != nil {
			// The case is the whole run; the distance says which step of it.
			return nil, result.InCase(err, result.CaseError{Suite: result.SuiteLinks, Bench: "links",
				Mode: fmt.Sprintf("distance %d", d), Bytes: cfg.Size, Procs: p})
		}
		to, from := (rank+d)%p, (rank-d+p)%p
		put(0, to, res.Send)
		put(1, from, res.Recv)
		put(2, to, res.Latency)
	}
	return out, nil
}

// records are the gathered figures as records, every figure's matrix row
// by row (src, then dst).
func records(cfg *Config, ctx result.Context, p int, all []float64, hosts []string) []result.Record {
	var recs []result.Record
	for mode, name := range matrix.Modes {
		for src := 0; src < p; src++ {
			for dst := 0; dst < p; dst++ {
				if src == dst {
					continue
				}
				// send and latency were measured by src, recv by dst.
				rank, peer := src, dst
				if name == matrix.Recv {
					rank, peer = dst, src
				}
				o := ((rank*len(matrix.Modes)+mode)*p + peer) * perPair
				recs = append(recs, record(cfg, ctx, name, src, dst, p, all[o:o+perPair], hosts))
			}
		}
	}
	return recs
}

func record(cfg *Config, ctx result.Context, mode string, src, dst, p int, v []float64, hosts []string) result.Record {
	r := result.Record{Suite: result.SuiteLinks, Benchmark: "links", Class: "pair", Mode: mode, Multi: -1, Group: -1,
		NProcs: p, Groups: [][]int{{src, dst}}, Bytes: cfg.Size, Reps: cfg.Times, Window: cfg.Window,
		TMin: v[0], TAvg: v[1], TMax: v[2], PairHosts: []string{hosts[src], hosts[dst]}, Context: ctx}
	if mode == matrix.Latency {
		r.Bytes, r.Window = 0, 1
	} else if r.TAvg > 0 {
		r.MBps = float64(cfg.Size) / r.TAvg * 1e6 / (1 << 20)
	}
	return r
}

// show prints the header and the matrices of recs on rank 0.
func show(env *mpijob.Env, cfg *Config, recs []*result.Record) error {
	t := textout.New(env.Stdout)
	t.Printf("# mpibench links (mpiGraph's shift pattern), mpibench %s\n", mpijob.Version)
	t.Printf("# %d processes on %d hosts; %d-byte messages, %d iterations per distance after %d untimed, window %d\n",
		env.World.Size(), len(env.Ctx.Hosts), cfg.Size, cfg.Times, cfg.Warm, cfg.Window)
	if t.Err() != nil {
		return t.Err()
	}
	vals := make([]result.Record, len(recs))
	for i, r := range recs {
		vals[i] = *r
	}
	ms := matrix.FromRecords(vals)
	slices.SortStableFunc(ms, func(a, b *matrix.Matrix) int {
		return slices.Index(matrix.Modes, a.Mode) - slices.Index(matrix.Modes, b.Mode)
	})
	return matrix.WriteText(env.Stdout, ms, cfg.Slow)
}
