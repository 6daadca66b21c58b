package pgmpi

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mpibench/internal/cli"
	"mpibench/internal/safefile"
)

// callsAndSizes reads -calls and rounds the sizes of -sizes for size
// processes.
func callsAndSizes(calls string, sizes []int, size int) ([]string, []int, error) {
	cs, err := ParseCalls(calls)
	if err != nil {
		return nil, nil, fmt.Errorf("-calls: %w", err)
	}
	ns, _ := Volumes(sizes, size)
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return names, ns, nil
}

// sizesFlag defines -sizes on fs: the volumes in bytes, 0 to MaxBytes,
// defaultSizes until given.
func sizesFlag(fs *flag.FlagSet) *[]int {
	var ns []int
	set := cli.Sizes(&ns, MaxBytes)
	if err := set(defaultSizes); err != nil {
		panic("pgmpi: defaultSizes: " + err.Error()) // a constant: TestSizesFlag reads it
	}
	fs.Func("sizes", "", set)
	return &ns
}

// parseFlags reads args with fs; a step takes flags only. Every error is
// a cli.UsageError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var help bool // -h never gets here: mpijob.Run answers it first
	return cli.Parse(fs, args, &help, fs.Name())
}

// nrepPlan is what every rank runs in Step NREP.
type nrepPlan struct {
	Calls    []string `json:"calls"`
	Sizes    []int    `json:"sizes"`
	Criteria Criteria `json:"criteria"`
	Out      string   `json:"out"`
}

func parseNrep(args []string, size int, resume bool) (nrepPlan, string, error) {
	cfg := nrepPlan{Criteria: DefaultCriteria()}
	crit := &cfg.Criteria
	fs := flag.NewFlagSet("nrep", flag.ContinueOnError)
	calls := fs.String("calls", "", "")
	sizes := sizesFlag(fs)
	method := fs.String("method", RSE, "")
	thr := fs.String("thresholds", "", "")
	win := fs.String("window", "", "")
	fs.IntVar(&crit.Min, "min", crit.Min, "")
	fs.IntVar(&crit.Max, "max", crit.Max, "")
	fs.IntVar(&crit.Step, "step", crit.Step, "")
	// -json is the results file's name in every suite; -o was nrep's.
	cfg.Out = "nrep.json"
	cli.Results(fs, &cfg.Out)
	if err := parseFlags(fs, args); err != nil {
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
		return cfg, "", fmt.Errorf("%s: %w", cli.ResultsFlag, err)
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
	err = f.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return err
}

// setCriteria applies -thresholds and -window over the defaults.
func setCriteria(crit *Criteria, thr, win string) error {
	if thr != "" {
		kv, err := ParseKeyValues(thr)
		if err != nil {
			return fmt.Errorf("-thresholds: %w", err)
		}
		for k, v := range kv {
			crit.Thresholds[k] = v
		}
	}
	if win != "" {
		kv, err := ParseKeyValues(win)
		if err != nil {
			return fmt.Errorf("-window: %w", err)
		}
		for k, v := range kv {
			if k == RSE || v != float64(int(v)) {
				return fmt.Errorf("-window: %s=%v: want cov_mean or cov_median with a whole number", k, v)
			}
			crit.Windows[k] = int(v)
		}
	}
	return nil
}

// measureItem is one call at one volume with its repetitions.
type measureItem struct {
	Call  string `json:"call"`
	Bytes int    `json:"bytes"`
	Reps  int    `json:"reps"`
}

// measurePlan is what every rank runs in Step MEASURE.
type measurePlan struct {
	Items  []measureItem `json:"items"`
	Launch int           `json:"launch"`
	Verify bool          `json:"verify"`
}

func parseMeasure(args []string, size int, resume bool) (measurePlan, string, error) {
	var cfg measurePlan
	fs := flag.NewFlagSet("measure", flag.ContinueOnError)
	calls := fs.String("calls", "", "")
	sizes := sizesFlag(fs)
	reps := fs.Int("reps", 100, "")
	nrep := fs.String("nrep", "", "")
	dir := fs.String("o", "pgmpi", "")
	fs.BoolVar(&cfg.Verify, "verify", false, "")
	if err := parseFlags(fs, args); err != nil {
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

func plainItems(calls string, sizes []int, reps, size int) ([]measureItem, error) {
	if reps < 1 || reps > MaxReps {
		return nil, fmt.Errorf("-reps %d: want 1 to %d repetitions", reps, MaxReps)
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
	defer func() { _ = f.Close() }() // only read: its close loses nothing
	nf, err := ReadNrep(f)
	if err != nil {
		return nil, fmt.Errorf("-nrep %s: %w", path, err)
	}
	if nf.Procs != size {
		return nil, fmt.Errorf("-nrep %s: made for %d processes, running on %d", path, nf.Procs, size)
	}
	var items []measureItem
	seen := map[measureItem]bool{}
	for _, e := range nf.Entries {
		it := measureItem{Call: Find(e.Call).Name, Bytes: e.Bytes}
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
