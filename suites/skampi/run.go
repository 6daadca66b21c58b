package skampi

import (
	"fmt"

	"mpibench/analysis/result"
	"mpibench/run/cases"
	"mpibench/run/mpijob"
)

// plan is what rank 0 broadcasts after reading the command line and the
// configuration.
type plan struct {
	Config  *Config `json:"config,omitempty"`
	Samples bool    `json:"samples"`
	Sync    Sync    `json:"sync"`
}

// run runs the measurements in order; rank 0 journals and prints each as
// it finishes. A failed write (the journal or stdout) does not stop the
// measurements: the run goes on and every rank exits with 1 at the end.
func run(p *plan, env *mpijob.Env) int {
	cfg := p.Config
	if code, ok := mpijob.CheckMemory(env, MemoryNeed(cfg, env.World.Size()), 0); !ok {
		return code
	}
	env.ResumeNote(true)
	ctx := env.Ctx
	ctx.Node, ctx.Network, ctx.User = cfg.Node, cfg.Network, cfg.User
	d := &Driver{World: env.World, Context: ctx, Samples: p.Samples, Sync: p.Sync}
	loop := mpijob.GoingOn(env.World, env.Cases)
	_ = loop.Say(func() error { return replay(cfg, env) })
	env.Cases.SetTotal(len(cfg.Measurements))
	for _, name := range Order(cfg, env.Resumed) {
		m := cfg.Find(name)
		_, _, err := loop.Run(mpijob.Step{Case: watchCase(m, env.World.Size()),
			Measure: func() ([]*result.Record, error) {
				recs, err := d.Run(m)
				return pointers(recs), err
			},
			Show: func(recs []*result.Record) error { return Text(env.Stdout, values(recs)) }})
		if err != nil {
			// An MPI error of this rank: the others may be blocked in the
			// pattern, so the job ends here.
			return env.Abort(err)
		}
	}
	return env.Finish(nil, loop.Err)
}

// replay shows, before the run goes on, the measurements a resumed run
// kept (from their records) and those it hung in, in configuration order.
func replay(cfg *Config, env *mpijob.Env) error {
	for _, m := range cfg.Measurements {
		var err error
		switch {
		case env.Cases.Hung(m.Name):
			_, err = fmt.Fprintf(env.Stdout, "# %s: hung in the resumed run, not measured\n\n", m.Name)
		case env.Cases.Skip(m.Name):
			var stored []result.Record
			if stored, err = env.Cases.Stored(m.Name); err == nil {
				err = Text(env.Stdout, stored)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// watchCase describes a measurement to the watchdog: every point may take
// the most repetitions, and the refinement adds at most the budget of
// points to the range's.
func watchCase(m *Measurement, procs int) cases.Case {
	points := m.Budget + 64
	bytes := max(m.Len, m.Hi)
	if m.Procs > 0 {
		procs = m.Procs
	}
	return cases.Case{Suite: Name, Benchmark: m.Name, Bytes: int64(bytes), Procs: procs,
		Reps: points * max(m.MaxReps, 1), Key: m.Name}
}

// pointers points at each of recs.
func pointers(recs []result.Record) []*result.Record {
	out := make([]*result.Record, len(recs))
	for i := range recs {
		out[i] = &recs[i]
	}
	return out
}

// values are the records recs point at.
func values(recs []*result.Record) []result.Record {
	out := make([]result.Record, len(recs))
	for i, r := range recs {
		out[i] = *r
	}
	return out
}
