package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"mpibench/analysis/compare"
	"mpibench/analysis/result"
	"mpibench/internal/cli"
	"mpibench/internal/safefile"
	"mpibench/internal/textout"
	"mpibench/run/mpijob"
)

// compareCommand is mpibench compare as the registry knows it: no MPI,
// and no plotting either, so that both binaries run it themselves, as
// they do merge.
var compareCommand = mpijob.Entry{Name: "compare", Synopsis: "compare OLD.jsonl NEW.jsonl ... [-fail-on N]",
	Summary: "old and new medians, change and its significance per case", Main: runCompare}

const compareUsage = `Usage: mpibench compare OLD.jsonl NEW.jsonl [more.jsonl ...] [-alpha A] [-fail-on PCT] [-json FILE]
       mpibench compare OLD1.jsonl OLD2.jsonl ... vs NEW1.jsonl NEW2.jsonl ... [vs ...]

Compares every case measured in OLD and in NEW (each NEW with OLD, when
there are several). A side may be several files, one launch each or
more, separated from the next side by the word vs (a file named vs is
./vs); without vs each file is a side of its own. Each side's files are
read as one: their launches of a case are the test's samples. the old and the new median, the change in percent
and whether it is significant by the two-sided Wilcoxon rank-sum test at
level alpha, the test PGMPI's guideline check uses. A case is what merge
matches runs by: suite, benchmark, class, mode, process count and layout,
message length, SKaMPI parameter and b_eff repetition. The figure compared
is a time (µs, so a positive change is a slowdown): t_max for IMB and
b_eff_io, t_avg for p2p, t_max/looplength for b_eff, the median of the
repetitions for SKaMPI and PGMPI. The test runs over the launches when
both sides hold the case at least twice (runs appended to a file, or
files concatenated), else over the per-repetition samples of the records
that carry them (SKaMPI, PGMPI). "~" marks no significant change, "too
few" samples that could not reach alpha however different: at 0.05 the
test needs at least 4 launches of each side (single launches of IMB,
OSU, p2p or b_eff, whose records carry no per-repetition samples, are
always too few; the note under the table says how many are needed). No
MPI is needed. Flags and files may come in any order.

  -alpha A       significance level (default 0.05)
  -fail-on PCT   exit 1 when a case is significantly slower by more than
                 PCT percent ("5" or "5%"); such cases are marked SLOWER.
                 A gate that could not decide exits 3: no case had samples
                 enough to reach alpha, whatever the change
  -json FILE     also write every compared case as JSON Lines (alias -o)
  -h             this help

Exit codes: 0 ok (with -fail-on: no significant slowdown beyond it), 1 a
significant slowdown beyond -fail-on, 2 bad input (missing or empty file,
sides with no case in common, bad flag, output not writable), 3 with
-fail-on, no case could be decided (the message says how many launches a
side would).
`

// runCompare is mpibench compare. It never initialises MPI.
func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlags("compare")
	alpha := fs.Float64("alpha", compare.DefaultAlpha, "")
	failOn := -1.0
	fs.Func("fail-on", "", func(s string) error { return parsePercent(s, &failOn) })
	var out string
	cli.Results(fs, &out)
	files, code := reportParse(fs, args, compareUsage, stdout, stderr)
	if files == nil {
		return code
	}
	cs, err := compareFiles(files, *alpha, out, stderr)
	if err == nil {
		err = compareWrite(cs, failOn, out, stdout)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "mpibench compare: %v\n", err)
		return 2
	}
	return compareVerdict(cs, failOn, stderr)
}

// parsePercent reads -fail-on's value, with or without "%".
func parsePercent(s string, dst *float64) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%q: want a percentage of 0 or more, such as 5%%", s)
	}
	*dst = v
	return nil
}

// compareFiles reads OLD and every NEW and compares each NEW with OLD.
func compareFiles(files []string, alpha float64, out string, stderr io.Writer) ([]*compare.Comparison, error) {
	sides, err := compareSides(files)
	if err != nil {
		return nil, err
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("-alpha %v: want a level between 0 and 1", alpha)
	}
	if err := safefile.Clash(out, files...); err != nil {
		return nil, fmt.Errorf("-json: %w", err)
	}
	sets := make([]*compare.Set, len(sides))
	for i, side := range sides {
		if sets[i], err = compareSet(side, stderr); err != nil {
			return nil, err
		}
	}
	cs := make([]*compare.Comparison, 0, len(sets)-1)
	for _, s := range sets[1:] {
		c := compare.Compare(sets[0], s, alpha)
		if len(c.Changes) == 0 {
			return nil, fmt.Errorf("%s and %s have no case in common: nothing to compare (a case is suite, "+
				"benchmark, mode, processes, layout and length)", sets[0].File, s.File)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// compareSides splits the files into sides at the word "vs"; without
// it, each file is a side.
func compareSides(files []string) ([][]string, error) {
	if !slices.Contains(files, "vs") {
		if len(files) < 2 {
			return nil, fmt.Errorf("want OLD.jsonl and at least one NEW.jsonl, got %d file", len(files))
		}
		sides := make([][]string, len(files))
		for i, f := range files {
			sides[i] = []string{f}
		}
		return sides, nil
	}
	var sides [][]string
	var side []string
	for _, f := range append(slices.Clone(files), "vs") {
		if f != "vs" {
			side = append(side, f)
			continue
		}
		if len(side) == 0 {
			return nil, fmt.Errorf("a side with no file (vs at the start, the end, or twice in a row)")
		}
		sides, side = append(sides, side), nil
	}
	if len(sides) < 2 {
		return nil, fmt.Errorf("want two sides or more around vs, got %d", len(sides))
	}
	return sides, nil
}

// compareSet reads the files of one side as one set of launches, named
// after its first file.
func compareSet(side []string, stderr io.Writer) (*compare.Set, error) {
	label := side[0]
	if len(side) > 1 {
		label += fmt.Sprintf(" (+%d files)", len(side)-1)
	}
	s := compare.NewSet(label)
	for _, name := range side {
		add := func(r *result.Record) error { s.Add(r); return nil }
		if err := scanFile("compare", name, add, stderr); err != nil {
			return nil, err
		}
	}
	if s.Len() == 0 {
		return nil, fmt.Errorf("%s: no measurement to compare (only check-mode, summary or violation records)", label)
	}
	return s, nil
}

// compareWrite prints the tables and writes the JSON Lines file.
func compareWrite(cs []*compare.Comparison, failOn float64, out string, stdout io.Writer) error {
	var b bytes.Buffer
	for i, c := range cs {
		if i > 0 {
			b.WriteString("\n")
		}
		if err := compare.WriteText(&b, c, failOn); err != nil {
			return err
		}
	}
	// The labels name benchmarks and files of the records read.
	if _, err := io.WriteString(stdout, textout.CleanText(b.String())); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	if out == "" {
		return nil
	}
	data, err := compare.JSONLines(cs)
	if err != nil {
		return err
	}
	return safefile.WriteFile(out, data)
}

// compareVerdict is the exit code: 1 when -fail-on found a slowdown, 3
// when it could decide nothing.
func compareVerdict(cs []*compare.Comparison, failOn float64, stderr io.Writer) int {
	if failOn < 0 {
		return 0
	}
	n, cases, tooFew := 0, 0, 0
	for _, c := range cs {
		n += len(c.Slower(failOn))
		cases += len(c.Changes)
		tooFew += c.TooFew()
	}
	if n == 0 && cases > 0 && tooFew == cases {
		// A gate that cannot close must not pass as "no slowdown" in CI.
		_, _ = fmt.Fprintf(stderr, "mpibench compare: -fail-on could not decide: all %d cases had too few samples for a verdict; "+
			"the test needs at least %d launches of each side (give each side's launches as files: OLD1 OLD2 ... vs NEW1 NEW2 ...)\n",
			cases, compare.LaunchesNeeded(cs[0].Alpha))
		return 3
	}
	if n == 0 {
		return 0
	}
	_, _ = fmt.Fprintf(stderr, "mpibench compare: %d cases significantly slower by more than %g%% (-fail-on)\n", n, failOn)
	return 1
}
