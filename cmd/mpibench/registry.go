package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"mpibench/run/mpijob"
	"mpibench/suites/imb"
	"mpibench/suites/mt"
	"mpibench/suites/p2p"
)

// commands is the registry: every command of mpibench, in the order of
// `mpibench -h`. A suite adds itself with one line here or, outside the
// IMB family, in otherSuites (registry_full.go). run dispatches on it,
// `mpibench -h` and `mpibench list` print it, and TestREADMEUsage checks
// README.md's usage against it.
func commands() []mpijob.Entry {
	return append(append(imbFamily(), otherSuites()...),
		mpijob.Entry{Name: "list", Synopsis: "list", Summary: "list benchmarks, classes and MPI calls", Main: runList},
		mpijob.Entry{Name: "version", Synopsis: "version", Summary: "print the version", Main: runVersion},
		mpijob.Entry{Name: "-h", Synopsis: "-h", Summary: "this help", Main: runHelp})
}

// imbFamily are the IMB family's commands (Intel's IMB-MPI1, -EXT, -IO,
// -P2P, -NBC, -MPI4, -RMA, -MT), in the order of `mpibench -h`.
func imbFamily() []mpijob.Entry {
	return []mpijob.Entry{
		imb.MPI1Suite.Command(),
		imb.EXTSuite.Command(),
		imb.IOSuite.Command(),
		p2p.Command,
		imb.NBCSuite.Command(),
		imb.MPI4Command(),
		imb.RMASuite.Command(),
		mt.Command,
	}
}

// aliases are other spellings of the built-in commands.
var aliases = map[string]string{"help": "-h", "-help": "-h", "--help": "-h", "-version": "version",
	"--version": "version"}

// lookup finds the command args start with: the entry with the longest
// name whose words begin args ("guidelines check" before "guidelines").
// It returns the entry and the number of words its name took.
func lookup(args []string) (*mpijob.Entry, int) {
	if a, ok := aliases[args[0]]; ok {
		args = append([]string{a}, args[1:]...)
	}
	var best *mpijob.Entry
	n := 0
	for _, c := range commands() {
		words := strings.Fields(c.Name)
		if len(words) > n && len(words) <= len(args) && slices.Equal(words, args[:len(words)]) {
			best, n = &c, len(words)
		}
	}
	return best, n
}

// usage is the help of mpibench, made from the registry.
func usage() string {
	var b strings.Builder
	b.WriteString(mpijob.Program + ": MPI benchmarks (IMB 3.0 methodology), run under mpirun or srun.\n\nUsage:\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, c := range commands() {
		launcher := ""
		if c.MPI {
			launcher = "mpirun -np P "
		}
		_, _ = fmt.Fprintf(tw, "  %s%s %s\t%s\n", launcher, mpijob.Program, c.Synopsis, c.Summary)
	}
	_ = tw.Flush() // into memory: cannot fail
	fmt.Fprintf(&b, "\nRun '%s COMMAND -h' for the flags of a command.\n", mpijob.Program)
	b.WriteString("Run as IMB-MPI1, IMB-EXT, IMB-IO, IMB-NBC, IMB-RMA, IMB-MPI4, IMB-P2P, IMB-MT or an osu_* name\n" +
		"(a link: make links; or the first argument) to be that program of IMB 2021.11 or OSU 7.4.\n")
	return b.String()
}

func runHelp(_ []string, stdout, stderr io.Writer) int {
	return printOut(stdout, stderr, usage())
}

func runVersion(_ []string, stdout, stderr io.Writer) int {
	return printOut(stdout, stderr, mpijob.Program+" "+mpijob.Version+"\n")
}

// runList prints the benchmarks of every suite: one table for the suites
// whose listings have the same columns, each note once under it.
func runList(_ []string, stdout, stderr io.Writer) int {
	var b strings.Builder
	var order []string
	tables := map[string][]mpijob.Listing{}
	for _, c := range commands() {
		if c.List == nil {
			continue
		}
		l := c.List()
		key := strings.Join(l.Header, "\x00")
		if tables[key] == nil {
			order = append(order, key)
		}
		tables[key] = append(tables[key], l)
	}
	for i, key := range order {
		if i > 0 {
			b.WriteString("\n")
		}
		printListings(&b, tables[key])
	}
	return printOut(stdout, stderr, b.String())
}

// printListings prints listings of the same header as one table.
func printListings(w *strings.Builder, ls []mpijob.Listing) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	_, _ = fmt.Fprintln(tw, strings.Join(ls[0].Header, "\t")) // into memory
	var notes []string
	for _, l := range ls {
		for _, r := range l.Rows {
			_, _ = fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		if l.Note != "" && !slices.Contains(notes, l.Note) {
			notes = append(notes, l.Note)
		}
	}
	_ = tw.Flush() // into memory: cannot fail
	for _, n := range notes {
		fmt.Fprintf(w, "\n%s\n", n)
	}
}
