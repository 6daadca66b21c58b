package main

import (
	"bytes"
	"fmt"
	"io"

	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/safefile"
	"mpibench/run/mpijob"
)

// mergeCommand is mpibench merge as the registry knows it: no MPI.
var mergeCommand = mpijob.Entry{Name: "merge", Synopsis: "merge run1.jsonl run2.jsonl ... [-o FILE]",
	Summary: "median of each measurement over several runs", Main: runMerge}

const mergeUsage = `Usage: mpibench merge run1.jsonl run2.jsonl ... [-o FILE]

Merges the records of several runs of the same benchmarks into one record
per measurement holding the median of every measured figure (times,
throughput, b, I/O bandwidth, each SKaMPI statistic), as SKaMPI's
postprocessor does (section 3.3: the median filters the outliers of single
runs). Records are matched by suite, benchmark, class, mode, process count
and layout, message length, varied parameter and its value, and b_eff
repetition; the first run's context is kept and "merged" counts the runs.
A measurement missing from some runs keeps the median of those that have
it; their number is reported on stderr. No MPI is needed. Flags and files
may come in any order.

  -o FILE   output JSON Lines file (default: standard output)
  -h        this help

Exit codes: 0 ok, 2 bad input (missing or empty file, bad flag, output not
writable).
`

// runMerge is mpibench merge. It never initialises MPI.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlags("merge")
	out := fs.String("o", "", "")
	files, code := reportParse(fs, args, mergeUsage, stdout, stderr)
	if files == nil {
		return code
	}
	if err := safefile.Clash(*out, files...); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench merge: -o: %v\n", err)
		return 2
	}
	m := result.NewMerger()
	for i, name := range files {
		add := func(r *result.Record) error { m.Add(i, r); return nil }
		if err := scanFile("merge", name, add, stderr); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench merge: %v\n", err)
			return 2
		}
	}
	res := m.Result(len(files))
	if err := mergeWrite(*out, res.Records, stdout); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench merge: %v\n", err)
		return 2
	}
	_, _ = fmt.Fprintf(stderr, "mpibench merge: %d runs, %d measurements", res.Runs, len(res.Records))
	if res.Partial > 0 {
		_, _ = fmt.Fprintf(stderr, "; %d missing from some runs, kept with the median of the runs that have them", res.Partial)
	}
	_, _ = fmt.Fprintln(stderr)
	return 0
}

// mergeWrite writes the records to the file, or to stdout without one.
func mergeWrite(out string, recs []result.Record, stdout io.Writer) error {
	var b bytes.Buffer
	w := result.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			return err
		}
	}
	if out == "" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	return safefile.WriteFile(out, b.Bytes())
}
