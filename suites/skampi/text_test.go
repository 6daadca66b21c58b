package skampi

import (
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/analysis/stats"
)

func journalConfig(t *testing.T) *Config {
	t.Helper()
	c, err := ParseConfig(strings.NewReader(`measure A simple Wtime none
measure B simple Comm_size none
measure C simple Comm_rank none
measure D simple Attr_get none
`), "j.ski")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func journalRecs(name string, n int) []result.Record {
	var recs []result.Record
	for i := 0; i < n; i++ {
		recs = append(recs, result.Record{Suite: "skampi", Benchmark: name, SkampiFigures: result.SkampiFigures{X: i}, Stats: &stats.Summary{N: 1}})
	}
	return recs
}

func TestText(t *testing.T) {
	recs := journalRecs("A", 2)
	recs = append(recs, journalRecs("B", 1)...)
	for i := range recs {
		recs[i].Param = OverBytes
	}
	var b strings.Builder
	if err := Text(&b, recs); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "# A:") != 1 || strings.Count(b.String(), "# B:") != 1 || strings.Count(b.String(), "reached") != 2 {
		t.Errorf("text:\n%s", b.String())
	}
}
