package main

import (
	"fmt"

	"mpibench/run/mpijob"
	"mpibench/suites/beff"
	"mpibench/suites/beffio"
	"mpibench/suites/links"
	"mpibench/suites/osu"
	"mpibench/suites/pgmpi"
	"mpibench/suites/skampi"
	"mpibench/suites/tune"
)

// otherSuites are the commands outside the IMB family, in the order of
// `mpibench -h`.
func otherSuites() []mpijob.Entry {
	return []mpijob.Entry{
		beff.Command,
		beffio.Command,
		skampi.Command,
		links.Command,
		reportCommand,
		mergeCommand,
		compareCommand,
		pgmpi.Command,
		osu.Command,
		launchCommand,
		guidelinesCheckCommand,
		tune.Command,
	}
}

// reportCommand is mpibench report as the registry knows it: no MPI.
var reportCommand = mpijob.Entry{Name: "report", Synopsis: "report results.jsonl ... [-o report.html]",
	Summary: "plots of any records as HTML (or -format png|pdf)", Main: runReport}

// guidelinesCheckCommand is PGMPI's check, which needs no MPI: an entry of
// its own, found before "guidelines" (pgmpi.Command leaves check out).
var guidelinesCheckCommand = mpijob.Entry{Name: "guidelines check", Synopsis: "guidelines check DIR ...",
	Summary: "PGMPI: verify the performance guidelines", Main: runGuidelinesCheck}

// unknownCommand is the error for a command line that starts with no
// command.
func unknownCommand(name string) string {
	return fmt.Sprintf("mpibench: unknown command %q", name)
}
