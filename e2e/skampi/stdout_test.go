package skampi

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestSkampiStdoutFull: a failed write of the text ends the run with 1
// and says why; the records are all in the results file.
func TestSkampiStdoutFull(t *testing.T) {
	cfg := skampiWrite(t, "epsilon 0.1\nminreps 4\nmaxreps 16\nmeasure Wtime simple Wtime none\n"+
		"measure Comm_size simple Comm_size none\n")
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := e2e.FullStdout(t, "skampi", "-config", cfg, "-json", out)
	if r.Code != 1 || !strings.Contains(r.Stderr, "no space left on device") {
		t.Errorf("want exit 1 and the write's error; got %s", r)
	}
	if _, order := skampiByName(t, skampiRead(t, out)); strings.Join(order, " ") != "Wtime Comm_size" {
		t.Errorf("records of %v, want Wtime Comm_size", order)
	}
}
