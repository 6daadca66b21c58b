package pgmpi

import (
	"bytes"
	"fmt"
	"io"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
	"mpibench/internal/memcheck"
	"mpibench/internal/safefile"
	"mpibench/run/cases"
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
	rank0 := env.World.Rank() == 0
	// Every prediction may take Max repetitions, after one warm-up call.
	reps := Predictions*cfg.Criteria.Max + 1
	var terr error // the first failed write to stdout
	env.Cases.SetTotal(len(cfg.Calls) * len(cfg.Sizes))
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			env.Cases.Begin(watchCase(env, "pgmpi-nrep", name, n, reps))
			e, err := Predict(env.World, Find(name), n, cfg.Criteria)
			if err != nil {
				return abort(env, name, n, err)
			}
			env.Cases.End()
			if rank0 && terr == nil {
				_, terr = fmt.Fprintf(env.Stdout, "%-44s %8d bytes %6d reps %v\n", name, n, e.Reps, e.Predictions)
			}
			out.Entries = append(out.Entries, e)
		}
	}
	var werr error
	if rank0 {
		werr = writeNrep(cfg.Out, out)
	}
	return env.Finish(werr, func() error { return terr })
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
	rank0 := env.World.Rank() == 0
	var jerr, terr error // the first failed write of the journal, of stdout
	env.Cases.SetTotal(len(cfg.Items))
	for _, it := range cfg.Items {
		// One untimed warm-up call before the repetitions.
		c := watchCase(env, result.SuitePGMPI, it.Call, it.Bytes, it.Reps+1)
		if env.Cases.Skip(c.Key) {
			if rank0 && terr == nil {
				terr = replayMeasure(env, c)
			}
			continue
		}
		env.Cases.Begin(c)
		call := Find(it.Call)
		t, err := Measure(env.World, call, it.Bytes, it.Reps)
		if err != nil {
			return abort(env, it.Call, it.Bytes, err)
		}
		if rank0 {
			r := Record(call, it.Bytes, env.World.Size(), cfg.Launch, t, env.Ctx)
			if terr == nil {
				terr = printMeasured(env.Stdout, r)
			}
			if jerr == nil {
				jerr = env.Cases.Finish([]*result.Record{r})
			}
		}
		env.Cases.End()
	}
	return env.Finish(jerr, func() error { return terr })
}

// replayMeasure shows a case -resume skipped: the line of its stored
// record, or that the resumed run hung in it.
func replayMeasure(env *mpijob.Env, c cases.Case) error {
	if env.Cases.Hung(c.Key) {
		_, err := fmt.Fprintf(env.Stdout, "# %s at %d bytes: hung in the resumed run, not measured (%s)\n",
			c.Benchmark, c.Bytes, c.Key)
		return err
	}
	for _, r := range env.Cases.Stored(c.Key) {
		if err := printMeasured(env.Stdout, &r); err != nil {
			return err
		}
	}
	return nil
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

// runVerify runs every call once and compares its output on every rank
// with the result of the function it emulates; exit 3 on a mismatch.
func runVerify(cfg measurePlan, env *mpijob.Env) int {
	wrong := 0
	var terr error // the first failed write to stdout
	env.Cases.SetTotal(len(cfg.Items))
	for _, it := range cfg.Items {
		env.Cases.Begin(watchCase(env, "pgmpi-verify", it.Call, it.Bytes, 1))
		bad, first, err := Verify(env.World, Find(it.Call), it.Bytes)
		if err != nil {
			return abort(env, it.Call, it.Bytes, err)
		}
		env.Cases.End()
		if first != "" {
			_, _ = fmt.Fprintf(env.Stderr, "mpibench guidelines: %s at %d bytes: %s\n", it.Call, it.Bytes, first)
		}
		if bad > 0 {
			wrong++
		}
		if env.World.Rank() == 0 && terr == nil {
			verdict := "ok"
			if bad > 0 {
				verdict = "WRONG"
			}
			_, terr = fmt.Fprintf(env.Stdout, "%-44s %8d bytes %s\n", it.Call, it.Bytes, verdict)
		}
	}
	if code := env.Finish(nil, func() error { return terr }); code != 0 || wrong == 0 {
		return code
	}
	return 3
}
