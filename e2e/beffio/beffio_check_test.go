package beffio

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// b_eff_io's data check (the read verifies the marks every write puts at
// both ends of every chunk) against the beffio-offset mutant, whose writes
// land 8 bytes behind their place: every read pattern, at every chunk
// size of every type down to 1 kB, must report wrong chunks and the run
// exit with 3; the real kernels, run by the same binary, report none.
func TestBeffIODataCheck(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	for _, mutant := range []string{"", "beffio-offset"} {
		t.Setenv(e2e.MutantEnv, mutant)
		dir := t.TempDir()
		js := filepath.Join(dir, "r.jsonl")
		r := e2e.LaunchBin(t, bin, 2, "beffio", "-T", "1", "-mem", "16", "-disk", "128M", "-iodir", dir, "-json", js)
		e2e.NoPanic(t, r)
		want := 0
		if mutant != "" {
			want = 3
		}
		if r.Code != want {
			t.Errorf("mutant %q: exit code %d, want %d\n%s", mutant, r.Code, want, r)
		}
		if got := strings.Contains(r.Stderr, "the data check found"); got != (mutant != "") {
			t.Errorf("mutant %q: message about wrong chunks: %v\n%s", mutant, got, r)
		}
		reads := 0
		for _, rec := range beffioRead(t, js) {
			if rec.Mode != "read" || rec.Benchmark == "total" || rec.BeffIO != nil || rec.MemBytes == 0 {
				continue
			}
			reads++
			if (rec.Defects > 0) != (mutant != "") {
				t.Errorf("mutant %q: %s (%s, %d bytes on disk): %g wrong chunks", mutant, rec.Benchmark, rec.Class,
					rec.Bytes, rec.Defects)
			}
		}
		// 43 patterns; the fill pattern of types 3 and 4 may have no bytes.
		if reads < 41 {
			t.Errorf("mutant %q: %d read pattern records with bytes, want 41 to 43", mutant, reads)
		}
	}
}
