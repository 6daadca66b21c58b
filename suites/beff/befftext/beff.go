package befftext

import (
	"fmt"
	"io"
	"strings"

	"mpibench/analysis/result"
	"mpibench/internal/textout"
)

// beffMethods are the method columns, in the original's order.
var beffMethods = []string{"sendrecv", "alltoallv", "nonblocking"}

// BeffText renders the records of one b_eff run: a header, every
// b(pat,L,mthd,rep) (one line per pattern and length, the three
// repetitions of each method side by side), the per-pattern analysis
// table, the columns of the paper's Table 1 and, last, the line the
// original b_eff ends with. Everything comes from the records; the
// summary record must be among them.
func BeffText(w io.Writer, recs []result.Record) error {
	t := &beffText{textout.NewCleaning(w)}
	var sum *result.Record
	for i := range recs {
		if recs[i].Suite == result.SuiteBeff && recs[i].Beff != nil {
			sum = &recs[i]
		}
	}
	if sum == nil {
		return fmt.Errorf("b_eff: no summary record")
	}
	s := sum.Beff
	t.header(sum.Context, s)
	t.check(recs)
	t.values(recs)
	t.patterns(s)
	t.table1(s)
	t.Printf("\nb_eff = %.3f MB/s = %.3f * %d PEs with %d MB/PE on %s\n",
		s.Beff, s.PerProc, s.Procs, s.MemMB, s.Uname)
	return t.Err()
}

// check says, for a run with -check, what the data check found.
func (t *beffText) check(recs []result.Record) {
	var n, bad int
	var wrong float64
	for _, r := range recs {
		if r.Suite == result.SuiteBeff && r.Check {
			n++
			if r.Defects > 0 {
				bad++
				wrong += r.Defects
			}
		}
	}
	if n > 0 {
		t.Printf("# Data check (-check): %.0f wrong bytes in %d of %d measurements; the times below are no benchmark data\n",
			wrong, bad, n)
	}
}

// beffText cleans every string argument: they are the strings of records
// (hosts, arguments, names), which reach a terminal.
type beffText struct{ *textout.Writer }

func (t *beffText) header(c result.Context, s *result.BeffSummary) {
	rule := "#" + strings.Repeat("-", 63)
	t.Printf("%s\n#    %s, b_eff: effective bandwidth benchmark (version 3.1)\n%s\n", rule, c.Tool, rule)
	for _, kv := range [][2]string{
		{"Date", c.Start}, {"MPI Library", c.MPILibrary}, {"Hosts", strings.Join(c.Hosts, " ")},
		{"Processes", fmt.Sprint(s.Procs)},
		{"Memory per process", fmt.Sprintf("%d MB  [1 MB = 1024*1024 bytes]", s.MemMB)},
		{"L_max", fmt.Sprintf("%d bytes (%s)", s.LMax, beffSize(s.LMax))},
		{"Message lengths", strings.Trim(fmt.Sprint(s.Lengths), "[]")},
		{"Looplength", s.Looplength},
		{"Patterns", fmt.Sprintf("%s + %d random (seed %d) + analysis", s.Primary, s.Random, s.Seed)},
		{"Calling sequence", "mpibench " + strings.Join(c.Args, " ")},
	} {
		t.Printf("# %-20s: %s\n", kv[0], kv[1])
	}
	t.Printf("# Bandwidths in MB/s, 1 MB = 10^6 bytes\n")
}

// values prints every measured b, grouped by pattern and length.
func (t *beffText) values(recs []result.Record) {
	type key struct {
		pat   string
		bytes int
	}
	vals := map[key]map[string][3]float64{}
	var keys []key
	group := map[string]string{}
	for _, r := range recs {
		if r.Suite != result.SuiteBeff || r.Rep < 1 || r.Rep > 3 {
			continue
		}
		k := key{r.Benchmark, r.Bytes}
		if vals[k] == nil {
			vals[k] = map[string][3]float64{}
			keys = append(keys, k)
		}
		v := vals[k][r.Mode]
		v[r.Rep-1] = r.BMBps
		vals[k][r.Mode] = v
		group[r.Benchmark] = r.Class
	}
	t.Printf("\n# b(pat,L,mthd,rep) in MB/s, repetitions 1 2 3 of each method\n")
	t.Printf("%-16s %-9s %10s", "#pattern", "group", "L")
	for _, m := range beffMethods {
		t.Printf(" | %-32s", m)
	}
	t.Printf("\n")
	last := ""
	for _, k := range keys {
		if k.pat != last && last != "" {
			t.Printf("\n")
		}
		last = k.pat
		t.Printf("%-16s %-9s %10d", k.pat, group[k.pat], k.bytes)
		for _, m := range beffMethods {
			v, ok := vals[k][m]
			if !ok {
				t.Printf(" | %-32s", "-")
				continue
			}
			t.Printf(" | %10.3f %10.3f %10.3f", v[0], v[1], v[2])
		}
		t.Printf("\n")
	}
}

// patterns prints what each pattern contributes, the analysis tables.
func (t *beffText) patterns(s *result.BeffSummary) {
	t.Printf("\n# Patterns: average over the 21 lengths of the best method and repetition,\n")
	t.Printf("# the best at L_max, and per method the average over lengths of the best repetition\n")
	t.Printf("%-16s %-9s %8s %12s %12s %12s %12s %12s  %s\n", "#pattern", "group", "messages",
		"avg", "at L_max", "sendrecv", "alltoallv", "nonblocking", "layout")
	for _, p := range s.Patterns {
		t.Printf("%-16s %-9s %8d %12.3f %12.3f", p.Name, p.Group, p.Messages, p.Avg, p.AtLmax)
		for _, m := range beffMethods {
			if v, ok := p.Methods[m]; ok {
				t.Printf(" %12.3f", v)
			} else {
				t.Printf(" %12s", "-")
			}
		}
		t.Printf("  %s\n", p.Layout)
	}
	t.Printf("\n# logavg over the %s patterns: %.3f MB/s\n", s.Primary, s.PrimaryAvg)
	t.Printf("# logavg over the random patterns: %.3f MB/s\n", s.RandomAvg)
}

// table1 prints the columns of Table 1 of Rabenseifner and Koniges (2001).
func (t *beffText) table1(s *result.BeffSummary) {
	t.Printf("\n# Summary (the columns of Table 1 of the b_eff paper)\n")
	t.Printf("%10s %12s %12s %10s %12s %12s %14s %14s\n", "#processes", "b_eff", "per proc",
		"L_max", "ping-pong", "b_eff", "per proc", "per proc")
	t.Printf("%10s %12s %12s %10s %12s %12s %14s %14s\n", "#", "MB/s", "MB/s", "", "MB/s",
		"at L_max", "at L_max", s.Primary+" pat.")
	t.Printf("%10d %12.3f %12.3f %10s %12.3f %12.3f %14.3f %14.3f\n", s.Procs, s.Beff, s.PerProc,
		beffSize(s.LMax), s.PingPong, s.BeffLmax, s.PerProcLmax, s.PerProcPrim)
}

// beffSize writes a byte count as the paper does: "1 MB", "8 kB".
func beffSize(n int) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
