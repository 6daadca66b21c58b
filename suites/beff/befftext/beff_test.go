package befftext

import (
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// beffRecords are b_eff records of three patterns at two lengths and the
// summary of the b_eff page's sample line.
func beffRecords() []result.Record {
	var recs []result.Record
	for _, pat := range []struct{ name, group string }{{"cart-1d-x", "cartesian"}, {"random-1", "random"}, {"pingpong", "analysis"}} {
		for _, l := range []int{1, 8192} {
			for mi, m := range []string{"sendrecv", "alltoallv", "nonblocking"} {
				if pat.name == "pingpong" && mi > 0 {
					continue
				}
				for rep := 1; rep <= 3; rep++ {
					recs = append(recs, result.Record{Suite: "beff", Benchmark: pat.name, Class: pat.group,
						Mode: m, Bytes: l, BeffFigures: result.BeffFigures{Rep: rep, BMBps: float64(l) + float64(10*mi+rep)/100}})
				}
			}
		}
	}
	recs = append(recs, result.Record{Suite: "beff", Benchmark: "b_eff", Class: "summary",
		Context: result.Context{Tool: "mpibench test", Args: []string{"beff"}, Start: "2026-01-02T03:04:05Z",
			MPILibrary: "Open MPI v4.1.4", Hosts: []string{"node1", "node2"}},
		BeffFigures: result.BeffFigures{Beff: &result.BeffSummary{Beff: 9709.549, PerProc: 37.928, Procs: 256, MemMB: 128, LMax: 1 << 20,
			Lengths: []int{1, 8192}, Looplength: "adaptive",
			Primary: "cartesian", Uname: "sn6715 hwwt3e 2.0.4.71 unicosmk CRAY T3E", PingPong: 330,
			Patterns: []result.BeffPattern{{Name: "cart-1d-x", Group: "cartesian", Messages: 512, Avg: 1,
				Methods: map[string]float64{"sendrecv": 1}}}}}})
	return recs
}

func TestBeffText(t *testing.T) {
	recs := beffRecords()
	var b strings.Builder
	if err := BeffText(&b, recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// The page's sample line, character for character.
	if want := "b_eff = 9709.549 MB/s = 37.928 * 256 PEs with 128 MB/PE on sn6715 hwwt3e 2.0.4.71 unicosmk CRAY T3E"; lines[len(lines)-1] != want {
		t.Errorf("last line\n%s\nwant\n%s", lines[len(lines)-1], want)
	}
	for _, want := range []string{
		"cart-1d-x        cartesian       8192 |   8192.010   8192.020   8192.030 |   8192.110   8192.120   8192.130 |   8192.210   8192.220   8192.230",
		"pingpong         analysis           1 |      1.010      1.020      1.030 | -",
		"1 MB",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if err := BeffText(&b, recs[:3]); err == nil {
		t.Error("no error without a summary record")
	}
}
