package cases

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mpibench/analysis/result"
	"mpibench/run/journal"
	"mpibench/run/progress"
)

// A case's life on rank 0: Begin notes it in the journal and in the
// progress line, Finish writes its records, End ends it; a phase of Watch
// is neither in the journal nor in the progress.
func TestRecorder(t *testing.T) {
	notTerminal(t)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := journal.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var stderr bytes.Buffer
	r := New(Options{Name: "mpi1", Journal: j, Stderr: &stderr, Progress: progress.On})
	r.SetTotal(2)
	r.Watch(Case{Benchmark: "PingPong (setup)", Key: "setup"})
	r.End()
	if err := r.Finish(nil); err == nil {
		t.Error("Finish outside a case: no error")
	}
	r.Begin(Case{Suite: "mpi1", Benchmark: "PingPong", Bytes: 8, Procs: 2, Key: "mpi1/PingPong/np2/8"})
	if err := r.Finish([]*result.Record{{Suite: "mpi1", Benchmark: "PingPong", Case: "mpi1/PingPong/np2/8"}}); err != nil {
		t.Fatal(err)
	}
	r.End()
	r.Close()
	state, _ := os.ReadFile(journal.StatePath(path))
	if got := string(state); got != "start mpi1/PingPong/np2/8\ndone mpi1/PingPong/np2/8 1\n" {
		t.Errorf("journal state:\n%s", got)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "mpibench mpi1: case 1/2, 0:00 elapsed: PingPong, 8 bytes, 2 processes") ||
		!strings.HasPrefix(lines[1], "mpibench mpi1: 1 cases in 0:00") {
		t.Errorf("progress:\n%s", stderr.String())
	}
}

// Only rank 0 shows progress, and only when asked or on a terminal.
func TestRecorderProgressRank0(t *testing.T) {
	notTerminal(t)
	var stderr bytes.Buffer
	for _, o := range []Options{{Rank: 1, Progress: progress.On}, {Rank: 0, Progress: progress.Off}} {
		o.Stderr = &stderr
		r := New(o)
		r.SetTotal(1)
		r.Begin(Case{Key: "a"})
		r.End()
		r.Close()
	}
	if stderr.Len() > 0 {
		t.Errorf("progress shown: %q", stderr.String())
	}
}

// The watchdog fires only for a case still running: End disarms it, and
// the expiry tells the user, marks the case hung in the journal, runs the
// cleanup and aborts with ExitHung.
func TestWatchdog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := journal.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	aborted := make(chan int, 1)
	// The message is written before the abort, which the test waits for.
	var stderr bytes.Buffer
	cleaned := false
	r := New(Options{Rank: 0, Timeout: 50 * time.Millisecond, Journal: j, Stderr: &stderr,
		Cleanup: func() { cleaned = true }, Abort: func(code int) { aborted <- code; select {} }})
	r.Begin(Case{Key: "a"})
	r.End()
	time.Sleep(100 * time.Millisecond)
	select {
	case <-aborted:
		t.Fatal("a finished case was ended")
	default:
	}
	r.Begin(Case{Suite: "mpi1", Benchmark: "PingPong", Bytes: 1024, Procs: 2, Key: "b"})
	select {
	case code := <-aborted:
		if code != ExitHung || !cleaned {
			t.Errorf("abort code %d, cleanup %v", code, cleaned)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a hung case was not ended")
	}
	want := "mpibench mpi1: watchdog: rank 0 waited more than 50ms in PingPong, 1024 bytes, 2 processes; " +
		"the journal records the case as hung and the job ends (exit code 4)\n"
	if got := stderr.String(); got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if state, _ := os.ReadFile(journal.StatePath(path)); !strings.Contains(string(state), "hung b\n") {
		t.Errorf("journal state:\n%s", state)
	}
}

// notTerminal makes the test's progress lines those of a log, wherever
// go test writes.
func notTerminal(t *testing.T) {
	terminal = func() bool { return false }
	t.Cleanup(func() { terminal = progress.Terminal })
}

type discard struct{}

func (*discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkBeginEnd is the cost per case outside the timed loops: arming
// and disarming the watchdog, on a rank without a progress line.
func BenchmarkBeginEnd(b *testing.B) {
	r := New(Options{Rank: 1, Stderr: &discard{}})
	c := Case{Key: "mpi1/PingPong/np2/1024", Reps: 1000, Bytes: 1024, Procs: 2}
	for i := 0; i < b.N; i++ {
		r.Begin(c)
		r.End()
	}
}

// BenchmarkBeginEndProgress is the same on rank 0 with -progress into a
// log: a line written per case.
func BenchmarkBeginEndProgress(b *testing.B) {
	terminal = func() bool { return false }
	defer func() { terminal = progress.Terminal }()
	r := New(Options{Rank: 0, Stderr: &discard{}, Progress: progress.On})
	r.SetTotal(b.N)
	c := Case{Key: "mpi1/PingPong/np2/1024", Reps: 1000, Bytes: 1024, Procs: 2}
	for i := 0; i < b.N; i++ {
		r.Begin(c)
		r.End()
	}
}
