package skampi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/result"
	"mpibench/stats"
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
		recs = append(recs, result.Record{Suite: "skampi", Benchmark: name, X: i, Stats: &stats.Summary{N: 1}})
	}
	return recs
}

// A run that finished A, crashed in B, and left half a line behind:
// resuming skips A, runs C and D, retries B last, and the files keep A
// only.
func TestResumeJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	cfg := journalConfig(t)
	j, err := CreateJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Start("A")
	j.Finish("A", journalRecs("A", 2))
	j.Start("B")
	j.w.Write(&journalRecs("B", 1)[0]) // as if B wrote part of its points
	j.out.WriteString(`{"suite":"skampi","bench`)
	j.Close()

	j, r, err := ResumeJournal(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Done, []string{"A"}) || !slices.Equal(r.Crashed, []string{"B"}) || len(r.Warnings) != 1 {
		t.Fatalf("resumed: done %v crashed %v warnings %v", r.Done, r.Crashed, r.Warnings)
	}
	if got := Order(cfg, r); !slices.Equal(got, []string{"C", "D", "B"}) {
		t.Errorf("order %v, want C D B", got)
	}
	// The retry of B crashes before B starts (in C): B is still last.
	j.Start("C")
	j.Close()
	j, r, err = ResumeJournal(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if !slices.Equal(Order(cfg, r), []string{"D", "B", "C"}) {
		t.Errorf("second resume: order %v, want D B C", Order(cfg, r))
	}
	data, _ := os.ReadFile(path)
	recs, warns, _ := result.Read(strings.NewReader(string(data)), path)
	if len(recs) != 2 || recs[0].Benchmark != "A" || len(warns) != 0 {
		t.Errorf("journal after resume: %d records, %d warnings:\n%s", len(recs), len(warns), data)
	}
}

// "done" without its records (the results file lost them) is not
// finished; a missing journal is an empty one.
func TestResumeJournalMissingRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	cfg := journalConfig(t)
	os.WriteFile(StatePath(path), []byte("start A\ndone A 3\n"), 0o644)
	j, r, err := ResumeJournal(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if len(r.Done) != 0 || len(r.Crashed) != 0 || !slices.Equal(Order(cfg, r), []string{"A", "B", "C", "D"}) {
		t.Errorf("done %v crashed %v order %v", r.Done, r.Crashed, Order(cfg, r))
	}
	j, r, err = ResumeJournal(filepath.Join(dir, "none.jsonl"), cfg)
	if err != nil || len(r.Done) != 0 {
		t.Fatalf("missing journal: %v %v", r, err)
	}
	j.Close()
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
