package pgmpi

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestPgmpiStdoutFull: the same for guidelines measure and nrep.
func TestPgmpiStdoutFull(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "3", "-o", dir},
		{"nrep", "-calls", "MPI_Bcast", "-sizes", "16", "-max", "40", "-json", filepath.Join(dir, "n.json")},
	} {
		r := e2e.FullStdout(t, append([]string{"guidelines"}, args...)...)
		if r.Code != 1 || !strings.Contains(r.Stderr, "no space left on device") {
			t.Errorf("%s: want exit 1 and the write's error; got %s", args[0], r)
		}
	}
	if recs := pgmpiRead(t, filepath.Join(dir, "launch-1.jsonl")); len(recs) != 1 {
		t.Errorf("measure: %d records, want 1", len(recs))
	}
}
