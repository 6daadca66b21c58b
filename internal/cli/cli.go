// Package cli holds what the flag parsers of beff and beffio share.
package cli

import (
	"flag"
	"fmt"
	"io"
	"strconv"
)

// UsageError is a bad command line: exit code 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef makes a UsageError.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Parse reads args with the flags of fs, adding -h and -help, which set
// *help. A command that takes flags only, named name in the message,
// rejects any other argument. Every error is a UsageError.
func Parse(fs *flag.FlagSet, args []string, help *bool, name string) error {
	fs.SetOutput(io.Discard)
	fs.BoolVar(help, "h", false, "")
	fs.BoolVar(help, "help", false, "")
	if err := fs.Parse(args); err != nil {
		return Usagef("%v (see -h)", err)
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected argument %q (%s takes flags only, see -h)", fs.Arg(0), name)
	}
	return nil
}

// Count is a flag.Func that sets *dst to a whole number of at least 1;
// what names the unit in the error.
func Count(dst *int, what string) func(string) error {
	return func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("want a whole number of %s, at least 1", what)
		}
		*dst = n
		return nil
	}
}
