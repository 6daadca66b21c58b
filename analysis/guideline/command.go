package guideline

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"mpibench/analysis/report"
	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/safefile"
	"mpibench/internal/textout"
)

const checkUsage = `Usage: mpibench guidelines check DIR [-alpha 0.05] [-test wilcoxon|ks]
        [-split median|test] [-guidelines FILE] [-o report.html] [-json FILE]

Checks the self-consistent performance guidelines (PGMPI, Hunold et al.
2016) on the launch-<k>.jsonl files that 'mpibench guidelines' wrote into
DIR. Each launch and size is reduced to the median of its repetitions; the
guidelines are tested on the distributions of these medians over the
launches: monotony (GL1) between adjacent sizes and the pattern
guidelines, a function against its mock-up at the same size, by one-sided
tests; split-robustness (GL2) with the smallest k such that k·m_i >= m_j,
by the paper's median rule: violated when the median at m_j exceeds
1.05·k·(the median at m_i). No MPI is needed. Flags and DIR may come in
any order.

  -alpha A          significance level of every test (default 0.05)
  -test T           wilcoxon: Wilcoxon rank-sum (default); ks: Kolmogorov-Smirnov
  -split R          GL2 rule. median: the paper's median rule (default);
                    test: the -test test of the medians at m_j against those
                    at m_i scaled by 1.05·k (not the paper's rule: it assumes
                    k messages' times are the distribution at m_i scaled)
  -guidelines FILE  guidelines to check instead of GL1-GL17, one per line:
                    id left relation right mapping (see 'guidelines check -defaults')
  -defaults         print the default guideline file and exit
  -o FILE           also write an HTML report with a plot per violated guideline
  -json FILE        write every violation as a JSON Lines record
  -h                this help

Prints Tables II-IV of the paper (violations per type; pattern guidelines;
function × size with the significance of each violation) and the list of
violations. Exit codes: 0 ok (violations or not), 2 bad input.
`

// CheckMain is mpibench guidelines check, with the arguments after
// "check". It never initialises MPI: it reads records.
func CheckMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guidelines check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := DefaultOptions
	fs.Float64Var(&o.Alpha, "alpha", o.Alpha, "")
	fs.StringVar(&o.Test, "test", o.Test, "")
	fs.StringVar(&o.Split, "split", o.Split, "")
	file := fs.String("guidelines", "", "")
	defaults := fs.Bool("defaults", false, "")
	out := fs.String("o", "", "")
	jsonOut := fs.String("json", "", "")
	dirs, err := cli.Operands(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return writeOut(stdout, stderr, checkUsage, 0)
	case err == nil && *defaults:
		// -defaults alone needs no DIR.
		return writeOut(stdout, stderr, DefaultText(), 0)
	case err == nil && len(dirs) == 0:
		err = errors.New("no results file named")
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench guidelines check: %v\n\n%s", err, checkUsage)
		return 2
	}
	if err := checkRun(dirs, o, *file, *out, *jsonOut, stdout, stderr); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench guidelines check: %v\n", err)
		return 2
	}
	return 0
}

// writeOut writes s to stdout and returns code, or 1 when the write
// fails.
func writeOut(stdout, stderr io.Writer, s string, code int) int {
	if _, err := io.WriteString(stdout, s); err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench guidelines check: %v\n", err)
		return 1
	}
	return code
}

// checkRun checks the launches of the one directory of dirs and writes
// the tables on stdout, the records and the page where asked.
func checkRun(dirs []string, o Options, file, out, jsonOut string, stdout, stderr io.Writer) error {
	if len(dirs) != 1 {
		return fmt.Errorf("want one directory, got %d: %q", len(dirs), dirs)
	}
	if err := o.Validate(); err != nil {
		return err
	}
	inputs, _ := filepath.Glob(filepath.Join(dirs[0], "launch-*.jsonl*"))
	inputs = append(inputs, file)
	for _, w := range []struct{ flag, path string }{{"-o", out}, {"-json", jsonOut}} {
		if err := safefile.Clash(w.path, inputs...); err != nil {
			return fmt.Errorf("%s: %w", w.flag, err)
		}
	}
	gs := Default()
	if file != "" {
		var err error
		if gs, err = Load(file); err != nil {
			return err
		}
	}
	data, warns, err := ReadDir(dirs[0])
	for _, w := range warns {
		_, _ = fmt.Fprintf(stderr, "mpibench guidelines check: warning: %s\n", textout.Clean(w.String()))
	}
	if err != nil {
		return err
	}
	res, err := Check(data, gs, o)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		return err
	}
	// The tables name the calls of the records read.
	text := textout.CleanText(b.String())
	if _, err := io.WriteString(stdout, text); err != nil {
		return err
	}
	if jsonOut != "" {
		if err := checkJSON(jsonOut, res.Records()); err != nil {
			return err
		}
	}
	if out != "" {
		return checkHTML(out, text, res, data)
	}
	return nil
}

func checkJSON(path string, recs []result.Record) error {
	var b bytes.Buffer
	w := result.NewWriter(&b)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			return err
		}
	}
	return safefile.WriteFile(path, b.Bytes())
}

// checkHTML renders into memory first, so that a failure leaves no
// half-written report behind.
func checkHTML(path, text string, res *Result, data *Data) error {
	page := report.GuidelinePage{Text: text}
	for _, g := range res.Groups {
		for _, r := range g.Rows {
			if len(r.Findings) > 0 {
				page.Plots = append(page.Plots, checkPlot(g, r, data))
			}
		}
	}
	var b bytes.Buffer
	if err := report.GuidelineHTML(&b, page); err != nil {
		return err
	}
	return safefile.WriteFile(path, b.Bytes())
}

// checkPlot is the plot of one violated row: the function's medians,
// and the mock-up's beside them for a pattern guideline.
func checkPlot(g Group, r Row, data *Data) report.GuidelinePlot {
	gl := r.Guideline
	calls := []string{r.Function}
	if gl.Kind == Pattern {
		calls = append(calls, gl.Right)
	}
	gp := report.GuidelinePlot{
		ID:     fmt.Sprintf("p%d-%s-%s", g.Procs, gl.ID, r.Function),
		Title:  fmt.Sprintf("%s (%s) %s, %d processes", gl.ID, gl.Kind, r.Label(), g.Procs),
		Labels: calls,
		Marks:  make([]string, len(g.Sizes)),
		Values: make([][][]float64, len(calls)),
	}
	if gl.Kind != Pattern {
		gp.Title = fmt.Sprintf("%s (%s) %s: %s, %d processes", gl.ID, gl.Kind, r.Function, gl.Mapping, g.Procs)
	}
	marks := map[int]string{}
	for _, f := range r.Findings {
		marks[f.Size] = f.Mark()
	}
	for i, n := range g.Sizes {
		gp.Sizes = append(gp.Sizes, SizeLabel(n))
		gp.Marks[i] = marks[n]
		for side, c := range calls {
			gp.Values[side] = append(gp.Values[side], data.Medians[Key{Procs: g.Procs, Call: c}][n])
		}
	}
	return gp
}
