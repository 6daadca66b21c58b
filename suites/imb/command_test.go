package imb

import "testing"

// TestCommand: each suite's registry entry carries its name, runs under
// MPI and lists every benchmark of its table; -o is -json's alias.
func TestCommand(t *testing.T) {
	for _, s := range Suites {
		c := s.Command()
		if c.Name != s.Name || !c.MPI || c.Main == nil || c.List == nil {
			t.Errorf("%s: entry %+v", s.Name, c)
			continue
		}
		if l := c.List(); len(l.Rows) != len(s.Table) || len(l.Rows[0]) != len(l.Header) {
			t.Errorf("%s: %d rows of %d cells for %d benchmarks, %d columns", s.Name, len(l.Rows), len(l.Rows[0]),
				len(s.Table), len(l.Header))
		}
	}
	for _, f := range []string{"-o", "--json", "-json"} {
		if o, err := ParseArgs([]string{"PingPong", f, "r.jsonl", "Barrier"}); err != nil || o.JSON != "r.jsonl" ||
			len(o.Benchmarks) != 2 {
			t.Errorf("%s: %+v, %v", f, o, err)
		}
	}
}
