package pgmpi

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkStep reads a guidelines command line (its step first) as rank 0
// does (mpijob.Command.Check): the message every rank exits 2 with.
func checkStep(args []string) error {
	c := map[string]func([]string, int) error{"nrep": nrepCommand.Check, "measure": measureCommand.Check}[args[0]]
	return c(args[1:], 2)
}

// TestBadInput: usage errors, repetitions and volumes beyond their bounds
// included (not "runtime: C malloc failed"), and -resume where there is
// nothing to resume, are refused before measuring with a message that
// says why; no directory is made. e2e/pgmpi runs some under mpirun, where
// every rank exits 2.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	nrep := filepath.Join(dir, "nrep.json")
	if err := os.WriteFile(nrep, []byte(`{"procs":2,"entries":[{"call":"MPI_Bcast","bytes":16,"reps":9000000000000000000}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, none := filepath.Join(dir, "out"), filepath.Join(dir, "none")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "9000000000000000000", "-o", out},
			"-reps 9000000000000000000: want 1 to 10000000 repetitions"},
		{[]string{"measure", "-calls", "MPI_Bcast", "-sizes", "16", "-reps", "10000001", "-o", out}, "-reps 10000001"},
		{[]string{"measure", "-calls", "MPI_Bcast", "-sizes", "99999999999", "-o", out}, `invalid value "99999999999" for flag -sizes`},
		{[]string{"measure", "-nrep", nrep, "-o", out}, "9000000000000000000 repetitions"},
		{[]string{"nrep", "-calls", "MPI_Bcast", "-max", "90000000000", "-o", out}, "at most 10000000"},
		{[]string{"nrep", "-calls", "MPI_Bcast", "-method", "cov_mean", "-window", "cov_mean=99999999", "-o", out}, "window of cov_mean"},
		{[]string{"measure", "-calls", "MPI_Foo"}, "MPI_Foo"},
		{[]string{"measure", "-sizes", "x"}, "-sizes"},
		{[]string{"nrep", "-method", "mean"}, `unknown method "mean"`},
		{[]string{"nrep", "-min", "50", "-max", "10"}, "want 2 <= min <= max"},
		{[]string{"measure", "-calls", "MPI_Bcast", "-sizes", "8", "-o", none, "-resume"}, "has no launch-K.jsonl to resume"},
		{[]string{"measure", "-verify", "-resume"}, "-verify keeps no results"},
		{[]string{"nrep", "-resume", "-o", filepath.Join(none, "n.json")}, "nrep writes its predictions once"},
	} {
		if err := checkStep(c.args); err == nil || strings.Count(err.Error(), c.want) != 1 {
			t.Errorf("%v: %v, want %q once", c.args, err, c.want)
		}
	}
	for _, d := range []string{out, none} {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s was made", d)
		}
	}
}
