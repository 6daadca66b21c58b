package pgmpi

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"mpibench/analysis/result"
	"mpibench/run/mpijob"
)

// Name is the command word of PGMPI's steps; their records' Suite is
// "pgmpi".
const Name = "guidelines"

// Command is mpibench guidelines as the registry knows it: nrep and
// measure run under MPI. The third step, check, reads their records
// without MPI and draws plots: the registry's own entry "guidelines
// check", found before this one, runs it (package analysis/guideline).
var Command = mpijob.Entry{Name: Name, Synopsis: "guidelines nrep|measure [flags]",
	Summary: "PGMPI: repetitions, then one launch's samples", MPI: true, Main: dispatch, List: listing}

// listing is PGMPI's rows of `mpibench list`: every call or mock-up, its
// class, the guideline it is the right side of, and the calls it uses.
func listing() mpijob.Listing {
	l := mpijob.Listing{Header: []string{"suite", "call", "class", "guideline", "based on"}}
	for _, c := range Calls {
		uses := c.Name
		if len(c.Uses) > 0 {
			uses = strings.Join(c.Uses, ", ")
		}
		l.Rows = append(l.Rows, []string{result.SuitePGMPI, c.Name, c.Class(), cmp.Or(c.Guideline, "-"), uses})
	}
	return l
}

// The two steps that run under MPI.
var (
	nrepCommand = mpijob.Command[nrepPlan]{Name: Name + " nrep", Usage: help(), Parse: parseNrep,
		Run: runNrep}
	measureCommand = mpijob.Command[measurePlan]{Name: Name + " measure", Usage: help(), Parse: parseMeasure,
		Run: runMeasure, OutFlag: "-o"} // a directory: measure has no -json (docs/faults.md, "Hangs, interrupts and crashes")
)

// dispatch runs the step that args name.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		_, _ = fmt.Fprint(stderr, help())
		return 2
	}
	switch args[0] {
	case "nrep":
		return mpijob.Run(nrepCommand, args[1:], stdout, stderr)
	case "measure":
		return mpijob.Run(measureCommand, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		if _, err := io.WriteString(stdout, help()); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n", Name, err)
			return 1
		}
		return 0
	}
	_, _ = fmt.Fprintf(stderr, "mpibench %s: unknown step %q (want nrep or measure; check is 'mpibench guidelines check')\n", Name, args[0])
	return 2
}

const usage = `Usage:
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
                     (default ` + defaultSizes + `)
  -method LIST       rse, cov_mean, cov_median; all must pass (default rse)
  -thresholds LIST   e.g. rse=0.025,cov_mean=0.01,cov_median=0.01 (the defaults)
  -window LIST       e.g. cov_mean=20,cov_median=20 (the defaults)
  -min N -max N -step N   repetitions: first check, cap, between checks
                     (20, 1000, 10); -max, -step and windows at most 10000000
  -json FILE         the predictions, JSON (default nrep.json)
  -o FILE            the same flag, its older name

measure flags:
  -nrep FILE         repetitions per call and size from 'guidelines nrep'
  -calls LIST -sizes LIST -reps N   without -nrep (default all, ` + defaultSizes + `, 100);
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

// defaultSizes are the default volumes, within the paper's 1 B..100 KiB.
const defaultSizes = "16,256,4096,65536"

// help is the help of mpibench guidelines, with the names of the calls.
func help() string {
	var names []string
	for _, c := range Calls {
		names = append(names, c.Name)
	}
	return usage + strings.Join(names, ", ") + "\n"
}
