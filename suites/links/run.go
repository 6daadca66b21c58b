package links

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"mpibench/suites/links/kernel"

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

// plannedMemory is what the largest rank, rank 0, holds: the messages
// of the window sent and received, every figure of the iterations, its
// figures for every partner and one other rank's arriving, and the three
// P×P matrices of the text (8 bytes a pair each). Every rank is checked
// against it, so that the verdict is the same on all.
func plannedMemory(cfg *Config, p int) memcheck.Need {
	msgs := 2*int64(cfg.Window)*int64(max(cfg.Size, 1)) + 4096*int64(cfg.Window) + 24*int64(cfg.Times)
	p64 := int64(p)
	figures := 2 * int64(len(matrix.Modes)*perPair) * 8 * p64
	matrices := int64(len(matrix.Modes)) * 8 * p64 * p64
	return memcheck.Need{
		What: fmt.Sprintf("%d messages of %d bytes sent and received, and on rank 0 the three %d×%d matrices (%d bytes)",
			cfg.Window, cfg.Size, p, p, matrices),
		Bytes: msgs + figures + matrices}
}

// checkDisk stops a run whose -json file may need more than -disk
// allows or than its file system has free, before anything is measured.
func checkDisk(cfg *Config, env *mpijob.Env) (code int, ok bool) {
	if cfg.JSON == "" {
		return 0, true
	}
	p := env.World.Size()
	return mpijob.CheckDisk(env, filepath.Dir(cfg.JSON), cfg.Disk, func(int64) (string, int64) {
		return fmt.Sprintf("links on %d processes (%d records of %d times each)", p, 3*p, 3*p), fileBytes(p)
	})
}

// fileBytes bounds the results file of a run on p processes: 3·p records
// of 3·p times, each at most 16 bytes of text with its separator; a
// record's other fields, its host (up to MPI_MAX_PROCESSOR_NAME, 256
// bytes) included, under 660 bytes; the run's header, whose hosts list
// names each distinct host once, under 4 KiB and 260 bytes a process.
func fileBytes(p int) int64 {
	p64 := int64(p)
	return 9*p64*p64*16 + 3*p64*660 + 4096 + 260*p64
}

// measure is the run of mpibench links: every distance, then one gather
// of every rank's per-partner figures and the records on rank 0.
func measure(cfg *Config, env *mpijob.Env) int {
	need := plannedMemory(cfg, env.World.Size())
	if code, ok := mpijob.CheckMemory(env, need, 0); !ok {
		return code
	}
	if code, ok := checkDisk(cfg, env); !ok {
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
	var b matrix.Builder // rank 0: the matrices of the text, as the rows arrive
	_, _, err := mpijob.Speaking(w, env.Cases).Run(mpijob.Step{
		Case: cases.Case{Suite: result.SuiteLinks, Benchmark: "links", Bytes: int64(cfg.Size), Procs: p,
			Reps: 2 * (p - 1) * (cfg.Times + cfg.Warm) * (cfg.Window + 1),
			Key:  fmt.Sprintf("%s/np%d/%d/%d/%d", result.SuiteLinks, p, cfg.Size, cfg.Times, cfg.Window)},
		Measure: func() ([]*result.Record, error) { return nil, gather(cfg, env, &b) },
		Show: func(recs []*result.Record) error {
			for _, r := range recs { // kept by a resumed run
				b.Add(r)
			}
			return show(env, cfg, b.Matrices())
		},
	})
	return err
}

// gather measures every distance, then hands rank 0 each rank's figures
// in turn: rank 0 writes that rank's three records as they arrive and
// adds them to b, so that it never holds more than one rank's records
// (P ranks' records of P values each are O(P²) numbers).
func gather(cfg *Config, env *mpijob.Env, b *matrix.Builder) error {
	w := env.World
	mine, err := measureAll(w, cfg)
	if err != nil {
		return err
	}
	hosts, err := w.GatherProcessorNames()
	if err != nil {
		return err
	}
	ctx := env.Ctx
	slow := cfg.Slow
	ctx.SlowPct = &slow // the report flags the pairs this run did
	return w.GatherFloat64sEach(mine, func(rank int, vals []float64) error {
		for _, r := range records(cfg, ctx, w.Size(), rank, vals, hosts[rank]) {
			b.Add(r)
			if err := env.Cases.Stream(r); err != nil {
				return err
			}
		}
		return nil
	})
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

// records are one rank's figures (measureAll's vals) as its three
// records, one per figure, each holding a value per partner rank.
func records(cfg *Config, ctx result.Context, p, rank int, vals []float64, host string) []*result.Record {
	var recs []*result.Record
	for mode, name := range matrix.Modes {
		l := &result.Links{Rank: rank, Host: host, TMin: make([]float64, p), TAvg: make([]float64, p), TMax: make([]float64, p)}
		for k := 0; k < p; k++ {
			if k == rank {
				continue // 0: no figure with itself
			}
			o := (mode*p + k) * perPair
			l.TMin[k], l.TAvg[k], l.TMax[k] = result.RoundNs(vals[o]), result.RoundNs(vals[o+1]), result.RoundNs(vals[o+2])
		}
		r := &result.Record{Suite: result.SuiteLinks, Benchmark: "links", Class: result.LinksClassRank, Mode: name,
			Multi: -1, Group: -1, NProcs: p, Bytes: cfg.Size, Reps: cfg.Times, Window: cfg.Window, Links: l, Context: ctx}
		if name == matrix.Latency {
			r.Bytes, r.Window = 0, 1
		}
		recs = append(recs, r)
	}
	return recs
}

// show prints the header and the matrices on rank 0.
func show(env *mpijob.Env, cfg *Config, ms []*matrix.Matrix) error {
	t := textout.New(env.Stdout)
	t.Printf("# mpibench links (mpiGraph's shift pattern), mpibench %s\n", mpijob.Version)
	t.Printf("# %d processes on %d hosts; %d-byte messages, %d iterations per distance after %d untimed, window %d\n",
		env.World.Size(), len(env.Ctx.Hosts), cfg.Size, cfg.Times, cfg.Warm, cfg.Window)
	if t.Err() != nil {
		return t.Err()
	}
	slices.SortStableFunc(ms, func(a, b *matrix.Matrix) int {
		return slices.Index(matrix.Modes, a.Mode) - slices.Index(matrix.Modes, b.Mode)
	})
	return matrix.WriteText(env.Stdout, ms, cfg.Slow, cfg.Matrices > 0)
}
