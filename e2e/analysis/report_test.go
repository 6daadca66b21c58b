package analysis

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"mpibench/e2e"
)

// The built binary runs report outside any launcher: no MPI_Init.
func TestReportBinary(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	a := e2e.Testdata(t, "results-a.jsonl")
	out := filepath.Join(t.TempDir(), "r.html")
	cmd := exec.Command(e2e.Bin(), "report", a, "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no report: %v", err)
	}
}
