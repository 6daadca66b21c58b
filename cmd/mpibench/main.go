// Command mpibench is an MPI benchmark suite: IMB-MPI1, IMB-EXT, IMB-IO,
// b_eff, b_eff_io, SKaMPI and PGMPI's performance guideline checks, with
// reports and merged runs made from their records. It dispatches: every
// command is one entry of the registry (registry.go), most of them living
// in their suite's package.
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
	"fmt"
	"io"
	"os"
	"runtime"
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
