package tune

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"mpibench/analysis/compare"
	"mpibench/internal/cli"
	"mpibench/mpi"
	"mpibench/run/memcheck"
	"mpibench/run/mpijob"
)

// Command is mpibench tune as the registry knows it: the driving process
// runs no MPI job; it launches them.
var Command = mpijob.Entry{Name: "tune", Synopsis: "tune [flags] -- mpirun -np {np} ...",
	Summary: "measure every collective algorithm, write the library's tuning file, prove the gain", Main: Main}

const usage = `Usage: mpibench tune [flags] -- LAUNCHER [ARG ...]

Measures every algorithm the MPI library offers for each collective, over
a grid of process counts and message lengths; writes the library's own
tuning file from the differences that are significant; then reruns the
tuned collectives with the file against the library's defaults, in
interleaved launches, and reports the change per point.

LAUNCHER starts one job; {np} in its arguments is replaced by the process
count, and the mpibench binary with its mpi1 arguments is appended:
  mpibench tune -- mpirun -np {np}
  mpibench tune -np 64,128 -- srun -n {np}
Every launch is 'mpi1 -imb 2021 -npmin NP -msglen FILE COLL' (IMB-MPI1
2021's kernels and t_max), one launch per algorithm, so that an algorithm
that fails or crashes ends its own launch only: it is recorded as failed
at the lengths it did not finish and not launched again.

The algorithms come from the library: Open MPI's coll/tuned through
ompi_info --param coll tuned --level 9, MPICH's through its MPI_T control
variables MPIR_CVAR_<COLL>_INTRA_ALGORITHM.

Flags:
  -colls LIST     collectives (default all): Allreduce, Bcast, Reduce,
                  Allgather, Allgatherv, Alltoall, Alltoallv, Gather,
                  Scatter, Reduce_scatter, Reduce_scatter_block, Barrier
  -np LIST        process counts (default 2, 4, ... up to this node's cores)
  -sizes LIST     message lengths in bytes (default
                  4,64,1024,16384,262144,1048576)
  -algs SPEC      only these algorithms, numbers or names:
                  "Bcast=1,5;Allreduce=ring" (default every one)
  -launches N     launches per algorithm and per side of the proof
                  (default 4, the fewest with which the rank-sum test can
                  decide at alpha 0.05)
  -alpha A        significance level (default 0.05)
  -iter N         IMB's -iter (repetitions per sample; default IMB's)
  -time S         IMB's -time (default IMB's)
  -ppn N          processes per node, for the memory check (default: the
                  process count, at most this node's cores)
  -guidelines DIR results of 'guidelines measure': for each violation of
                  a guideline by a tuned collective, says which algorithm
                  of the library removes it
  -ompi-info PATH Open MPI's ompi_info (default: ompi_info on PATH)
  -o DIR          output folder, created; it must not exist (default tune)

Writes to DIR: raw/ (every launch's records and output), choices.jsonl (the
verdict per point), the tuning file (Open MPI: ompi-rules.conf for
coll_tuned_dynamic_rules_filename; MPICH: mpich-coll.json for
MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), proof.jsonl and tune.html.

Exit codes: 0 done, 1 a launch or the proof failed, 2 bad input, 130/143
interrupted (finished launches are kept).
`

// options is a parsed command line.
type options struct {
	plan       Plan
	algs       string
	guidelines string
	violations []Violation // found in -guidelines before anything runs
	ompiInfo   string
	out        string
	launcher   []string
}

// Main runs mpibench tune.
func Main(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args)
	if errors.Is(err, flag.ErrHelp) {
		_, _ = io.WriteString(stdout, usage)
		return 0
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench tune: %v\n", err)
		return 2
	}
	lib, err := library(o)
	if err == nil {
		err = prepare(o, lib)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench tune: %v\n", err)
		return 2
	}
	return run(o, lib, stdout, stderr)
}

// parse reads the command line.
func parse(args []string) (*options, error) {
	fs := cli.NewFlags("tune")
	o := &options{plan: Plan{Sizes: DefaultSizes, NPs: DefaultNPs(cores())}}
	colls := fs.String("colls", "", "")
	fs.Func("np", "", cli.Procs(&o.plan.NPs))
	fs.Func("sizes", "", cli.Sizes(&o.plan.Sizes, 1<<31-1))
	fs.StringVar(&o.algs, "algs", "", "")
	fs.IntVar(&o.plan.Launches, "launches", 4, "")
	fs.Float64Var(&o.plan.Alpha, "alpha", compare.DefaultAlpha, "")
	fs.StringVar(&o.plan.Iter, "iter", "", "")
	fs.StringVar(&o.plan.Time, "time", "", "")
	fs.IntVar(&o.plan.PPN, "ppn", 0, "")
	fs.StringVar(&o.guidelines, "guidelines", "", "")
	fs.StringVar(&o.ompiInfo, "ompi-info", "", "")
	fs.StringVar(&o.out, "o", "tune", "")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	o.launcher = fs.Args()
	if err := checkOptions(o, *colls); err != nil {
		return nil, err
	}
	return o, nil
}

// checkOptions checks what needs no library.
func checkOptions(o *options, colls string) error {
	if len(o.launcher) == 0 {
		return fmt.Errorf("no launcher after --: e.g. mpibench tune -- mpirun -np {np}")
	}
	if !strings.Contains(strings.Join(o.launcher, " "), "{np}") {
		return fmt.Errorf("the launcher %q does not name the process count: write {np} where it goes (mpirun -np {np}, srun -n {np})", strings.Join(o.launcher, " "))
	}
	if !(o.plan.Alpha > 0 && o.plan.Alpha < 1) {
		return fmt.Errorf("-alpha %g: want a level between 0 and 1", o.plan.Alpha)
	}
	if err := checkLaunches(o.plan.Launches, o.plan.Alpha); err != nil {
		return err
	}
	if err := checkIMBFlags(o.plan.Iter, o.plan.Time); err != nil {
		return err
	}
	if o.plan.PPN < 0 {
		return fmt.Errorf("-ppn %d: want at least 1", o.plan.PPN)
	}
	for _, n := range o.plan.NPs {
		if n < 2 {
			return fmt.Errorf("-np %d: a collective needs at least 2 processes to choose an algorithm", n)
		}
	}
	slices.Sort(o.plan.NPs)
	slices.Sort(o.plan.Sizes)
	o.plan.Sizes = slices.Compact(o.plan.Sizes)
	var err error
	o.plan.Colls, err = parseColls(colls)
	return err
}

// parseColls reads -colls.
func parseColls(list string) ([]Coll, error) {
	if list == "" {
		return Colls, nil
	}
	var cs []Coll
	for _, name := range strings.Split(list, ",") {
		c, ok := CollNamed(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("-colls: unknown collective %q (tune knows: %s)", name, collNames())
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func collNames() string {
	var s []string
	for _, c := range Colls {
		s = append(s, c.Name)
	}
	return strings.Join(s, ", ")
}

// library is the library this binary is built against.
func library(o *options) (Library, error) {
	switch mpi.Flavor {
	case "openmpi":
		return &OpenMPI{Info: o.ompiInfo}, nil
	case "mpich":
		return &MPICH{}, nil
	}
	return nil, fmt.Errorf("this mpibench is built without MPI (%s): build it against Open MPI or MPICH to tune one", mpi.Flavor)
}

// prepare discovers the algorithms and checks the plan before anything
// runs: algorithms the library lacks, memory, the output folder.
func prepare(o *options, lib Library) error {
	found, err := lib.Algorithms()
	if err != nil {
		return err
	}
	if o.plan.Algs, err = selectAlgs(found, o.algs); err != nil {
		return err
	}
	if o.guidelines != "" {
		if o.violations, err = violations(o.guidelines, o.plan); err != nil {
			return err
		}
	}
	if o.plan.PPN == 0 {
		o.plan.PPN = cores()
	}
	avail, err := memcheck.NodeAvailable()
	if err != nil {
		return err
	}
	if err := checkMemory(o.plan, avail); err != nil {
		return err
	}
	if _, err := os.Lstat(o.out); err == nil {
		return fmt.Errorf("-o %s: exists; tune writes a new folder (remove it or name another)", o.out)
	}
	return os.MkdirAll(o.out+"/raw", 0o755)
}

// checkIMBFlags checks the values tune hands to every launch's mpi1, so
// that a typo is one error now, not a failed launch per algorithm:
// -iter MSGS[,VOL[,NONAGGR]] (whole numbers of at least 1), -time S
// (seconds above 0) or off.
func checkIMBFlags(iter, time string) error {
	if iter != "" {
		parts := strings.Split(iter, ",")
		for _, f := range parts {
			if n, err := strconv.Atoi(f); err != nil || n < 1 || len(parts) > 3 {
				return fmt.Errorf("-iter %q: want MSGS[,VOL[,NONAGGR]], whole numbers of at least 1", iter)
			}
		}
	}
	if time != "" && !strings.EqualFold(time, "off") {
		if s, err := strconv.ParseFloat(time, 64); err != nil || !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("-time %q: want seconds above 0, or off", time)
		}
	}
	return nil
}
