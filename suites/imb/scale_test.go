package imb

import (
	"testing"
)

// scaleRecords is what a run of cfg on p processes writes: the cases
// (Driver.count), and the records, one per case, or with -multi 1 one
// per group of each measured case (run.go, Driver.records); a length
// left out for memory is one record (Driver.skipStep).
func scaleRecords(cfg *Config, p int) (cases, records int) {
	s := SuiteByName(cfg.Suite)
	d := &Driver{suite: s, set: cfg.F.settings(&s.Settings), cfg: cfg, size: p}
	cases = d.count()
	for _, name := range cfg.Benchmarks {
		b := cfg.F.lookup(s, name)
		for _, q := range s.ProcessCounts(p, cfg.NPMin, b.Class) {
			if _, bad := s.invalid(b, q); bad {
				continue
			}
			fit, out := caseBounds(cfg, s, d.set, b, q).split(planLengths(d.set, cfg.Lengths, b))
			groups := 1
			if cfg.Multi == 1 {
				groups = p / q
			}
			// a length left out for memory is one record, whatever -multi
			records += len(cfg.F.runModes(b)) * (groups*len(fit) + len(out))
		}
	}
	return cases, records
}

// TestScaleModel holds docs/scale.md's IMB figures at P = 16, 1,000 and
// 10,000: the records of a default run of every IMB suite, without
// -multi and with -multi 1, and the memory check's need per rank.
func TestScaleModel(t *testing.T) {
	type figures struct {
		records, multi1 int
		mem             int64
	}
	want := map[string][3]figures{
		"mpi1": {{988, 3909, 134217856}, {2398, 257825, 8388616000}, {3338, 2589060, 83886160000}},
		"ext":  {{456, 2526, 83886080}, {852, 161670, 83886080}, {1116, 1619736, 83886080}},
		"io":   {{4815, 32401, 16777216}, {10281, 2077445, 16777216}, {13925, 20816356, 16777216}},
		// -mem 1 leaves Ialltoall's long lengths out: a record each
		"nbc":  {{1132, 4245, 134217856}, {2830, 281569, 4198506304}, {3962, 2827948, 41947314304}},
		"mpi4": {{1132, 4245, 134217856}, {2830, 281569, 4198506304}, {3962, 2827948, 41947314304}},
		"rma":  {{1028, 5368, 16777216}, {2036, 345160, 16777216}, {2708, 3459328, 16777216}},
	}
	for _, s := range Suites {
		for i, p := range []int{16, 1000, 10000} {
			var got figures
			for _, args := range [][]string{nil, {"-multi", "1"}} {
				o, err := ParseArgs(args)
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := Resolve(s, o, p, args)
				if err != nil {
					t.Fatal(err)
				}
				cases, recs := scaleRecords(cfg, p)
				if args == nil {
					if cases != recs {
						t.Errorf("%s at P = %d: %d cases, %d records; want one record per case", s.Name, p, cases, recs)
					}
					got.records, got.mem = recs, MemoryNeed(cfg, p).Bytes
				} else {
					got.multi1 = recs
				}
			}
			if w := want[s.Name][i]; got != w {
				t.Errorf("%s at P = %d: records %d, -multi 1 %d, memory %d; docs/scale.md says %d, %d, %d",
					s.Name, p, got.records, got.multi1, got.mem, w.records, w.multi1, w.mem)
			}
		}
	}
}
