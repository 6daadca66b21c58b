package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"mpibench/skampi"
)

const skampiUsage = `Usage: mpirun -np P mpibench skampi [-config FILE] [-o FILE] [-epsilon E] [-resume]

Runs the SKaMPI measurements of a configuration file (the default one
without -config: sections 2-5 of the SKaMPI report). Each point is
repeated until its relative standard error is below epsilon (within the
file's repetition bounds); lengths are refined adaptively.

  -config FILE   the measurements (see 'mpibench skampi -print-config')
  -o FILE        results, JSON Lines, written as each measurement finishes
                 (default skampi.jsonl); FILE.state notes what started
  -epsilon E     override the file's epsilon for every measurement
  -resume        after a crash: skip the finished measurements of FILE, run
                 the others, and retry the one that crashed last
  -print-config  print the default configuration and exit
  -h             this help

Exit codes: 0 ok, 1 run-time failure, 2 bad command line or configuration.
`

// skampiPlan is what rank 0 broadcasts after reading the command line,
// the configuration and the journal.
type skampiPlan struct {
	Err     string         `json:"err,omitempty"`
	Config  *skampi.Config `json:"config,omitempty"`
	Order   []string       `json:"order,omitempty"`
	Done    []string       `json:"done,omitempty"`
	Crashed []string       `json:"crashed,omitempty"`
}

// skampiFlags are the command line of mpibench skampi.
type skampiFlags struct {
	config, out string
	epsilon     float64
	resume      bool
	printConfig bool
}

func skampiParse(args []string) (skampiFlags, error) {
	f := skampiFlags{out: "skampi.jsonl"}
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
	fs.BoolVar(&f.resume, "resume", false, "")
	fs.BoolVar(&f.printConfig, "print-config", false, "")
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

// skampiJournal is the journal rank 0 opened while reading the command
// line (nil elsewhere): opening it there makes a bad -o a usage error,
// reported before any measurement.
var skampiJournal *skampi.Journal

// runSkampi runs the SKaMPI suite.
func runSkampi(args []string, stdout, stderr io.Writer) int {
	if f, err := skampiParse(args); err == nil && f.printConfig {
		if launcherRank() == "0" {
			fmt.Fprint(stdout, skampi.DefaultConfig)
		}
		return 0
	}
	prepare := func(args []string, size int) (*skampiPlan, string, error) {
		plan, err := skampiPrepare(size, args, stderr)
		return plan, "", err
	}
	return runMPI(mpiCommand[*skampiPlan]{name: "skampi", usage: skampiUsage, parse: prepare, run: skampiMeasure},
		args, stdout, stderr)
}

// skampiMeasure runs the plan's measurements in order; rank 0 journals
// and prints each as it finishes.
func skampiMeasure(plan *skampiPlan, env *mpiEnv) int {
	if skampiJournal != nil {
		defer skampiJournal.Close()
	}
	cfg := plan.Config
	if code, ok := checkMemory(env, skampi.MemoryNeed(cfg, env.world.Size()), 0); !ok {
		return code
	}
	ctx := env.ctx
	ctx.Node, ctx.Network, ctx.User = cfg.Node, cfg.Network, cfg.User
	d := &skampi.Driver{World: env.world, Context: ctx}
	rank0 := env.world.Rank() == 0
	var werr error
	for _, name := range plan.Order {
		if rank0 && werr == nil {
			werr = skampiJournal.Start(name)
		}
		recs, err := d.Run(cfg.Find(name))
		if err != nil {
			// An MPI error of this rank: the others may be blocked in the
			// pattern, so the job ends here.
			return env.abort(fmt.Errorf("%s: %w", name, err))
		}
		if rank0 {
			if werr == nil {
				werr = skampiJournal.Finish(name, recs)
			}
			skampi.Text(env.stdout, recs)
		}
	}
	return env.finish(werr, func() error { return nil })
}

// skampiPrepare reads the command line, the configuration and (with
// -resume) the journal on rank 0, and opens the journal.
func skampiPrepare(procs int, args []string, stderr io.Writer) (*skampiPlan, error) {
	f, err := skampiParse(args)
	if err != nil {
		return nil, err
	}
	cfg, err := skampi.LoadConfig(f.config)
	if err != nil {
		return nil, err
	}
	if f.epsilon > 0 {
		cfg.SetEpsilon(f.epsilon)
	}
	if err := cfg.Check(procs); err != nil {
		return nil, err
	}
	plan := &skampiPlan{Config: cfg}
	if !f.resume {
		plan.Order = skampi.Order(cfg, nil)
		if skampiJournal, err = skampi.CreateJournal(f.out); err != nil {
			return nil, fmt.Errorf("-o: %v", err)
		}
		return plan, nil
	}
	j, r, err := skampi.ResumeJournal(f.out, cfg)
	if err != nil {
		return nil, fmt.Errorf("-resume: %v", err)
	}
	skampiJournal = j
	for _, w := range r.Warnings {
		fmt.Fprintf(stderr, "mpibench skampi: warning: %v\n", w)
	}
	plan.Order, plan.Done, plan.Crashed = skampi.Order(cfg, r), r.Done, r.Crashed
	fmt.Fprintf(stderr, "mpibench skampi: resuming %s: %d finished measurements skipped, %d to run", f.out, len(r.Done), len(plan.Order))
	if len(r.Crashed) > 0 {
		fmt.Fprintf(stderr, ", retrying last %v (started, never finished)", r.Crashed)
	}
	fmt.Fprintln(stderr)
	return plan, nil
}
