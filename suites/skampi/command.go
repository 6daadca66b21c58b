package skampi

import (
	"flag"
	"fmt"
	"io"
	"mpibench/run/clocksync"
	"strconv"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/run/mpijob"
)

// Name is the suite's command word and the Suite of its records.
const Name = result.SuiteSkampi

// Command is mpibench skampi as the registry knows it: its help, its rows
// of `mpibench list`, -print-config and its run under MPI.
var Command = func() mpijob.Entry {
	c := withPrintConfig(mpijob.Command[*plan]{Name: Name, Usage: usage, Parse: prepare, Run: run}.
		Entry("skampi [-config FILE] [flags]", "run SKaMPI measurements (adaptive, crash-tolerant)"))
	c.List = listing
	return c
}()

// listing is the suite's rows of `mpibench list`: every operation, its
// pattern and the MPI calls it is based on.
func listing() mpijob.Listing {
	l := mpijob.Listing{Header: []string{"suite", "operation", "pattern", "based on"}}
	for _, op := range Operations() {
		l.Rows = append(l.Rows, []string{Name, op.Name, op.Pattern, op.Calls})
	}
	return l
}

const usage = `Usage: mpirun -np P mpibench skampi [-config FILE] [-json FILE] [-epsilon E] [-samples=false] [-sync M] [-resume] [-timeout S]

Runs the SKaMPI measurements of a configuration file (the default one
without -config: sections 2-5 of the SKaMPI report). Each point is
repeated until the relative standard error of its trimmed mean is below
epsilon (within the file's repetition and time bounds); lengths are
refined adaptively.

  -config FILE   the measurements (see 'mpibench skampi -print-config')
  -json FILE     results, JSON Lines, written as each measurement finishes
  -o FILE        (the same flag, its older name; default skampi.jsonl);
                 FILE.state notes what started
  -epsilon E     override the file's epsilon for every measurement
  -samples=false leave the raw time of every repetition out of the records
                 (recorded by default, so that the figures can be recomputed)
  -resume        after a crash: skip the finished measurements of FILE, run
                 the others, and retry the one that crashed last (below)
  -sync barrier|none|window  how a collective's repetitions start: barrier
                 (the default: MPI_Barrier, timer, call, MPI_Barrier, timer),
                 none (not SKaMPI's: the same without the first MPI_Barrier)
                 or window (a start common to all ranks on synchronised
                 clocks, timed to the last rank's end; late starts excluded,
                 counted)
  -window_time S -sync window: seconds between two starts (default: chosen
                 from the call's measured time)
  -print-config  print the default configuration and exit
  -h             this help

Exit codes: 0 ok, 1 run-time failure, 2 bad command line or configuration,
4 the watchdog ended a hung measurement.
`

// withPrintConfig answers -print-config before MPI_Init: it prints a
// file and needs no processes, so it also works outside mpirun.
func withPrintConfig(s mpijob.Entry) mpijob.Entry {
	runMPI := s.Main
	s.Main = func(args []string, stdout, stderr io.Writer) int {
		f, err := parseFlags(args)
		if err != nil || !f.printConfig {
			return runMPI(args, stdout, stderr)
		}
		if mpijob.LauncherRank() == "0" {
			if _, err := io.WriteString(stdout, DefaultConfig); err != nil {
				_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n", Name, err)
				return 1
			}
		}
		return 0
	}
	return s
}

// flags are the command line of mpibench skampi.
type flags struct {
	config, out string
	epsilon     float64
	printConfig bool
	samples     bool
	sync        Sync
}

// parseFlags reads the command line; every error is a cli.UsageError.
func parseFlags(args []string) (flags, error) {
	f := flags{out: "skampi.jsonl", samples: true}
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.StringVar(&f.config, "config", "", "")
	// -json is the results file's name in every suite; -o was skampi's.
	cli.Results(fs, &f.out)
	fs.Func("epsilon", "", func(v string) error {
		e, err := strconv.ParseFloat(v, 64)
		if err != nil || !(e > 0 && e < 1) {
			return fmt.Errorf("want a number in (0, 1)")
		}
		f.epsilon = e
		return nil
	})
	fs.Func("sync", "", f.sync.set)
	fs.Func("window_time", "", f.sync.setWindow)
	fs.BoolVar(&f.printConfig, "print-config", false, "")
	fs.BoolVar(&f.samples, "samples", true, "")
	var help bool
	if err := cli.Parse(fs, args, &help, Name); err != nil {
		return f, err
	}
	if f.out == "" {
		return f, cli.Usagef("-json (-o): want a file name")
	}
	if f.sync.Window > 0 && f.sync.Method != clocksync.Window {
		return f, cli.Usagef("-window_time %g: the window of -sync window; add -sync window", f.sync.Window)
	}
	return f, nil
}

// prepare reads the command line and the configuration on rank 0; the
// -json file is the journal that mpijob opens or resumes.
func prepare(args []string, procs int, _ bool) (*plan, string, error) {
	f, err := parseFlags(args)
	if err != nil {
		return nil, "", err
	}
	cfg, err := LoadConfig(f.config)
	if err != nil {
		return nil, "", err
	}
	if f.epsilon > 0 {
		cfg.SetEpsilon(f.epsilon)
	}
	if err := cfg.Check(procs); err != nil {
		return nil, "", err
	}
	return &plan{Config: cfg, Samples: f.samples, Sync: f.sync}, f.out, nil
}
