package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"mpibench/internal/textout"
)

// Label names a case as the table does: suite, benchmark, mode, process
// count and layout, length, and the SKaMPI parameter or b_eff repetition
// where there is one.
func (k Key) Label() string {
	parts := []string{k.Suite, k.Benchmark}
	if k.Mode != "" {
		parts = append(parts, k.Mode)
	}
	parts = append(parts, fmt.Sprintf("np=%d", k.NProcs))
	if k.Multi >= 0 {
		parts = append(parts, fmt.Sprintf("multi=%d", k.Multi))
	}
	if k.Group >= 0 {
		parts = append(parts, fmt.Sprintf("group=%d", k.Group))
	}
	if len(k.Pair) == 2 {
		parts = append(parts, fmt.Sprintf("%d->%d", k.Pair[0], k.Pair[1]))
	}
	parts = append(parts, fmt.Sprintf("%dB", k.Bytes))
	if k.Param != "" && k.Param != "bytes" && k.Param != "none" {
		parts = append(parts, fmt.Sprintf("%s=%d", k.Param, k.X))
	}
	if k.Rep > 0 {
		parts = append(parts, fmt.Sprintf("rep=%d", k.Rep))
	}
	return strings.Join(parts, " ")
}

// Verdict is the change column: the change in percent when significant,
// "~" when not, with the p-value and the sample sizes in parentheses as
// benchstat prints them, and "too few" where no verdict was possible.
func (c *Change) Verdict() string {
	n := fmt.Sprintf("n=%d+%d", c.Old.N, c.New.N)
	switch {
	case c.TooFew:
		return fmt.Sprintf("~ (too few: %s)", n)
	case c.Significant && !(c.Old.Median > 0):
		return fmt.Sprintf("changed, no %% of a median <= 0 (p=%.3f %s)", c.P, n)
	case c.Significant:
		return fmt.Sprintf("%+.2f%% (p=%.3f %s)", c.Delta, c.P, n)
	}
	return fmt.Sprintf("~ (p=%.3f %s)", c.P, n)
}

// WriteText writes c as a benchstat-like table: one line per case with
// the old and new medians, the change and its significance; a
// significant slowdown beyond failOn percent (failOn < 0: none) is
// marked "SLOWER".
func WriteText(w io.Writer, c *Comparison, failOn float64) error {
	t := textout.New(w)
	t.Printf("old: %s\nnew: %s\n", c.Old, c.New)
	t.Printf("two-sided Wilcoxon rank-sum test, alpha %g; medians in µs\n\n", c.Alpha)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	tt := textout.New(tw)
	tt.Printf("case\tmetric\tunit\told\tnew\tchange\n")
	for i := range c.Changes {
		ch := &c.Changes[i]
		mark := ""
		if failOn >= 0 && ch.Slower(failOn) {
			mark = "  SLOWER"
		}
		tt.Printf("%s\t%s\t%s\t%s\t%s\t%s%s\n", ch.Label(), ch.Metric, ch.Unit,
			textout.Number(ch.Old.Median), textout.Number(ch.New.Median), ch.Verdict(), mark)
	}
	if c.Geomean > 0 {
		tt.Printf("geomean\t\t\t\t\t%+.2f%%\n", 100*(c.Geomean-1))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c.OnlyOld > 0 || c.OnlyNew > 0 {
		t.Printf("\n%d cases only in old, %d only in new: not compared\n", c.OnlyOld, c.OnlyNew)
	}
	if note := c.TooFewNote(); note != "" {
		t.Printf("\n%s\n", note)
	}
	if err := tt.Err(); err != nil {
		return err
	}
	return t.Err()
}

// TooFewNote says how many cases had too few samples for a verdict and
// how many launches of each side the test needs; "" when every case had
// enough. Single launches of a suite whose records carry no
// per-repetition samples (IMB, OSU, p2p, b_eff) are one sample a side:
// no case of them can be significant, and -fail-on can never trigger.
func (c *Comparison) TooFewNote() string {
	n := c.TooFew()
	if n == 0 {
		return ""
	}
	which := fmt.Sprintf("%d of %d cases", n, len(c.Changes))
	if n == len(c.Changes) {
		which = fmt.Sprintf("all %d cases", n)
	}
	need := LaunchesNeeded(c.Alpha)
	return fmt.Sprintf("too few: %s had too few samples for a verdict at alpha %g; the rank-sum test needs at least %d launches "+
		"of each side (run each side %d times and concatenate its results files into one), or records with per-repetition "+
		"samples (SKaMPI, PGMPI)", which, c.Alpha, need, need)
}
