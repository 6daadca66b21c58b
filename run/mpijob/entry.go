package mpijob

import "io"

// Entry is one command of mpibench as its registry knows it: the table
// that cmd/mpibench dispatches, that `mpibench -h` and `mpibench list`
// print, and that the README's usage is checked against.
type Entry struct {
	// Name is the command word, "mpi1", "skampi"; two words for a step
	// that is a command of its own ("guidelines check"): the longest name
	// that starts the command line is the one run.
	Name     string
	Synopsis string // its line in `mpibench -h`, after "mpibench ": "mpi1 [Benchmark ...] [flags]"
	Summary  string // what it does, one line
	MPI      bool   // runs under mpirun (MPI_Init); false: report, merge, ...
	// Main runs the command with the arguments after its name and returns
	// the exit code.
	Main func(args []string, stdout, stderr io.Writer) int
	// List is the command's rows of `mpibench list` (its benchmarks);
	// nil for a command that measures nothing.
	List func() Listing
	// Check is Command.Check of a command that runs under MPI: the
	// message of a bad command line for size processes, read in process.
	Check func(args []string, size int) error
}

// Listing is a suite's table in `mpibench list`. Suites with the same
// header share one table, and its note is printed once under it.
type Listing struct {
	Header []string   // column names, the first "suite"
	Rows   [][]string // one per benchmark, as many cells as Header
	Note   string     // a line under the table; "" for none
}

// Entry is c as a registry entry; synopsis and summary as in Entry.
func (c Command[C]) Entry(synopsis, summary string) Entry {
	return Entry{Name: c.Name, Synopsis: synopsis, Summary: summary, MPI: true,
		Main:  func(args []string, stdout, stderr io.Writer) int { return Run(c, args, stdout, stderr) },
		Check: c.Check}
}
