package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"mpibench/mpijob"
	"strconv"

	"mpibench/cases"
	"mpibench/result"
	"mpibench/skampi"
)

const skampiUsage = `Usage: mpirun -np P mpibench skampi [-config FILE] [-o FILE] [-epsilon E] [-samples=false] [-resume] [-timeout S]

Runs the SKaMPI measurements of a configuration file (the default one
without -config: sections 2-5 of the SKaMPI report). Each point is
repeated until the relative standard error of its trimmed mean is below
epsilon (within the file's repetition and time bounds); lengths are
refined adaptively.

  -config FILE   the measurements (see 'mpibench skampi -print-config')
  -o FILE        results, JSON Lines, written as each measurement finishes
                 (default skampi.jsonl); FILE.state notes what started
  -epsilon E     override the file's epsilon for every measurement
  -samples=false leave the raw time of every repetition out of the records
                 (recorded by default, so that the figures can be recomputed)
  -resume        after a crash: skip the finished measurements of FILE, run
                 the others, and retry the one that crashed last (below)
  -print-config  print the default configuration and exit
  -h             this help

Exit codes: 0 ok, 1 run-time failure, 2 bad command line or configuration,
4 the watchdog ended a hung measurement.
`

// skampiPlan is what rank 0 broadcasts after reading the command line
// and the configuration.
type skampiPlan struct {
	Config  *skampi.Config `json:"config,omitempty"`
	Samples bool           `json:"samples"`
}

// skampiFlags are the command line of mpibench skampi.
type skampiFlags struct {
	config, out string
	epsilon     float64
	printConfig bool
	samples     bool
}

func skampiParse(args []string) (skampiFlags, error) {
	f := skampiFlags{out: "skampi.jsonl", samples: true}
	fs := flag.NewFlagSet("skampi", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.config, "config", "", "")
	fs.StringVar(&f.out, "o", f.out, "")
	fs.Func("epsilon", "", func(v string) error {
		e, err := strconv.ParseFloat(v, 64)
		if err != nil || !(e > 0 && e < 1) {
			return fmt.Errorf("want a number in (0, 1)")
		}
		f.epsilon = e
		return nil
	})
	fs.BoolVar(&f.printConfig, "print-config", false, "")
	fs.BoolVar(&f.samples, "samples", true, "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if f.out == "" {
		return f, errors.New("-o: want a file name")
	}
	return f, nil
}

// runSkampi runs the SKaMPI suite.
func runSkampi(args []string, stdout, stderr io.Writer) int {
	if f, err := skampiParse(args); err == nil && f.printConfig {
		if mpijob.LauncherRank() == "0" {
			fmt.Fprint(stdout, skampi.DefaultConfig)
		}
		return 0
	}
	return mpijob.Run(mpijob.Command[*skampiPlan]{Name: "skampi", Usage: skampiUsage, Parse: skampiPrepare,
		Run: skampiMeasure, OutFlag: "-o"},
		args, stdout, stderr)
}

// skampiMeasure runs the measurements in order; rank 0 journals and
// prints each as it finishes.
func skampiMeasure(plan *skampiPlan, env *mpijob.Env) int {
	cfg := plan.Config
	if code, ok := mpijob.CheckMemory(env, skampi.MemoryNeed(cfg, env.World.Size()), 0); !ok {
		return code
	}
	env.ResumeNote(true)
	ctx := env.Ctx
	ctx.Node, ctx.Network, ctx.User = cfg.Node, cfg.Network, cfg.User
	d := &skampi.Driver{World: env.World, Context: ctx, Samples: plan.Samples}
	rank0 := env.World.Rank() == 0
	if rank0 {
		skampiReplay(cfg, env)
	}
	var werr error
	for _, name := range skampi.Order(cfg, env.Resumed) {
		m := cfg.Find(name)
		env.Cases.Begin(skampiCase(m, env.World.Size()))
		recs, err := d.Run(m)
		if err != nil {
			// An MPI error of this rank: the others may be blocked in the
			// pattern, so the job ends here.
			return env.Abort(fmt.Errorf("%s: %w", name, err))
		}
		if rank0 {
			if werr == nil {
				werr = env.Cases.Finish(recordPointers(recs))
			}
			skampi.Text(env.Stdout, recs)
		}
		env.Cases.End()
	}
	return env.Finish(werr, func() error { return nil })
}

// skampiReplay shows, before the run goes on, the measurements a resumed
// run kept (from their records) and those it hung in, in configuration
// order.
func skampiReplay(cfg *skampi.Config, env *mpijob.Env) {
	for _, m := range cfg.Measurements {
		switch {
		case env.Cases.Hung(m.Name):
			fmt.Fprintf(env.Stdout, "# %s: hung in the resumed run, not measured\n\n", m.Name)
		case env.Cases.Skip(m.Name):
			skampi.Text(env.Stdout, env.Cases.Stored(m.Name))
		}
	}
}

// skampiCase describes a measurement to the watchdog: every point may
// take the most repetitions, and the refinement adds at most the budget
// of points to the range's.
func skampiCase(m *skampi.Measurement, procs int) cases.Case {
	points := m.Budget + 64
	bytes := max(m.Len, m.Hi)
	if m.Procs > 0 {
		procs = m.Procs
	}
	return cases.Case{Suite: "skampi", Benchmark: m.Name, Bytes: int64(bytes), Procs: procs,
		Reps: points * max(m.MaxReps, 1), Key: m.Name}
}

// recordPointers points at each of recs.
func recordPointers(recs []result.Record) []*result.Record {
	out := make([]*result.Record, len(recs))
	for i := range recs {
		out[i] = &recs[i]
	}
	return out
}

// skampiPrepare reads the command line and the configuration on rank 0;
// the -o file is the journal that runMPI opens or resumes.
func skampiPrepare(args []string, procs int, _ bool) (*skampiPlan, string, error) {
	f, err := skampiParse(args)
	if err != nil {
		return nil, "", err
	}
	cfg, err := skampi.LoadConfig(f.config)
	if err != nil {
		return nil, "", err
	}
	if f.epsilon > 0 {
		cfg.SetEpsilon(f.epsilon)
	}
	if err := cfg.Check(procs); err != nil {
		return nil, "", err
	}
	return &skampiPlan{Config: cfg, Samples: f.samples}, f.out, nil
}
