package guideline

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"mpibench/internal/textout"
)

// WriteText writes the check in the shape of the paper's tables: Table II
// (violations per type out of those checked, per process count), Table
// III (each pattern guideline, violated or not, per process count),
// Table IV (function × size, violated sizes marked by their significance)
// and then every violation with its figures.
func WriteText(w io.Writer, res *Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	t := textout.New(tw)
	o := res.Options
	t.Printf("PGMPI guideline check: %s test (one-sided), alpha %g\n", testName(o.Test), o.Alpha)
	t.Printf("split-robustness (GL2): %s\n\n", SplitRule(o))
	writeTypes(t, res)
	writePatterns(t, res)
	for _, g := range res.Groups {
		writeMatrix(t, g)
	}
	writeFindings(t, res)
	if err := t.Err(); err != nil {
		return err
	}
	return tw.Flush()
}

// SplitRule says in words how GL2 was decided, so that every report
// names the rule behind its s column.
func SplitRule(o Options) string {
	f := 1 + o.Tolerance
	if o.Split == SplitTest {
		return fmt.Sprintf("%s test of T(m_j) against the distribution at m_i scaled by %g·k "+
			"(-split test, not the paper's rule), tolerance %g %%", testName(o.Test), f, 100*o.Tolerance)
	}
	return fmt.Sprintf("median rule of PGMPI IV-C2, violated when median T(m_j) > %g·k·median T(m_i), "+
		"tolerance %g %%, no test (marked x)", f, 100*o.Tolerance)
}

func testName(t string) string {
	if t == "ks" {
		return "Kolmogorov-Smirnov"
	}
	return "Wilcoxon rank-sum"
}

// Counts is the number of rows of each kind that were violated at any
// size, and of those checked: one column of Table II.
func (g Group) Counts(k Kind) (violated, checked int) {
	for _, r := range g.Rows {
		if r.Guideline.Kind != k {
			continue
		}
		checked++
		if len(r.Findings) > 0 {
			violated++
		}
	}
	return violated, checked
}

func writeTypes(w *textout.Writer, res *Result) {
	w.Println("Table II: guidelines violated at any size, out of those checked")
	w.Println("(m monotony and s split-robustness: functions; p: pattern guidelines)")
	w.Println("#processes\ttype\tviolations\t")
	for _, g := range res.Groups {
		for _, k := range []Kind{Monotony, Split, Pattern} {
			v, c := g.Counts(k)
			w.Printf("%d\t%s\t%d/%d\t\n", g.Procs, k.Letter(), v, c)
		}
	}
	w.Println()
}

// writePatterns is Table III: x violated, - satisfied, blank not measured.
func writePatterns(w *textout.Writer, res *Result) {
	w.Println("Table III: pattern guidelines (x violated, - satisfied, blank not measured)")
	head := "guideline\t"
	for _, g := range res.Groups {
		head += fmt.Sprintf("%d procs\t", g.Procs)
	}
	w.Println(head)
	for _, gl := range res.Guidelines {
		if gl.Kind != Pattern {
			continue
		}
		line := fmt.Sprintf("%s %s <= %s\t", gl.ID, gl.Left, gl.Mapping)
		for _, g := range res.Groups {
			line += patternMark(g, gl) + "\t"
		}
		w.Println(line)
	}
	w.Println()
}

func patternMark(g Group, gl Guideline) string {
	for _, r := range g.Rows {
		if r.Guideline.ID == gl.ID {
			if len(r.Findings) > 0 {
				return "x"
			}
			return "-"
		}
	}
	return ""
}

// writeMatrix is Table IV for one process count: the rows with a
// violation, one column per size, each violated size marked with the
// stars of its p-value.
func writeMatrix(w *textout.Writer, g Group) {
	w.Printf("Table IV: violations on %d processes (R = %d); * p < 0.05, ** p < 0.01, *** p < 0.001, x median rule\n", g.Procs, g.Launches)
	head := "type\tguideline\tfunction\t"
	for _, n := range g.Sizes {
		head += SizeLabel(n) + "\t"
	}
	w.Println(head)
	none := true
	for _, r := range g.Rows {
		if len(r.Findings) == 0 {
			continue
		}
		none = false
		marks := map[int]string{}
		for _, f := range r.Findings {
			marks[f.Size] = f.Mark()
		}
		line := fmt.Sprintf("%s\t%s\t%s\t", r.Guideline.Kind.Letter(), r.Guideline.ID, r.Label())
		for _, n := range g.Sizes {
			line += marks[n] + "\t"
		}
		w.Println(line)
	}
	if none {
		w.Println("(no violation)")
	}
	w.Println()
}

func writeFindings(w *textout.Writer, res *Result) {
	w.Println("Violations")
	w.Println("procs\tguideline\tfunction\tsize\tslower µs\tfaster µs\tp, or median excess\t")
	any := false
	for _, g := range res.Groups {
		for _, r := range g.Rows {
			for _, f := range r.Findings {
				any = true
				w.Printf("%d\t%s\t%s\t%s\t%.4g\t%.4g\t%s\t\n", g.Procs, r.Guideline.ID, r.Label(),
					findingSize(r.Guideline.Kind, f), f.Slow, f.Fast, findingP(f))
			}
		}
	}
	if !any {
		w.Println("none")
	}
}

// findingP is the p column: the p-value and its stars, or for the median
// rule by how much T(m_j) exceeds k·T(m_i).
func findingP(f Finding) string {
	if math.IsNaN(f.P) {
		return fmt.Sprintf("median +%.1f %%", 100*(f.Slow/f.Fast-1))
	}
	return fmt.Sprintf("%.3g %s", f.P, Stars(f.P))
}

// findingSize says which sizes a violation compares: "1024 > 2048" for
// monotony (the smaller size slower), "2048 > 2x1024" for split.
func findingSize(k Kind, f Finding) string {
	switch k {
	case Monotony:
		return fmt.Sprintf("T(%d) > T(%d)", f.From, f.Size)
	case Split:
		return fmt.Sprintf("T(%d) > %d T(%d)", f.Size, f.Factor, f.From)
	}
	return strconv.Itoa(f.Size)
}

// SizeLabel writes a volume as the paper's columns do, in bytes with
// binary multiples where exact: 1024 as 1K, 102400 as 100K.
func SizeLabel(n int) string {
	for _, u := range []struct {
		f int
		s string
	}{{1 << 20, "M"}, {1 << 10, "K"}} {
		if n >= u.f && n%u.f == 0 {
			return strconv.Itoa(n/u.f) + u.s
		}
	}
	return strconv.Itoa(n)
}
