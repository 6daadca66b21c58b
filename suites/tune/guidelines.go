package tune

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mpibench/analysis/guideline"
	"mpibench/analysis/stats"
	"mpibench/internal/textout"
	"mpibench/mpi"
)

// Violation is one violation of a pattern guideline by a collective tune
// measures, as 'guidelines check' finds it in the results of 'guidelines
// measure', and what each algorithm of the library does to it: a line of
// guidelines.jsonl.
type Violation struct {
	Library   string  `json:"library"`
	Guideline string  `json:"guideline"` // GL12
	Function  string  `json:"function"`  // MPI_Allreduce
	MockUp    string  `json:"mock_up"`   // Allreduce_as_Reduce_Bcast
	NP        int     `json:"np"`
	Size      int     `json:"size"`    // PGMPI's volume n in bytes
	Slow      float64 `json:"slow_us"` // the function's median as found
	Fast      float64 `json:"fast_us"` // the mock-up's
	// Algs is every algorithm of the function remeasured beside the
	// mock-up under PGMPI's harness, the default first.
	Algs []Remedy `json:"algs"`
}

// Remedy is one algorithm against one violation.
type Remedy struct {
	Alg
	Status   string  `json:"status"` // "ok", "failed"
	Function float64 `json:"function_us,omitempty"`
	MockUp   float64 `json:"mock_up_us,omitempty"`
	// Removes: with this algorithm 'guidelines check' finds no violation
	// at the point (the function is not significantly slower than the
	// mock-up).
	Removes bool   `json:"removes"`
	Error   string `json:"error,omitempty"`
}

// violations are the pattern-guideline violations in dir (results of
// 'guidelines measure') by the collectives of the plan.
func violations(dir string, p Plan) ([]Violation, error) {
	d, _, err := guideline.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("-guidelines %s: %v", dir, err)
	}
	res, err := guideline.Check(d, guideline.Default(), guideline.DefaultOptions)
	if err != nil {
		return nil, err
	}
	var vs []Violation
	for _, g := range res.Groups {
		for _, row := range g.Rows {
			if _, ok := planColl(p, row.Function); !ok || row.Guideline.Kind != guideline.Pattern {
				continue
			}
			for _, f := range row.Findings {
				vs = append(vs, Violation{Library: mpi.Flavor, Guideline: row.Guideline.ID, Function: row.Function,
					MockUp: row.Guideline.Right, NP: g.Procs, Size: f.Size, Slow: f.Slow, Fast: f.Fast})
			}
		}
	}
	return vs, nil
}

// planColl is the collective of the plan that the MPI function is.
func planColl(p Plan, function string) (Coll, bool) {
	name, ok := strings.CutPrefix(function, "MPI_")
	if !ok {
		return Coll{}, false
	}
	return collIn(p.Colls, name)
}

// remedies remeasures every violation with each algorithm of its
// function: Launches launches of 'guidelines measure' of the function and
// its mock-up at the point, the algorithm forced for the function alone,
// then the same check.
func (r *runner) remedies(vs []Violation) error {
	for i := range vs {
		v := &vs[i]
		c, _ := planColl(r.o.plan, v.Function)
		for _, a := range r.o.plan.algsOf(c) {
			rem, err := r.remedy(v, c, a)
			if err != nil {
				return err
			}
			v.Algs = append(v.Algs, rem)
		}
	}
	return nil
}

// remedy measures one algorithm against one violation.
func (r *runner) remedy(v *Violation, c Coll, a Alg) (Remedy, error) {
	dir := filepath.Join(r.o.out, "raw", "guidelines", fmt.Sprintf("%s-np%d-%d", v.Guideline, v.NP, v.Size), algDir(a))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Remedy{}, err
	}
	rem := Remedy{Alg: a, Status: "ok"}
	for k := 1; k <= r.o.plan.Launches; k++ {
		l := launch{np: v.NP, out: filepath.Join(dir, fmt.Sprintf("launch-%d.jsonl", k)),
			args: []string{"guidelines", "measure", "-calls", v.Function + "," + v.MockUp,
				"-sizes", strconv.Itoa(v.Size), "-o", dir},
			env:   append(r.lib.Force(c, a), "MPIBENCH_LAUNCH="+strconv.Itoa(k)),
			label: fmt.Sprintf("%s np %d %d bytes, %s, launch %d of %d", v.Guideline, v.NP, v.Size, a.Name, k, r.o.plan.Launches)}
		err := r.start(l)
		if errors.Is(err, errInterrupted) {
			return rem, err
		}
		if err != nil {
			rem.Status, rem.Error = "failed", err.Error()
			return rem, nil
		}
	}
	return judge(rem, dir, v)
}

// judge checks the guideline on one algorithm's launches.
func judge(rem Remedy, dir string, v *Violation) (Remedy, error) {
	d, _, err := guideline.ReadDir(dir)
	if err != nil {
		return rem, err
	}
	fn := d.Medians[guideline.Key{Procs: v.NP, Call: v.Function}][v.Size]
	mock := d.Medians[guideline.Key{Procs: v.NP, Call: v.MockUp}][v.Size]
	if len(fn) == 0 || len(mock) == 0 {
		rem.Status, rem.Error = "failed", "no measurement of the point"
		return rem, nil
	}
	rem.Function, rem.MockUp = stats.Median(fn), stats.Median(mock)
	res, err := guideline.Check(d, []guideline.Guideline{guidelineNamed(v.Guideline)}, guideline.DefaultOptions)
	if err != nil {
		return rem, err
	}
	rem.Removes = !found(res, v)
	return rem, nil
}

// guidelineNamed is the default guideline with the ID.
func guidelineNamed(id string) guideline.Guideline {
	for _, g := range guideline.Default() {
		if g.ID == id {
			return g
		}
	}
	return guideline.Guideline{}
}

// found reports whether the check still finds the violation.
func found(res *guideline.Result, v *Violation) bool {
	for _, g := range res.Groups {
		for _, row := range g.Rows {
			for _, f := range row.Findings {
				if g.Procs == v.NP && row.Function == v.Function && f.Size == v.Size {
					return true
				}
			}
		}
	}
	return false
}

// writeViolations says, per violation, which algorithms remove it.
func writeViolations(w io.Writer, dir string, vs []Violation) error {
	tw := textout.NewCleaning(w)
	tw.Printf("\nGuideline violations in %s by the collectives tuned: %d\n", dir, len(vs))
	for _, v := range vs {
		tw.Printf("%s %s <= %s, np %d, %d bytes: %s vs %s µs.", v.Guideline, v.Function, v.MockUp, v.NP, v.Size,
			textout.Number(v.Slow), textout.Number(v.Fast))
		var yes, no []string
		for _, a := range v.Algs {
			switch {
			case a.Status != "ok":
				no = append(no, a.Name+" (failed)")
			case a.Removes:
				yes = append(yes, fmt.Sprintf("%s (%s vs %s µs)", a.Name, textout.Number(a.Function), textout.Number(a.MockUp)))
			default:
				no = append(no, fmt.Sprintf("%s (%s vs %s µs)", a.Name, textout.Number(a.Function), textout.Number(a.MockUp)))
			}
		}
		if len(v.Algs) > 0 && v.Algs[0].IsDefault() && v.Algs[0].Removes {
			tw.Printf(" It did not recur with the default in these launches.")
		}
		if len(yes) == 0 {
			tw.Printf(" No algorithm of the library removes it; still violated with: %s\n", strings.Join(no, ", "))
			continue
		}
		if len(no) == 0 {
			no = []string{"none"}
		}
		tw.Printf(" Removed by: %s; not by: %s\n", strings.Join(yes, ", "), strings.Join(no, ", "))
	}
	return tw.Err()
}
