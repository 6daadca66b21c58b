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

// scanFile hands every record of a file to add, without keeping the
// records. A missing file, one without records, or one with a line that
// is not an mpibench record (JSON of another program, a cut line) is an
// error, the first such line named as file:line with what was wrong and
// every other printed on stderr: a report, median or comparison made of
// what was left would silently say less or something else (issue 26).
// The callers write nothing before every input is read.
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
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(warns) > 0 {
		for _, w := range warns[1:] {
			_, _ = fmt.Fprintf(stderr, "mpibench %s: also: %s\n", cmd, textout.Clean(w.String()))
		}
		return fmt.Errorf("%s (%d unreadable lines in all); mpibench reads only files of its records, whole "+
			"(-resume repairs the file of a run that was cut off)", textout.Clean(warns[0].String()), len(warns))
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", name)
	}
	return nil
}
