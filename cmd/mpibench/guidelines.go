package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mpibench/internal/memcheck"
	"mpibench/pgmpi"
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
  -sizes LIST        volumes n in bytes (default ` + guidelinesSizes + `)
  -method LIST       rse, cov_mean, cov_median; all must pass (default rse)
  -thresholds LIST   e.g. rse=0.025,cov_mean=0.01,cov_median=0.01 (the defaults)
  -window LIST       e.g. cov_mean=20,cov_median=20 (the defaults)
  -min N -max N -step N   repetitions: first check, cap, between checks (20, 1000, 10)
  -o FILE            the predictions, JSON (default nrep.json)

measure flags:
  -nrep FILE         repetitions per call and size from 'guidelines nrep'
  -calls LIST -sizes LIST -reps N   without -nrep (default all, ` + guidelinesSizes + `, 100)
  -o DIR             writes DIR/launch-K.jsonl, K from $MPIBENCH_LAUNCH or the
                     next free index (default pgmpi)
  -verify            run each call once and check its result; no timing

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
		return runMPI(mpiCommand[nrepConfig]{name: "guidelines nrep", usage: guidelinesHelp(),
			parse: parseNrep, run: runNrep}, args[1:], stdout, stderr)
	case "measure":
		return runMPI(mpiCommand[measureConfig]{name: "guidelines measure", usage: guidelinesHelp(),
			parse: parseMeasure, run: runMeasure}, args[1:], stdout, stderr)
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

func parseNrep(args []string, size int) (nrepConfig, string, error) {
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
	// Fail before measuring when the output cannot be written.
	f, err := os.Create(cfg.Out)
	if err != nil {
		return cfg, "", fmt.Errorf("-o: %w", err)
	}
	return cfg, "", f.Close()
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

func runNrep(cfg nrepConfig, env *mpiEnv) int {
	var need memcheck.Need
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			need = memcheck.Max(need, pgmpiNeed(name, n, cfg.Criteria.Max, env.world.Size()))
		}
	}
	if code, ok := checkMemory(env, need, 0); !ok {
		return code
	}
	out := &pgmpi.NrepFile{Procs: env.world.Size(), Criteria: cfg.Criteria}
	rank0 := env.world.Rank() == 0
	for _, name := range cfg.Calls {
		for _, n := range cfg.Sizes {
			e, err := pgmpi.Predict(env.world, pgmpi.Find(name), n, cfg.Criteria)
			if err != nil {
				return env.abort(fmt.Errorf("%s at %d bytes: %w", name, n, err))
			}
			if rank0 {
				fmt.Fprintf(env.stdout, "%-44s %8d bytes %6d reps %v\n", name, n, e.Reps, e.Predictions)
			}
			out.Entries = append(out.Entries, e)
		}
	}
	var werr error
	if rank0 {
		werr = writeNrep(cfg.Out, out)
	}
	return env.finish(werr, func() error { return nil })
}

func writeNrep(path string, f *pgmpi.NrepFile) error {
	w, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := f.Write(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
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

func parseMeasure(args []string, size int) (measureConfig, string, error) {
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
	if err != nil || cfg.Verify {
		return cfg, "", err
	}
	cfg.Launch, err = launchIndex(*dir)
	if err != nil {
		return cfg, "", err
	}
	return cfg, launchFile(*dir, cfg.Launch), nil
}

func plainItems(calls, sizes string, reps, size int) ([]measureItem, error) {
	if reps < 1 {
		return nil, errors.New("-reps: want at least 1")
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
	for _, e := range nf.Entries {
		items = append(items, measureItem{pgmpi.Find(e.Call).Name, e.Bytes, e.Reps})
	}
	return items, nil
}

// launchIndex is $MPIBENCH_LAUNCH, set by 'mpibench launch', or else the
// first k >= 1 without a launch file in dir, which it creates.
func launchIndex(dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("-o: %w", err)
	}
	if v := os.Getenv("MPIBENCH_LAUNCH"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return 0, fmt.Errorf("MPIBENCH_LAUNCH=%q: want a positive integer", v)
		}
		return k, nil
	}
	for k := 1; ; k++ {
		if _, err := os.Stat(launchFile(dir, k)); errors.Is(err, os.ErrNotExist) {
			return k, nil
		}
	}
}

func launchFile(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k))
}

func runMeasure(cfg measureConfig, env *mpiEnv) int {
	if cfg.Verify {
		return runVerify(cfg, env)
	}
	var need memcheck.Need
	for _, it := range cfg.Items {
		need = memcheck.Max(need, pgmpiNeed(it.Call, it.Bytes, it.Reps, env.world.Size()))
	}
	if code, ok := checkMemory(env, need, 0); !ok {
		return code
	}
	sink := env.sink()
	rank0 := env.world.Rank() == 0
	var werr error
	for _, it := range cfg.Items {
		call := pgmpi.Find(it.Call)
		t, err := pgmpi.Measure(env.world, call, it.Bytes, it.Reps)
		if err != nil {
			return env.abort(fmt.Errorf("%s at %d bytes: %w", it.Call, it.Bytes, err))
		}
		if !rank0 {
			continue
		}
		r := pgmpi.Record(call, it.Bytes, env.world.Size(), cfg.Launch, t, env.ctx)
		fmt.Fprintf(env.stdout, "%-44s %8d bytes %6d reps  median %10.2f us  mean %10.2f us\n",
			r.Benchmark, r.Bytes, r.Reps, r.Stats.Median, r.Stats.Mean)
		if werr == nil && sink != nil {
			werr = sink(r)
		}
	}
	return env.finish(werr, func() error { return nil })
}

// runVerify runs every call once and compares its output on every rank
// with the result of the function it emulates; exit 3 on a mismatch.
func runVerify(cfg measureConfig, env *mpiEnv) int {
	wrong := 0
	for _, it := range cfg.Items {
		bad, first, err := pgmpi.Verify(env.world, pgmpi.Find(it.Call), it.Bytes)
		if err != nil {
			return env.abort(fmt.Errorf("%s at %d bytes: %w", it.Call, it.Bytes, err))
		}
		if first != "" {
			fmt.Fprintf(env.stderr, "mpibench guidelines: %s at %d bytes: %s\n", it.Call, it.Bytes, first)
		}
		if bad > 0 {
			wrong++
		}
		if env.world.Rank() == 0 {
			verdict := "ok"
			if bad > 0 {
				verdict = "WRONG"
			}
			fmt.Fprintf(env.stdout, "%-44s %8d bytes %s\n", it.Call, it.Bytes, verdict)
		}
	}
	if wrong > 0 {
		return 3
	}
	return 0
}
