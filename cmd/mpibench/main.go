// Command mpibench is an MPI benchmark suite, one binary per MPI library
// (Open MPI by default, MPICH with -tags mpich): the Intel MPI Benchmarks
// (IMB 3.0's IMB-MPI1, IMB-EXT and IMB-IO, IMB 2021.11's definitions and
// its IMB-P2P, IMB-NBC, IMB-MPI4 and IMB-RMA), the OSU Micro-Benchmarks
// 7.4, b_eff, b_eff_io, SKaMPI, PGMPI's performance guidelines and links
// (mpiGraph), with report, merge and compare for the records of all of
// them. Built with -tags nompi or CGO_ENABLED=0 it has no MPI and only
// reads records.
//
// This package dispatches: every command is one entry of the registry
// (registry.go, registry_full.go), most of them living in their suite's
// package; `mpibench -h` and `mpibench list` are made from it. It also
// holds the commands that need no MPI: report, merge, compare, launch
// and guidelines check.
//
//	mpirun -np P mpibench mpi1|ext|io|p2p|nbc|mpi4|rma [Benchmark ...] [flags]
//	mpirun -np P mpibench osu BENCH [flags]
//	mpirun -np P mpibench beff|beffio|skampi|links [flags]
//	mpirun -np P mpibench guidelines nrep|measure [flags]
//	mpibench report|merge|compare FILE ... [flags]
//	mpibench launch -R N -- mpirun ...
//	mpibench guidelines check DIR ...
//	mpibench list | version | -h
//
// Exit codes, the same on every rank: 0 success; 1 a run-time failure
// (an MPI error, which ends the job through MPI_Abort; a failed or short
// MPI-IO transfer; the results file not writable); 2 bad command line or
// input file, reported before any measurement; 3 -check found defects; 4
// the watchdog ended a hung case; 130, 143, 129 interrupted by SIGINT,
// SIGTERM, SIGHUP. README.md and docs/ are the manual; docs/cli.md is every
// command's -h.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"mpibench/suites/imb"
	"mpibench/suites/osu"
	"mpibench/suites/p2p"
)

func init() {
	// MPI is initialised and called from the main goroutine only; locking
	// it to the main OS thread makes MPI_THREAD_FUNNELED true.
	runtime.LockOSThread()
}

func main() {
	os.Exit(runAs(os.Args[0], os.Args[1:], os.Stdout, os.Stderr))
}

// runAs is run under the program name argv0: an Intel or OSU program's
// name (a link to the binary, or the first argument) runs mpibench's
// command for that program (dropin.go).
func runAs(argv0 string, args []string, stdout, stderr io.Writer) int {
	args, peer, err := dropIn(argv0, args)
	if err != nil {
		_, _ = fmt.Fprintln(stderr, err)
		return 2
	}
	if peer && args[0] == "osu" {
		// OSU 7.4's parser, built without accelerators: the operands
		// after the options are ignored.
		defer func(was bool) { osu.DropIn = was }(osu.DropIn)
		osu.DropIn = true
	}
	if peer && args[0] != "osu" {
		// IMB 2021's parser: unknown arguments are ignored.
		defer func(was, wasP2P bool) { imb.DropIn, p2p.DropIn = was, wasP2P }(imb.DropIn, p2p.DropIn)
		imb.DropIn, p2p.DropIn = true, true
	}
	return run(args, stdout, stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		_, _ = fmt.Fprint(stderr, usage())
		return 2
	}
	c, n := lookup(args)
	if c == nil {
		_, _ = fmt.Fprintf(stderr, "%s\n\n%s", unknownCommand(args[0]), usage())
		return 2
	}
	return c.Main(args[n:], stdout, stderr)
}
