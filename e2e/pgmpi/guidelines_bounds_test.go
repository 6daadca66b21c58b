package pgmpi

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/suites/pgmpi"
)

// Repetitions and volumes beyond their bounds are usage errors: exit 2
// on every rank with a message, not "runtime: C malloc failed" (the table
// of them: suites/pgmpi's TestBadInput, read in process).
func TestPgmpiBounds(t *testing.T) {
	dir := t.TempDir()
	nrep := filepath.Join(dir, "nrep.json")
	os.WriteFile(nrep, []byte(`{"procs":2,"entries":[{"call":"MPI_Bcast","bytes":16,"reps":9000000000000000000}]}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "9000000000000000000"},
			"-reps 9000000000000000000: want 1 to 10000000 repetitions"},
		{[]string{"measure", "-nrep", nrep}, "9000000000000000000 repetitions"},
	} {
		args := append([]string{"guidelines"}, c.args...)
		r := e2e.Launch(t, 2, append(args, "-o", filepath.Join(dir, "out"))...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || strings.Count(r.Stderr, c.want) != 1 || strings.Contains(r.Stderr, "fatal error") {
			t.Errorf("%v: want exit 2 and %q once; got %s", c.args, c.want, r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("the -o directory was made anyway")
	}
	if h := e2e.Direct(t, "guidelines", "-h").Stdout; !strings.Contains(h, strconv.Itoa(pgmpi.MaxReps)) || !strings.Contains(h, strconv.Itoa(pgmpi.MaxBytes)) {
		t.Error("the help does not name the bounds")
	}
}
