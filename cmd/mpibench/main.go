// Command mpibench is an MPI benchmark suite: IMB-MPI1, IMB-EXT, IMB-IO,
// b_eff, b_eff_io, SKaMPI and PGMPI's performance guideline checks, with
// reports and merged runs made from their records.
//
//	mpirun -np P mpibench mpi1|ext|io [Benchmark ...] [-npmin N] [-multi 0|1]
//	        [-input FILE] [-msglen FILE] [-map PxQ] [-check] [-json FILE] [-h]
//	mpirun -np P mpibench beff [-mem MB] [-patterns cartesian|rings] [-json FILE]
//	mpirun -np P mpibench beffio [-mem MB] [-T seconds] [-iodir DIR] [-json FILE]
//	mpibench list
//	mpibench -h
//
// Exit codes, the same on every rank: 0 success; 1 a run-time failure
// (MPI error, results file not writable mid-run); 2 bad command line or
// input file, reported before any measurement; 3 -check found defects;
// 4 the watchdog ended a hung case; 130, 143, 129 interrupted by SIGINT, SIGTERM, SIGHUP. An MPI error
// inside a measurement ends the whole job through MPI_Abort with code 1.
package main

import (
	"cmp"
	"fmt"
	"io"
	"mpibench/mpijob"
	"os"
	"runtime"
	"strings"

	"mpibench/imb"
	"mpibench/pgmpi"
	"mpibench/skampi"
)

func init() {
	// MPI is initialised and called from the main goroutine only; locking
	// it to the main OS thread makes MPI_THREAD_FUNNELED true.
	runtime.LockOSThread()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		_, _ = fmt.Fprint(stderr, usage)
		return 2
	}
	switch cmd := args[0]; cmd {
	case "-h", "-help", "--help", "help":
		return printOut(stdout, stderr, usage)
	case "version", "-version", "--version":
		return printOut(stdout, stderr, "mpibench "+mpijob.Version+"\n")
	case "list":
		var b strings.Builder
		list(&b)
		return printOut(stdout, stderr, b.String())
	case "mpi1", "ext", "io":
		return runIMB(imb.SuiteByName(cmd), args[1:], stdout, stderr)
	case "beff":
		return runBeff(args[1:], stdout, stderr)
	case "beffio":
		return runBeffIO(args[1:], stdout, stderr)
	case "skampi":
		return runSkampi(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], stdout, stderr)
	case "merge":
		return runMerge(args[1:], stdout, stderr)
	case "guidelines":
		return runGuidelines(args[1:], stdout, stderr)
	case "launch":
		return runLaunch(args[1:], stdout, stderr)
	default:
		_, _ = fmt.Fprintf(stderr, "mpibench: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

const usage = `mpibench: MPI benchmarks (IMB 3.0 methodology), run under mpirun or srun.

Usage:
  mpirun -np P mpibench mpi1 [Benchmark ...] [flags]   run IMB-MPI1 benchmarks
  mpirun -np P mpibench ext  [Benchmark ...] [flags]   run IMB-EXT (one-sided) benchmarks
  mpirun -np P mpibench io   [Benchmark ...] [flags]   run IMB-IO (MPI-IO) benchmarks
  mpirun -np P mpibench beff [flags]                   run b_eff, the effective bandwidth
  mpirun -np P mpibench beffio [flags]                 run b_eff_io, the effective I/O bandwidth
  mpirun -np P mpibench skampi [-config FILE] [flags]  run SKaMPI measurements (adaptive, crash-tolerant)
  mpibench report results.jsonl ... [-o report.html]   plots of any records as HTML (or -format png|pdf)
  mpibench merge run1.jsonl run2.jsonl ... [-o FILE]   median of each measurement over several runs
  mpirun -np P mpibench guidelines nrep|measure [flags] PGMPI: repetitions, then one launch's samples
  mpibench launch -R N -- mpirun ... guidelines measure run a command N times (fresh mpirun each)
  mpibench guidelines check DIR ...                    PGMPI: verify the performance guidelines
  mpibench list                                        list benchmarks, classes and MPI calls
  mpibench version                                     print the version
  mpibench -h                                          this help

Run 'mpibench mpi1 -h' (ext -h, io -h) for the flags of a suite.
`

// imbUsage is the help of one IMB suite.
func imbUsage(s *imb.Suite) string {
	title := map[string]string{"mpi1": "IMB-MPI1", "ext": "IMB-EXT (MPI-2 one-sided)", "io": "IMB-IO (MPI-IO)"}[s.Name]
	u := fmt.Sprintf(`Usage: mpirun -np P mpibench %s [Benchmark ...] [flags]

Runs the %s 3.0 benchmarks (all of them when none is named; names are
case-insensitive). Flags and names may come in any order.

  -npmin N      run on N, 2N, 4N, ... (largest 2^x*N < P), P processes (default %d)
  -multi 0|1    Multi- versions: disjoint groups run simultaneously;
                0 reports the worst group, 1 reports every group
  -input FILE   benchmark names, one per line; lines starting with # are comments
  -msglen FILE  lengths in bytes, one per line (replaces 0,1,2,...,%d)
  -map PxQ      number the P*Q processes along the rows of a P x Q matrix
  -check        results checking: verify every received buffer, add a defects
                column; timings are then not valid benchmark data
  -json FILE    write every table row as a JSON Lines record to FILE
  -time S|off   at most about S seconds per sample (IMB 2021's -time): a
                sample whose IMB 3.0 repetition count would take longer runs
                fewer repetitions, estimated before it (default %g; off:
                IMB 3.0's counts, unbounded)
`, s.Name, title, s.NPMin, s.Settings.MaxMsg(), imb.DefaultTimeLimit[s.Name])
	if s == imb.IOSuite {
		u += "  -iodir DIR    directory of the benchmark files (default: the current one);\n" +
			"                every file is removed after its benchmark\n" +
			"  -disk SIZE    most bytes of files at once, e.g. 500M, 2G (K, M, G, T, P:\n" +
			"                powers of 1024; default: min(16G, half the free space));\n" +
			"                a run that may need more, or more than the file system\n" +
			"                has free, is refused before anything is written (exit 2)\n"
	}
	return u + `  -h            this help

Exit codes: 0 ok, 1 run-time failure, 2 bad input, 3 -check found defects,
4 a case hung (watchdog), 130/143 interrupted by SIGINT/SIGTERM.
`
}

func list(w *strings.Builder) {
	fmt.Fprintf(w, "%-10s %-16s %-18s %-10s %s\n", "suite", "benchmark", "class", "datatype", "based on")
	for _, b := range benchmarks() {
		fmt.Fprintf(w, "%-10s %-16s %-18s %-10s %s\n", b.suite, b.name, b.class, b.datatype, b.calls)
	}
	fmt.Fprintln(w, "\nEvery benchmark of mpi1, ext and io also has a Multi- version (-multi 0|1): disjoint groups run it at once.")
	fmt.Fprintf(w, "\n%-10s %-16s %-18s %s\n", "suite", "operation", "pattern", "based on")
	for _, op := range skampi.Operations() {
		fmt.Fprintf(w, "%-10s %-16s %-18s %s\n", "skampi", op.Name, op.Pattern, op.Calls)
	}
	fmt.Fprintf(w, "\n%-10s %-44s %-9s %-10s %s\n", "suite", "call", "class", "guideline", "based on")
	for _, c := range pgmpi.Calls {
		uses := c.Name
		if len(c.Uses) > 0 {
			uses = strings.Join(c.Uses, ", ")
		}
		fmt.Fprintf(w, "%-10s %-44s %-9s %-10s %s\n", "pgmpi", c.Name, c.Class(), cmp.Or(c.Guideline, "-"), uses)
	}
}
