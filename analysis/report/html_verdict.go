package report

import (
	"fmt"

	"mpibench/analysis/compare"
	"mpibench/internal/textout"
)

// verdicts fills the significance column of the summary from package
// compare: the rank-sum test of the case a line is about (the records of
// its length, process count or parameter value), between the line's
// input and the first, on the repeated launches or else the records'
// per-repetition samples, as mpibench compare tests it. A line without a
// case (b_eff's maxima over methods) keeps "–".
func verdicts(diffs []htmlDiff, comparison func(a, b int) *compare.Comparison) {
	byPair := map[[2]int]map[string]*compare.Change{}
	for i := range diffs {
		d := &diffs[i]
		if d.caseID == "" {
			continue
		}
		pair := [2]int{d.base, d.input}
		changes, ok := byPair[pair]
		if !ok {
			changes = map[string]*compare.Change{}
			c := comparison(d.base, d.input)
			for j := range c.Changes {
				changes[c.Changes[j].ID] = &c.Changes[j]
			}
			byPair[pair] = changes
		}
		if ch := changes[d.caseID]; ch != nil {
			d.Significant = verdictText(ch)
		}
	}
}

// verdictText is a test's verdict in words: yes or no with the p-value,
// or too few values for any verdict, with what was tested.
func verdictText(ch *compare.Change) string {
	n := fmt.Sprintf("%d and %d %s", ch.Old.N, ch.New.N, ch.Unit)
	p := "p = " + textout.Number(ch.P)
	if ch.P < 0.001 {
		p = "p < 0.001"
	}
	switch {
	case ch.TooFew:
		return fmt.Sprintf("too few to tell (%s; the test needs %d launches a side)", n, compare.LaunchesNeeded(ch.Alpha))
	case ch.Significant:
		return fmt.Sprintf("yes, %s (%s)", p, n)
	}
	return fmt.Sprintf("no, %s (%s)", p, n)
}
