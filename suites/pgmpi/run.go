package pgmpi

import (
	"bytes"
	"fmt"
	"io"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/internal/safefile"
	"mpibench/run/cases"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
)

// caseError names where an MPI error happened (result.CaseError; the
// abort's message adds the suite and the rank): the call, its volume and
// the process count. The error stays wrapped, so that mpi.EndsJob still
// knows it.
func caseError(call string, n, procs int, err error) error {
	return result.InCase(err, result.CaseError{Suite: result.SuitePGMPI, Bench: call, Bytes: n, Procs: procs})
}

// abort ends the job after an MPI error of this rank in call at n bytes.
func abort(env *mpijob.Env, call string, n int, err error) int {
	return env.Abort(caseError(call, n, env.World.Size(), err))
}

func runNrep(cfg nrepPlan, env *mpijob.Env) int {
	var most memcheck.Need
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			most = memcheck.Max(most, need(name, n, cfg.Criteria.Max, env.World.Size()))
		}
	}
	if code, ok := mpijob.CheckMemory(env, most, 0); !ok {
		return code
	}
	out := &NrepFile{Procs: env.World.Size(), Criteria: cfg.Criteria}
	// Every prediction may take Max repetitions, after one warm-up call.
	reps := Predictions*cfg.Criteria.Max + 1
	loop := mpijob.GoingOn(env.World, env.Cases)
	env.Cases.SetTotal(len(cfg.Calls) * len(cfg.Sizes))
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			var e NrepEntry
			if _, _, err := loop.Run(nrepStep(env, cfg.Criteria, name, n, reps, &e)); err != nil {
				return abort(env, name, n, err)
			}
			out.Entries = append(out.Entries, e)
		}
	}
	var werr error
	if env.World.Rank() == 0 {
		werr = writeNrep(cfg.Out, out)
	}
	return env.Finish(werr, loop.Err)
}

// nrepStep predicts the repetitions of call name at n bytes into *e, and
// prints them on rank 0.
func nrepStep(env *mpijob.Env, crit Criteria, name string, n, reps int, e *NrepEntry) mpijob.Step {
	return mpijob.Step{Case: watchCase(env, "pgmpi-nrep", name, n, reps),
		Measure: func() (_ []*result.Record, err error) {
			*e, err = Predict(env.World, Find(name), n, crit)
			return nil, err
		},
		Show: func([]*result.Record) error {
			_, err := fmt.Fprintf(env.Stdout, "%-44s %8d bytes %6d reps %v\n", name, n, e.Reps, e.Predictions)
			return err
		}}
}

// watchCase is call at volume n as the watchdog and the journal know it,
// keyed "STEP/CALL/npP/N" ("pgmpi/MPI_Allgather/np2/1024"); reps bounds
// its repetitions.
func watchCase(env *mpijob.Env, step, call string, n, reps int) cases.Case {
	p := env.World.Size()
	return cases.Case{Suite: env.Name, Benchmark: call, Bytes: int64(n), Procs: p, Reps: reps,
		Key: fmt.Sprintf("%s/%s/np%d/%d", step, call, p, n)}
}

// writeNrep replaces path in one step, so that it never holds a part.
func writeNrep(path string, f *NrepFile) error {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return err
	}
	return safefile.WriteFile(path, b.Bytes())
}

// runMeasure measures every item; rank 0 journals and prints each as it
// finishes. A failed write (the journal or stdout) does not stop the
// measurements: every rank exits with 1 at the end.
func runMeasure(cfg measurePlan, env *mpijob.Env) int {
	if cfg.Verify {
		return runVerify(cfg, env)
	}
	var most memcheck.Need
	for _, it := range cfg.Items {
		most = memcheck.Max(most, need(it.Call, it.Bytes, it.Reps, env.World.Size()))
	}
	if code, ok := mpijob.CheckMemory(env, most, 0); !ok {
		return code
	}
	env.ResumeNote(false)
	loop := mpijob.GoingOn(env.World, env.Cases)
	env.Cases.SetTotal(len(cfg.Items))
	for _, it := range cfg.Items {
		if _, _, err := loop.Run(measureStep(env, cfg, it)); err != nil {
			return abort(env, it.Call, it.Bytes, err)
		}
	}
	return env.Finish(nil, loop.Err)
}

// measureStep measures item it: its record on rank 0, which prints its
// line, or that of the record a resumed run kept, or that it hung there.
func measureStep(env *mpijob.Env, cfg measurePlan, it measureItem) mpijob.Step {
	// One untimed warm-up call before the repetitions.
	c := watchCase(env, result.SuitePGMPI, it.Call, it.Bytes, it.Reps+1)
	return mpijob.Step{Case: c,
		Measure: func() ([]*result.Record, error) {
			call := Find(it.Call)
			t, err := Measure(env.World, call, it.Bytes, it.Reps)
			if err != nil || env.World.Rank() != 0 {
				return nil, err
			}
			return []*result.Record{Record(call, it.Bytes, env.World.Size(), cfg.Launch, t, env.Ctx)}, nil
		},
		Show: func(recs []*result.Record) error { return printAll(env.Stdout, recs) },
		Hung: func() error {
			_, err := fmt.Fprintf(env.Stdout, "# %s at %d bytes: hung in the resumed run, not measured (%s)\n",
				c.Benchmark, c.Bytes, c.Key)
			return err
		}}
}

// printMeasured prints the line of a measured record; a stored one
// without its summary gets it from its samples.
func printMeasured(w io.Writer, r *result.Record) error {
	s := r.Stats
	if s == nil {
		sum := stats.Summarize(r.Samples)
		s = &sum
	}
	_, err := fmt.Fprintf(w, "%-44s %8d bytes %6d reps  median %10.2f us  mean %10.2f us\n",
		r.Benchmark, r.Bytes, r.Reps, s.Median, s.Mean)
	return err
}

// printAll prints the lines of records, measured or stored.
func printAll(w io.Writer, recs []*result.Record) error {
	for _, r := range recs {
		if err := printMeasured(w, r); err != nil {
			return err
		}
	}
	return nil
}

// runVerify runs every call once and compares its output on every rank
// with the result of the function it emulates; exit 3 on a mismatch.
func runVerify(cfg measurePlan, env *mpijob.Env) int {
	wrong := 0
	loop := mpijob.GoingOn(env.World, env.Cases)
	env.Cases.SetTotal(len(cfg.Items))
	for _, it := range cfg.Items {
		var bad int
		if _, _, err := loop.Run(verifyStep(env, it, &bad)); err != nil {
			return abort(env, it.Call, it.Bytes, err)
		}
		if bad > 0 {
			wrong++
		}
	}
	if code := env.Finish(nil, loop.Err); code != 0 || wrong == 0 {
		return code
	}
	return 3
}

// verifyStep runs item it once and counts the wrong values in *bad; each
// rank tells what it found wrong first, rank 0 prints the verdict.
func verifyStep(env *mpijob.Env, it measureItem, bad *int) mpijob.Step {
	return mpijob.Step{Case: watchCase(env, "pgmpi-verify", it.Call, it.Bytes, 1),
		Measure: func() ([]*result.Record, error) {
			n, first, err := Verify(env.World, Find(it.Call), it.Bytes)
			if err == nil && first != "" {
				_, _ = fmt.Fprintf(env.Stderr, "mpibench guidelines: %s at %d bytes: %s\n", it.Call, it.Bytes, first)
			}
			*bad = n
			return nil, err
		},
		Show: func([]*result.Record) error {
			verdict := "ok"
			if *bad > 0 {
				verdict = "WRONG"
			}
			_, err := fmt.Fprintf(env.Stdout, "%-44s %8d bytes %s\n", it.Call, it.Bytes, verdict)
			return err
		}}
}
