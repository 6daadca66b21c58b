package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"mpibench/mpijob"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mpibench/cases"
	"mpibench/internal/memcheck"
	"mpibench/internal/safefile"
	"mpibench/pgmpi"
	"mpibench/result"
	"mpibench/stats"
)

const guidelinesUsage = `Usage:
  mpirun -np P mpibench guidelines nrep [flags]      Step NREP: repetitions per call and size
  mpirun -np P mpibench guidelines measure [flags]   Step MEASURE: one launch's samples
  mpibench guidelines check DIR|FILE ...             Step ANALYZE: verify the guidelines
  mpibench launch -R 10 -- mpirun -np P mpibench guidelines measure -nrep nrep.json -o DIR

PGMPI (Hunold et al.): MPI collectives and the mock-ups of the pattern
guidelines GL3-GL17. The size n is the communication volume of section II
in bytes, rounded up to a multiple of 4*P (MPI_INT vectors, blocks n/P).

nrep flags:
  -calls LIST        calls, comma-separated (default all; see below)
  -sizes LIST        volumes n in bytes, each at most 1073741824 (1 GiB)
                     (default ` + guidelinesSizes + `)
  -method LIST       rse, cov_mean, cov_median; all must pass (default rse)
  -thresholds LIST   e.g. rse=0.025,cov_mean=0.01,cov_median=0.01 (the defaults)
  -window LIST       e.g. cov_mean=20,cov_median=20 (the defaults)
  -min N -max N -step N   repetitions: first check, cap, between checks
                     (20, 1000, 10); -max, -step and windows at most 10000000
  -o FILE            the predictions, JSON (default nrep.json)

measure flags:
  -nrep FILE         repetitions per call and size from 'guidelines nrep'
  -calls LIST -sizes LIST -reps N   without -nrep (default all, ` + guidelinesSizes + `, 100);
                     -reps at most 10000000, as the reps of an -nrep file
  -o DIR             writes DIR/launch-K.jsonl (and its journal
                     launch-K.jsonl.state), K from $MPIBENCH_LAUNCH or else one
                     past the largest K in DIR (default pgmpi)
  -resume            continue launch K, K from $MPIBENCH_LAUNCH or else the
                     largest K in DIR (the launch a killed run was writing;
                     an error when DIR has none): keep its finished calls and
                     sizes, measure the others, skip the one it hung in.
                     With $MPIBENCH_LAUNCH and no such file, a fresh launch K.
  -verify            run each call once and check its result; no timing

Every call and size is one case for the watchdog (-timeout) and the journal,
keyed pgmpi/CALL/npP/N (nrep: pgmpi-nrep/..., -verify: pgmpi-verify/...).
nrep writes its
predictions once, at the end, and takes no -resume.

Calls: `

// guidelinesSizes are the default volumes, within the paper's 1 B..100 KiB.
const guidelinesSizes = "16,256,4096,65536"

func guidelinesHelp() string {
	var names []string
	for _, c := range pgmpi.Calls {
		names = append(names, c.Name)
	}
	return guidelinesUsage + strings.Join(names, ", ") + "\n"
}

// runGuidelines dispatches the steps of PGMPI.
func runGuidelines(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, guidelinesHelp())
		return 2
	}
	switch args[0] {
	case "nrep":
		return mpijob.Run(mpijob.Command[nrepConfig]{Name: "guidelines nrep", Usage: guidelinesHelp(),
			Parse: parseNrep, Run: runNrep}, args[1:], stdout, stderr)
	case "measure":
		return mpijob.Run(mpijob.Command[measureConfig]{Name: "guidelines measure", Usage: guidelinesHelp(),
			Parse: parseMeasure, Run: runMeasure, OutFlag: "-o"}, args[1:], stdout, stderr)
	case "check":
		return runGuidelinesCheck(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, guidelinesHelp())
		return 0
	}
	fmt.Fprintf(stderr, "mpibench guidelines: unknown step %q (want nrep, measure or check)\n", args[0])
	return 2
}

// callsAndSizes reads -calls and -sizes and rounds the sizes for size
// processes.
func callsAndSizes(calls, sizes string, size int) ([]string, []int, error) {
	cs, err := pgmpi.ParseCalls(calls)
	if err != nil {
		return nil, nil, fmt.Errorf("-calls: %w", err)
	}
	ns, err := pgmpi.ParseSizes(sizes)
	if err != nil {
		return nil, nil, fmt.Errorf("-sizes: %w", err)
	}
	ns, _ = pgmpi.Volumes(ns, size)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return names, ns, nil
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// nrepConfig is what every rank runs in Step NREP.
type nrepConfig struct {
	Calls    []string       `json:"calls"`
	Sizes    []int          `json:"sizes"`
	Criteria pgmpi.Criteria `json:"criteria"`
	Out      string         `json:"out"`
}

func parseNrep(args []string, size int, resume bool) (nrepConfig, string, error) {
	cfg := nrepConfig{Criteria: pgmpi.DefaultCriteria()}
	crit := &cfg.Criteria
	fs := newFlags("nrep")
	calls := fs.String("calls", "", "")
	sizes := fs.String("sizes", guidelinesSizes, "")
	method := fs.String("method", pgmpi.RSE, "")
	thr := fs.String("thresholds", "", "")
	win := fs.String("window", "", "")
	fs.IntVar(&crit.Min, "min", crit.Min, "")
	fs.IntVar(&crit.Max, "max", crit.Max, "")
	fs.IntVar(&crit.Step, "step", crit.Step, "")
	fs.StringVar(&cfg.Out, "o", "nrep.json", "")
	if err := fs.Parse(args); err != nil {
		return cfg, "", err
	}
	if err := noArgs(fs); err != nil {
		return cfg, "", err
	}
	var err error
	if cfg.Calls, cfg.Sizes, err = callsAndSizes(*calls, *sizes, size); err != nil {
		return cfg, "", err
	}
	crit.Methods = strings.Split(*method, ",")
	if err := setCriteria(crit, *thr, *win); err != nil {
		return cfg, "", err
	}
	if err := crit.Check(); err != nil {
		return cfg, "", err
	}
	if resume {
		return cfg, "", errors.New("-resume: nrep writes its predictions once, at the end, so a killed run " +
			"left nothing to resume; run it again without -resume")
	}
	if err := writable(cfg.Out); err != nil {
		return cfg, "", fmt.Errorf("-o: %w", err)
	}
	return cfg, "", nil
}

// writable fails when path could not be written at the end of the run,
// without changing a file already there: a run that is interrupted keeps
// the predictions of the one before.
func writable(path string) error {
	_, err := os.Lstat(path)
	if err == nil {
		f, err := safefile.Append(path)
		if err != nil {
			return err
		}
		return f.Close()
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// setCriteria applies -thresholds and -window over the defaults.
func setCriteria(crit *pgmpi.Criteria, thr, win string) error {
	if thr != "" {
		kv, err := pgmpi.ParseKeyValues(thr)
		if err != nil {
			return fmt.Errorf("-thresholds: %w", err)
		}
		for k, v := range kv {
			crit.Thresholds[k] = v
		}
	}
	if win != "" {
		kv, err := pgmpi.ParseKeyValues(win)
		if err != nil {
			return fmt.Errorf("-window: %w", err)
		}
		for k, v := range kv {
			if k == pgmpi.RSE || v != float64(int(v)) {
				return fmt.Errorf("-window: %s=%v: want cov_mean or cov_median with a whole number", k, v)
			}
			crit.Windows[k] = int(v)
		}
	}
	return nil
}

func runNrep(cfg nrepConfig, env *mpijob.Env) int {
	var need memcheck.Need
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			need = memcheck.Max(need, pgmpiNeed(name, n, cfg.Criteria.Max, env.World.Size()))
		}
	}
	if code, ok := mpijob.CheckMemory(env, need, 0); !ok {
		return code
	}
	out := &pgmpi.NrepFile{Procs: env.World.Size(), Criteria: cfg.Criteria}
	rank0 := env.World.Rank() == 0
	// Every prediction may take Max repetitions, after one warm-up call.
	reps := pgmpi.Predictions*cfg.Criteria.Max + 1
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			env.Cases.Begin(pgmpiCase(env, "pgmpi-nrep", name, n, reps))
			e, err := pgmpi.Predict(env.World, pgmpi.Find(name), n, cfg.Criteria)
			if err != nil {
				return env.Abort(fmt.Errorf("%s at %d bytes: %w", name, n, err))
			}
			env.Cases.End()
			if rank0 {
				fmt.Fprintf(env.Stdout, "%-44s %8d bytes %6d reps %v\n", name, n, e.Reps, e.Predictions)
			}
			out.Entries = append(out.Entries, e)
		}
	}
	var werr error
	if rank0 {
		werr = writeNrep(cfg.Out, out)
	}
	return env.Finish(werr, func() error { return nil })
}

// pgmpiCase is call at volume n as the watchdog and the journal know it,
// keyed "STEP/CALL/npP/N" ("pgmpi/MPI_Allgather/np2/1024"); reps bounds
// its repetitions.
func pgmpiCase(env *mpijob.Env, step, call string, n, reps int) cases.Case {
	p := env.World.Size()
	return cases.Case{Suite: env.Name, Benchmark: call, Bytes: int64(n), Procs: p, Reps: reps,
		Key: fmt.Sprintf("%s/%s/np%d/%d", step, call, p, n)}
}

// writeNrep replaces path in one step, so that it never holds a part.
func writeNrep(path string, f *pgmpi.NrepFile) error {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return err
	}
	return safefile.WriteFile(path, b.Bytes())
}

// measureItem is one call at one volume with its repetitions.
type measureItem struct {
	Call  string `json:"call"`
	Bytes int    `json:"bytes"`
	Reps  int    `json:"reps"`
}

// measureConfig is what every rank runs in Step MEASURE.
type measureConfig struct {
	Items  []measureItem `json:"items"`
	Launch int           `json:"launch"`
	Verify bool          `json:"verify"`
}

func parseMeasure(args []string, size int, resume bool) (measureConfig, string, error) {
	var cfg measureConfig
	fs := newFlags("measure")
	calls := fs.String("calls", "", "")
	sizes := fs.String("sizes", guidelinesSizes, "")
	reps := fs.Int("reps", 100, "")
	nrep := fs.String("nrep", "", "")
	dir := fs.String("o", "pgmpi", "")
	fs.BoolVar(&cfg.Verify, "verify", false, "")
	if err := fs.Parse(args); err != nil {
		return cfg, "", err
	}
	if err := noArgs(fs); err != nil {
		return cfg, "", err
	}
	var err error
	if *nrep != "" {
		cfg.Items, err = nrepItems(*nrep, size)
	} else {
		cfg.Items, err = plainItems(*calls, *sizes, *reps, size)
	}
	if err == nil && cfg.Verify && resume {
		err = errors.New("-resume: -verify keeps no results to resume")
	}
	if err != nil || cfg.Verify {
		return cfg, "", err
	}
	cfg.Launch, err = launchIndex(*dir, resume)
	if err != nil {
		return cfg, "", err
	}
	return cfg, launchFile(*dir, cfg.Launch), nil
}

func plainItems(calls, sizes string, reps, size int) ([]measureItem, error) {
	if reps < 1 || reps > pgmpi.MaxReps {
		return nil, fmt.Errorf("-reps %d: want 1 to %d repetitions", reps, pgmpi.MaxReps)
	}
	names, ns, err := callsAndSizes(calls, sizes, size)
	var items []measureItem
	for _, c := range names {
		for _, n := range ns {
			items = append(items, measureItem{c, n, reps})
		}
	}
	return items, err
}

// nrepItems reads the entries of an NREP file made for size processes.
func nrepItems(path string, size int) ([]measureItem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-nrep: %w", err)
	}
	defer f.Close()
	nf, err := pgmpi.ReadNrep(f)
	if err != nil {
		return nil, fmt.Errorf("-nrep %s: %w", path, err)
	}
	if nf.Procs != size {
		return nil, fmt.Errorf("-nrep %s: made for %d processes, running on %d", path, nf.Procs, size)
	}
	var items []measureItem
	seen := map[measureItem]bool{}
	for _, e := range nf.Entries {
		it := measureItem{Call: pgmpi.Find(e.Call).Name, Bytes: e.Bytes}
		// One case per call and size: the journal knows it by that.
		if seen[it] {
			return nil, fmt.Errorf("-nrep %s: %s at %d bytes is listed twice", path, it.Call, it.Bytes)
		}
		seen[it] = true
		it.Reps = e.Reps
		items = append(items, it)
	}
	return items, nil
}

// launchIndex is the launch this run writes in dir, which it creates:
// $MPIBENCH_LAUNCH, set by 'mpibench launch', or else one past the
// largest in dir; with -resume the largest itself, the launch a killed
// run was writing.
func launchIndex(dir string, resume bool) (int, error) {
	k, err := pickLaunch(dir, resume)
	if err == nil {
		if err = os.MkdirAll(dir, 0o755); err != nil {
			err = fmt.Errorf("-o: %w", err)
		}
	}
	return k, err
}

func pickLaunch(dir string, resume bool) (int, error) {
	if v := os.Getenv("MPIBENCH_LAUNCH"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return 0, fmt.Errorf("MPIBENCH_LAUNCH=%q: want a positive integer", v)
		}
		return k, nil
	}
	last, err := lastLaunch(dir)
	switch {
	case err != nil:
		return 0, fmt.Errorf("-o: %w", err)
	case !resume:
		return last + 1, nil
	case last == 0:
		return 0, fmt.Errorf("-resume: %s has no launch-K.jsonl to resume; without -resume the run starts launch 1", dir)
	}
	return last, nil
}

// lastLaunch is the largest K of the launch-K.jsonl files in dir; 0 for
// none or no dir.
func lastLaunch(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	last := 0
	for _, e := range entries {
		num, ok := strings.CutPrefix(e.Name(), "launch-")
		num, ok2 := strings.CutSuffix(num, ".jsonl")
		if k, err := strconv.Atoi(num); ok && ok2 && err == nil && k > last {
			last = k
		}
	}
	return last, err
}

func launchFile(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k))
}

func runMeasure(cfg measureConfig, env *mpijob.Env) int {
	if cfg.Verify {
		return runVerify(cfg, env)
	}
	var need memcheck.Need
	for _, it := range cfg.Items {
		need = memcheck.Max(need, pgmpiNeed(it.Call, it.Bytes, it.Reps, env.World.Size()))
	}
	if code, ok := mpijob.CheckMemory(env, need, 0); !ok {
		return code
	}
	env.ResumeNote(false)
	rank0 := env.World.Rank() == 0
	var werr error
	for _, it := range cfg.Items {
		// One untimed warm-up call before the repetitions.
		c := pgmpiCase(env, "pgmpi", it.Call, it.Bytes, it.Reps+1)
		if env.Cases.Skip(c.Key) {
			if rank0 {
				replayMeasure(env, c)
			}
			continue
		}
		env.Cases.Begin(c)
		call := pgmpi.Find(it.Call)
		t, err := pgmpi.Measure(env.World, call, it.Bytes, it.Reps)
		if err != nil {
			return env.Abort(fmt.Errorf("%s at %d bytes: %w", it.Call, it.Bytes, err))
		}
		if rank0 {
			r := pgmpi.Record(call, it.Bytes, env.World.Size(), cfg.Launch, t, env.Ctx)
			printMeasured(env.Stdout, r)
			if werr == nil {
				werr = env.Cases.Finish([]*result.Record{r})
			}
		}
		env.Cases.End()
	}
	return env.Finish(werr, func() error { return nil })
}

// replayMeasure shows a case -resume skipped: the line of its stored
// record, or that the resumed run hung in it.
func replayMeasure(env *mpijob.Env, c cases.Case) {
	if env.Cases.Hung(c.Key) {
		fmt.Fprintf(env.Stdout, "# %s at %d bytes: hung in the resumed run, not measured (%s)\n",
			c.Benchmark, c.Bytes, c.Key)
		return
	}
	for _, r := range env.Cases.Stored(c.Key) {
		printMeasured(env.Stdout, &r)
	}
}

// printMeasured prints the line of a measured record; a stored one
// without its summary gets it from its samples.
func printMeasured(w io.Writer, r *result.Record) {
	s := r.Stats
	if s == nil {
		sum := stats.Summarize(r.Samples)
		s = &sum
	}
	fmt.Fprintf(w, "%-44s %8d bytes %6d reps  median %10.2f us  mean %10.2f us\n",
		r.Benchmark, r.Bytes, r.Reps, s.Median, s.Mean)
}

// runVerify runs every call once and compares its output on every rank
// with the result of the function it emulates; exit 3 on a mismatch.
func runVerify(cfg measureConfig, env *mpijob.Env) int {
	wrong := 0
	for _, it := range cfg.Items {
		env.Cases.Begin(pgmpiCase(env, "pgmpi-verify", it.Call, it.Bytes, 1))
		bad, first, err := pgmpi.Verify(env.World, pgmpi.Find(it.Call), it.Bytes)
		if err != nil {
			return env.Abort(fmt.Errorf("%s at %d bytes: %w", it.Call, it.Bytes, err))
		}
		env.Cases.End()
		if first != "" {
			fmt.Fprintf(env.Stderr, "mpibench guidelines: %s at %d bytes: %s\n", it.Call, it.Bytes, first)
		}
		if bad > 0 {
			wrong++
		}
		if env.World.Rank() == 0 {
			verdict := "ok"
			if bad > 0 {
				verdict = "WRONG"
			}
			fmt.Fprintf(env.Stdout, "%-44s %8d bytes %s\n", it.Call, it.Bytes, verdict)
		}
	}
	if wrong > 0 {
		return 3
	}
	return 0
}
