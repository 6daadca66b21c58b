// Package cli is the one way mpibench reads command lines: the standard
// flag package, one usage-error type (exit code 2), a parser for commands
// whose positional arguments and flags come in any order (IMB's benchmark
// names, report's files), the results-file flag every suite shares, and
// flag values shared by several suites (counts, process-count lists, size
// lists, seconds).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// UsageError is a bad command line or input file: the run stops before
// any measurement, with exit code 2 on every rank.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// IsUsage tells whether err is (or wraps) a UsageError.
func IsUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

// NewFlags is a flag set that returns its errors and prints nothing: the
// commands print their own usage.
func NewFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// Parse reads args with the flags of fs, adding -h and -help, which set
// *help. A command that takes flags only, named name in the message,
// rejects any other argument. Every error is a UsageError.
func Parse(fs *flag.FlagSet, args []string, help *bool, name string) error {
	rest, err := ParseMixed(fs, args, help)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return Usagef("unexpected argument %q (%s takes flags only, see -h)", rest[0], name)
	}
	return nil
}

// ParseMixed reads args with the flags of fs, adding -h and -help (which
// set *help), where flags and positional arguments may come in any order,
// as IMB takes its benchmark names: the flag package stops at the first
// positional argument, which is kept, and parsing goes on after it. A
// "--" is passed over. It returns the positional arguments in order.
// Every error is a UsageError naming the flag as it was typed.
func ParseMixed(fs *flag.FlagSet, args []string, help *bool) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Var(Switch{On: help}, "h", "")
	fs.Var(Switch{On: help}, "help", "")
	rest := []string{}
	for {
		if err := fs.Parse(args); err != nil {
			return rest, parseError(err, args, fs.Args())
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// parseError is a UsageError for the flag package's err. An undefined
// flag is named as typed ("--bogus=1" rather than "-bogus"): the flag
// package has consumed it, so it is the argument just before left.
func parseError(err error, args, left []string) error {
	if strings.HasPrefix(err.Error(), "flag provided but not defined") {
		if i := len(args) - len(left) - 1; i >= 0 && i < len(args) {
			return Usagef("unknown flag %s (see -h)", args[i])
		}
	}
	return Usagef("%v (see -h)", err)
}

// ResultsFlag is the results-file flag of every suite: the JSON Lines
// records (the journal of the run, which -resume continues).
const ResultsFlag = "-json"

// ResultsAlias is ResultsFlag's other spelling, kept from SKaMPI's and
// PGMPI's commands, which named it -o; every suite accepts both.
const ResultsAlias = "-o"

// Results defines the results-file flag and its alias on fs, both
// setting *dst.
func Results(fs *flag.FlagSet, dst *string) {
	fs.StringVar(dst, ResultsFlag[1:], *dst, "")
	fs.StringVar(dst, ResultsAlias[1:], *dst, "")
}
