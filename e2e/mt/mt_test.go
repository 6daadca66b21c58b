package mt

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// The mt tests run 2 ranks of 2 threads (OMP_NUM_THREADS=2, -thread_level
// multiple) on tiny counts and few repetitions: a few seconds per MPI.

var mtArgs = []string{"-count", "1,4", "-repeat", "10", "-warmup", "1", "-thread_level", "multiple"}

type mtRecord struct {
	Suite     string  `json:"suite"`
	Benchmark string  `json:"benchmark"`
	NP        int     `json:"np"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	Threads   int     `json:"threads"`
	TMin      float64 `json:"t_min_us"`
	TMax      float64 `json:"t_max_us"`
	TAvg      float64 `json:"t_avg_us"`
	Check     bool    `json:"check"`
	Defects   float64 `json:"defects"`
}

var numberRow = regexp.MustCompile(`^( +-?[0-9.]+|  +inf)+$`)

// shape is IMB-MT's output with the measured numbers left out: the title
// line (the program's name), every '#' line and empty line as it is,
// and of a row its width and its first field when that is #bytes or
// #repetitions (the same in both programs).
func shape(out string) []string {
	var s []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasSuffix(l, ", MT part    "):
			s = append(s, "TITLE")
		case numberRow.MatchString(l):
			s = append(s, fmt.Sprintf("ROW %d %s", len(l), strings.Fields(l)[0]))
		default:
			s = append(s, l)
		}
	}
	return s
}

// TestMTSideBySide: mpibench mt and Intel's IMB-MT print the same lines
// (the title's program and the numbers aside) for the point-to-point,
// band, collective and barrier shapes.
func TestMTSideBySide(t *testing.T) {
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-MT", e2e.PeerBinary("IMB-MT"), "")
	t.Setenv("OMP_NUM_THREADS", "2")
	args := append([]string{"PingPongMT", "UniBandMT", "AllReduceMT", "BarrierMT"}, mtArgs...)
	theirs := e2e.LaunchBin(t, peer, 2, args...)
	e2e.MustSucceed(t, theirs)
	ours := e2e.Launch(t, 2, append([]string{"mt"}, args...)...)
	e2e.MustSucceed(t, ours)
	if a, b := shape(ours.Stdout), shape(theirs.Stdout); !slices.Equal(a, b) {
		t.Errorf("output differs\n mpibench:\n%s\n IMB-MT:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if !strings.Contains(ours.Stdout, "# #processes = 2 (threads: 2)") {
		t.Errorf("no 2 threads:\n%s", ours.Stdout)
	}
}

// TestMTCheck: -check with the real kernels finds nothing in any
// benchmark, a record per benchmark and count with 2 threads; without
// -thread_level multiple a process runs one thread, as IMB-MT.
func TestMTCheck(t *testing.T) {
	t.Setenv("OMP_NUM_THREADS", "2")
	js := filepath.Join(t.TempDir(), "mt.jsonl")
	r := e2e.Launch(t, 2, append([]string{"mt", "-check", "on", "-json", js}, mtArgs...)...)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadJSONL[mtRecord](t, js)
	if len(recs) != 19 { // 9 benchmarks at 2 counts, BarrierMT at 0
		t.Fatalf("%d records, want 19", len(recs))
	}
	for _, rec := range recs {
		if rec.Suite != "mt" || rec.Threads != 2 || rec.NP != 2 || !rec.Check || rec.Defects != 0 || rec.Reps != 10 {
			t.Errorf("record %+v", rec)
		}
	}
	one := e2e.Launch(t, 2, "mt", "PingPongMT", "-count", "1", "-repeat", "5", "-warmup", "1")
	e2e.MustSucceed(t, one)
	if !strings.Contains(one.Stdout, "# #processes = 2 (threads: 1)\n") {
		t.Errorf("single: want one thread\n%s", one.Stdout)
	}
}

// TestMTCheckMutant: with every thread of rank 1 on the next thread's
// communicator (mutant mt-swap-comm), -check finds defects in every row
// of the benchmarks whose data cross threads, and the run exits 3.
func TestMTCheckMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.UseMutant(t)
	t.Setenv(e2e.MutantEnv, "mt-swap-comm")
	t.Setenv("OMP_NUM_THREADS", "2")
	js := filepath.Join(t.TempDir(), "mt.jsonl")
	r := e2e.Launch(t, 2, append([]string{"mt", "PingPongMT", "ExchangeMT", "BiBandMT", "BcastMT", "AllReduceMT",
		"-check", "on", "-json", js}, mtArgs...)...)
	e2e.NoPanic(t, r)
	if r.Code != 3 || !strings.Contains(r.Stderr, "-check found defects") {
		t.Errorf("want exit code 3 and the defects named, have %s", r)
	}
	recs := e2e.ReadJSONL[mtRecord](t, js)
	if len(recs) != 10 {
		t.Fatalf("%d records, want 10", len(recs))
	}
	for _, rec := range recs {
		if rec.Defects == 0 {
			t.Errorf("%s at %d bytes: no defects under the mutant", rec.Benchmark, rec.Bytes)
		}
	}
}
