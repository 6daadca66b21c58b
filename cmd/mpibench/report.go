package main

// report and guidelines check: the commands that draw plots. They never
// initialise MPI, and build with or without it.

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"mpibench/analysis/guideline"
	"mpibench/analysis/report"
	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/safefile"
)

const reportUsage = `Usage: mpibench report results.jsonl [more.jsonl ...] [-o FILE] [-format html|png|pdf] [-baseline B]

Renders mpibench records of any suite (mpi1, ext, io, beff, beffio, skampi)
as plots, one per measurement, every input file overlaid as its own series
(labelled with the file name, host and MPI library), and the SKaMPI
comparisons. The HTML page sets a bandwidth plot beside the time plot where
the records carry a throughput and, with two inputs or more, a ratio plot
(each input over the baseline) and, on top, the largest differences from the
baseline with mpibench compare's significance. A measurement a file holds more than
once (runs appended to it) is drawn as the median with the range shaded.
The HTML page draws at most 200 plots (15 MB), 16 series a plot and 300
points a series, and says what it left out. No MPI is needed. Flags and
files may come in any order.

  -o FILE        output (default report.html, report.pdf); with -format png a
                 directory (default report-png), created if missing, that gets
                 one PNG per plot
  -format F      html: one self-contained page with inline SVG plots (default,
                 or pdf when FILE ends in .pdf); png: one file per plot;
                 pdf: one page per plot, for papers
  -baseline B    the input the others are compared with: oldest (default:
                 the input whose first run started first, by the records'
                 start time), first (the first input given), or an input's
                 file name; the page names it
  -h             this help

Exit codes: 0 ok, 2 bad input (missing or empty file, bad flag, output not
writable).
`

// runReport is mpibench report. It never initialises MPI.
func runReport(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlags("report")
	out := fs.String("o", "", "")
	format := fs.String("format", "", "")
	baseline := fs.String("baseline", report.BaselineOldest, "")
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
	c.SetBaseline(*baseline)
	for _, name := range files {
		c.Input(name)
		add := func(r *result.Record) error { c.Add(r); return nil }
		if err := scanFile("report", name, add, stderr); err != nil {
			_, _ = fmt.Fprintf(stderr, "mpibench report: %v\n", err)
			return 2
		}
	}
	if _, err := c.Baseline(); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench report: %v\n", err)
		return 2
	}
	if err := reportWrite(f, *out, c, stdout); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench report: %v\n", err)
		return 2
	}
	return 0
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

// runGuidelinesCheck is mpibench guidelines check, with the arguments
// after "check".
func runGuidelinesCheck(args []string, stdout, stderr io.Writer) int {
	return guideline.CheckMain(args, stdout, stderr)
}
