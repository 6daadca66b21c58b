package imb

// IMB 2021's time-out in mpi1 -imb 2021 (imb/timeout2021.go).

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// timeOutPlan times out every benchmark at its first sample: its limit,
// max(4 − 2 − 1, 1) × 1 ns, is over once the -time probes have run.
var timeOutPlan = []string{"-time", "0.000000001", "-msglog", "2:4", "PingPong", "Allreduce", "Barrier", "Uniband"}

// TestIMB2021TimeOut: past IMB 2021's time-out, mpi1 -imb 2021 prints
// IMB's time-out line in the benchmark's table in place of the row (at
// MAXMSG for Barrier) and leaves out the benchmark's remaining lengths,
// with no records; the output after the header is IMB-MPI1's, line for
// line, where Intel's binary is built.
func TestIMB2021TimeOut(t *testing.T) {
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "r.jsonl")
	ours := e2e.Launch(t, 2, append([]string{"mpi1", "-imb", "2021", "-json", js}, timeOutPlan...)...)
	e2e.MustSucceed(t, ours)
	var got, rows []string
	for _, l := range strings.Split(ours.Stdout, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 1 && f[1] == "time-out.;":
			got = append(got, f[0])
		case len(f) > 1 && strings.Trim(f[0], "0123456789") == "":
			rows = append(rows, l)
		}
	}
	if want := []string{"0", "0", "16", "0"}; !slices.Equal(got, want) {
		t.Errorf("time-out lines at %v, want %v (one per benchmark)\n%s", got, want, ours.Stdout)
	}
	if len(rows) != 0 {
		t.Errorf("rows past the time-out: %q", rows)
	}
	if data, err := os.ReadFile(js); err != nil || strings.TrimSpace(string(data)) != "" {
		t.Errorf("records of timed-out samples (%v): %s", err, data)
	}
	t.Run("IMB-MPI1", func(t *testing.T) {
		peer := e2e.NeedPeer(t, "IMB-MPI1", peerIMB(), "")
		argv := e2e.LauncherArgs(2)
		argv[len(argv)-1] = peer
		theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, timeOutPlan...)...)
		e2e.MustSucceed(t, theirs)
		_, a, _ := strings.Cut(ours.Stdout, "# List of Benchmarks to run:")
		_, b, _ := strings.Cut(theirs.Stdout, "# List of Benchmarks to run:")
		if a != b {
			t.Errorf("after the header, mpibench:\n%s\nIMB-MPI1:\n%s", a, b)
		}
	})
}
