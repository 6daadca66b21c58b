package mpijob

import "io"

// Suite is one command of mpibench as its registry knows it: the table
// that cmd/mpibench dispatches, that `mpibench -h` and `mpibench list`
// print, and that the README's usage is checked against.
type Suite struct {
	Name     string // the command word: "mpi1", "skampi"
	Synopsis string // its line in `mpibench -h`, after "mpibench "
	Summary  string // what it does, one line
	MPI      bool   // runs under mpirun (MPI_Init); false: report, merge, ...
	// Main runs the command with the arguments after its name and returns
	// the exit code.
	Main func(args []string, stdout, stderr io.Writer) int
}

// Suite is c as a registry entry; synopsis and summary as in Suite.
func (c Command[C]) Suite(synopsis, summary string) Suite {
	return Suite{Name: c.Name, Synopsis: synopsis, Summary: summary, MPI: true,
		Main: func(args []string, stdout, stderr io.Writer) int { return Run(c, args, stdout, stderr) }}
}
