package mpijob

import (
	"fmt"

	"mpibench/run/cases"
)

// Check reads a command line for size processes as rank 0 does before
// the job agrees on it, without MPI and without opening the results
// file, and returns the message every rank would exit with 2 on, as
// Run prints it; nil for a line the job would run (or a -h it would
// answer). The suites' tests of bad command lines run it in process.
func (c Command[C]) Check(args []string, size int) error {
	if HasHelp(args) {
		return nil
	}
	err := c.check(args, size)
	if err != nil {
		return fmt.Errorf("mpibench %s: %w", c.Name, err)
	}
	return nil
}

// check is Run's reading of the command line up to the results file:
// threadLevel before MPI_Init, then agreeRoot's steps.
func (c Command[C]) check(args []string, size int) error {
	if _, err := threadLevel(args); err != nil {
		return err
	}
	common, rest, err := splitCommon(args)
	if err != nil {
		return err
	}
	_, path, err := c.Parse(rest, size, common.resume)
	if err != nil {
		return err
	}
	if _, err := cases.EnvFault(); err != nil {
		return err
	}
	if path != "" {
		return noClash(path, rest)
	}
	return nil
}
