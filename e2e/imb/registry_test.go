package imb

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestResultsFlagAlias: -o FILE is -json FILE in the suites that had
// -json only: the records land in FILE, and the run resumes from it.
func TestResultsFlagAlias(t *testing.T) {
	e2e.NeedMPI(t)
	out := filepath.Join(t.TempDir(), "o.jsonl")
	args := []string{"mpi1", "PingPong", "-msglen", e2e.Lengths(t, 0, 4), "-o", out}
	e2e.MustSucceed(t, e2e.Launch(t, 2, args...))
	recs := e2e.ReadRecords(t, out)
	if len(recs) != 2 || recs[0].Benchmark != "PingPong" {
		t.Fatalf("-o %s: %d records, want 2 of PingPong", out, len(recs))
	}
	r := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "resuming "+out) {
		t.Errorf("-o FILE -resume did not resume FILE:\n%s", r)
	}
}
