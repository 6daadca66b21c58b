package report

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Baselines other than a file name.
const (
	BaselineOldest = "oldest" // the input whose earliest run started first (the default)
	BaselineFirst  = "first"  // the first input given
)

// SetBaseline chooses the input that the ratios, the largest differences
// and the changes are taken against: BaselineOldest, BaselineFirst or an
// input's file name (as given, or its base name). Call it before the
// page is made; Baseline tells whether the choice names an input.
func (c *Collector) SetBaseline(b string) { c.baseline = b }

// Baseline checks the choice against the inputs read, and names the
// input it chose and why.
func (c *Collector) Baseline() (string, error) {
	if _, err := c.pickBase(); err != nil {
		return "", err
	}
	return c.baseNote(), nil
}

// baseInput is the baseline's index; 0 where the choice names no input
// (Baseline has said so before).
func (c *Collector) baseInput() int {
	i, _ := c.pickBase()
	return i
}

func (c *Collector) pickBase() (int, error) {
	switch b := c.baseline; b {
	case "", BaselineOldest:
		return c.oldest(), nil
	case BaselineFirst:
		return 0, nil
	default:
		var names []string
		for i, in := range c.inputs {
			if in.Name == b || filepath.Base(in.Name) == b {
				return i, nil
			}
			names = append(names, in.Name)
		}
		return 0, fmt.Errorf("-baseline %q: not an input (want %s, %s or one of %s)", b, BaselineOldest,
			BaselineFirst, strings.Join(names, ", "))
	}
}

// oldest is the input whose earliest run started first; inputs without
// a start time (none of their records has one) come after, and a tie
// goes to the input given first.
func (c *Collector) oldest() int {
	best := 0
	for i, in := range c.inputs {
		b := c.inputs[best].start
		if !in.start.IsZero() && (b.IsZero() || in.start.Before(b)) {
			best = i
		}
	}
	return best
}

// noteStart keeps the earliest start time of input in's runs; a record
// of the same run as the one before costs a string comparison.
func (in *htmlInput) noteStart(start string) {
	if start == "" || start == in.lastStart {
		return
	}
	in.lastStart = start
	t, err := time.Parse(time.RFC3339Nano, start)
	if err == nil && (in.start.IsZero() || t.Before(in.start)) {
		in.start = t
	}
}

// baseNote is the page's line on the baseline: which input, and why.
func (c *Collector) baseNote() string {
	if len(c.inputs) < 2 {
		return ""
	}
	i := c.baseInput()
	why := "chosen by -baseline"
	switch c.baseline {
	case "", BaselineOldest:
		why = "the input whose first run started first"
		if !c.inputs[i].start.IsZero() {
			why += " (" + c.inputs[i].start.UTC().Format(time.RFC3339) + ")"
		}
		why += "; -baseline chooses another"
	case BaselineFirst:
		why = "the first input given (-baseline first)"
	}
	return fmt.Sprintf("Baseline: %s, %s. Ratios, the largest differences and the changes are taken against it.",
		c.inputLabel(i), why)
}
