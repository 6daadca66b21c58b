package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/textout"
)

// reportParse parses flags and file names in any order. It returns nil
// files with the exit code when the command should end here.
func reportParse(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) ([]string, int) {
	var help bool
	files, err := cli.ParseMixed(fs, args, &help)
	switch {
	case help:
		return nil, printOut(stdout, stderr, usage)
	case err != nil:
		_, _ = fmt.Fprintf(stderr, "mpibench %s: %v\n\n%s", fs.Name(), err, usage)
		return nil, 2
	case len(files) == 0:
		_, _ = fmt.Fprintf(stderr, "mpibench %s: no results file named\n\n%s", fs.Name(), usage)
		return nil, 2
	}
	return files, 0
}

// scanFile hands every record of a file to add, printing each
// unreadable line as file:line on stderr, without keeping the records. A
// missing file or one without records is an error: a report or a median
// without it would silently say less.
func scanFile(cmd, name string, add func(*result.Record) error, stderr io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	n := 0
	warns, err := result.Scan(f, name, func(r *result.Record) error {
		n++
		return add(r)
	})
	for _, w := range warns {
		_, _ = fmt.Fprintf(stderr, "mpibench %s: warning: %s\n", cmd, textout.Clean(w.String()))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", name)
	}
	return nil
}
