//go:build imbonly

package main

import (
	"fmt"
	"strings"

	"mpibench/run/mpijob"
)

// otherSuites: the family binary registers the IMB family alone
// (README.md, "Memory"); mpibench runs the other commands.
func otherSuites() []mpijob.Suite { return nil }

// unknownCommand is the error for a command line that starts with no
// command of this binary: another suite's is mpibench's to run.
func unknownCommand(name string) string {
	var names []string
	for _, c := range imbFamily() {
		names = append(names, c.Name)
	}
	return fmt.Sprintf("%s: %q is not a command of the IMB family's binary, which runs %s; "+
		"run 'mpibench %s' for the other suites", mpijob.Program, name, strings.Join(names, ", "), name)
}
