package cli

import (
	"errors"
	"flag"
	"strings"
)

// Extract reads with fs the flags of fs among args, wherever they come,
// and returns every other argument in order: positional arguments and
// the flags of another parser with their values, which that parser reads
// next (mpibench's common flags, -timeout or -resume, come anywhere among
// a suite's). The flag package reads every flag; this goes on after each
// argument it does not know. A "--" ends the flags of fs, as the flag
// package has it: it and all after it are returned as they are. An error
// is the flag package's, about a flag of fs.
func Extract(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for len(args) > 0 {
		err := fs.Parse(args)
		left := fs.Args()
		used := len(args) - len(left) // what the flag package took
		switch {
		case err == nil && used > 0 && args[used-1] == "--":
			return append(append(rest, "--"), left...), nil
		case err == nil && len(left) == 0:
			return rest, nil
		case err == nil, isSyntax(err):
			// A positional argument, or one such as "---x" or "-=x" that
			// the flag package left where it was.
			rest, left = append(rest, left[0]), left[1:]
		case isUndefined(err):
			rest = append(rest, args[used-1]) // taken by the flag package
		default:
			return rest, err
		}
		args = left
	}
	return rest, nil
}

// isSyntax tells whether the flag package found an argument that starts
// with "-" but names no flag.
func isSyntax(err error) bool { return strings.HasPrefix(err.Error(), "bad flag syntax") }

// isUndefined tells whether the flag package met a flag that its set
// does not define (-h and -help too, which it reports as flag.ErrHelp).
func isUndefined(err error) bool {
	return errors.Is(err, flag.ErrHelp) || strings.HasPrefix(err.Error(), "flag provided but not defined")
}
