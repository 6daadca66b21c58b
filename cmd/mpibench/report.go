package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"mpibench/internal/cli"
	"mpibench/internal/safefile"
	"mpibench/mpijob"
	"mpibench/report"
	"mpibench/result"
)

// reportCommand is mpibench report as the registry knows it: no MPI.
var reportCommand = mpijob.Suite{Name: "report", Synopsis: "report results.jsonl ... [-o report.html]",
	Summary: "plots of any records as HTML (or -format png|pdf)", Main: runReport}

const reportUsage = `Usage: mpibench report results.jsonl [more.jsonl ...] [-o FILE] [-format html|png|pdf]

Renders mpibench records of any suite (mpi1, ext, io, beff, beffio, skampi)
as plots, one per measurement, every input file overlaid as its own series
(labelled with the file name, host and MPI library), and the SKaMPI
comparisons. A measurement a file holds more than once (runs appended to
it) is drawn as the median with the range shaded. The HTML page draws at
most 200 plots (16 MB), 16 series a plot and 300 points a series, and says
what it left out. No MPI is needed. Flags and files may come in any order.

  -o FILE        output (default report.html, report.pdf); with -format png a
                 directory (default report-png), created if missing, that gets
                 one PNG per plot
  -format F      html: one self-contained page with inline SVG plots (default,
                 or pdf when FILE ends in .pdf); png: one file per plot;
                 pdf: one page per plot, for papers
  -h             this help

Exit codes: 0 ok, 2 bad input (missing or empty file, bad flag, output not
writable).
`

// runReport is mpibench report. It never initialises MPI.
func runReport(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlags("report")
	out := fs.String("o", "", "")
	format := fs.String("format", "", "")
	files, code := reportParse(fs, args, reportUsage, stdout, stderr)
	if files == nil {
		return code
	}
	f := *format
	if f == "" {
		f = "html"
		if strings.EqualFold(filepath.Ext(*out), ".pdf") {
			f = "pdf"
		}
	}
	defaults := map[string]string{"html": "report.html", "png": "report-png", "pdf": "report.pdf"}
	if defaults[f] == "" {
		_, _ = fmt.Fprintf(stderr, "mpibench report: -format %q: want html, png or pdf\n", f)
		return 2
	}
	if *out == "" {
		*out = defaults[f]
	}
	if err := safefile.Clash(*out, files...); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench report: -o: %v\n", err)
		return 2
	}
	c := report.NewCollector()
	for _, name := range files {
		c.Input(name)
		add := func(r *result.Record) error { c.Add(r); return nil }
		if err := scanFile("report", name, add, stderr); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench report: %v\n", err)
			return 2
		}
	}
	if err := reportWrite(f, *out, c, stdout); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench report: %v\n", err)
		return 2
	}
	return 0
}

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
		_, _ = fmt.Fprintf(stderr, "mpibench %s: warning: %s\n", cmd, report.Clean(w.String()))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: no records", name)
	}
	return nil
}

// reportWrite renders into memory first, so that a failure leaves no
// half-written report behind.
func reportWrite(format, out string, c *report.Collector, stdout io.Writer) error {
	switch format {
	case "png":
		// WritePNG makes the directory, and refuses one that is a link.
		paths, err := report.WritePNG(out, c.Plots())
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "wrote %d plots to %s\n", len(paths), out)
		return err
	case "pdf":
		var b bytes.Buffer
		if err := report.WritePDF(&b, c.Plots()); err != nil {
			return err
		}
		return safefile.WriteFile(out, b.Bytes())
	}
	var b bytes.Buffer
	if err := c.HTML(&b); err != nil {
		return err
	}
	return safefile.WriteFile(out, b.Bytes())
}
