package guard

import (
	"testing"
	"time"
)

func TestParseFault(t *testing.T) {
	f, err := ParseFault("hang:1:mpi1/PingPong/np2/*")
	if err != nil || f.Kind != "hang" || f.Rank != 1 || f.Pattern != "mpi1/PingPong/np2/*" {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := ParseFault("kill:*:x"); err != nil || f.Rank != -1 {
		t.Fatalf("%+v %v", f, err)
	}
	for _, bad := range []string{"hang", "stop:1:x", "hang:-1:x", "hang:one:x", "hang:1:["} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if f, err := ParseFault(""); f != nil || err != nil {
		t.Errorf("empty: %+v %v", f, err)
	}
}

// The default limit follows its formula: 60 s + 3·Expect +
// reps·(1 ms + bytes·procs/10 MB/s).
func TestDefaultLimit(t *testing.T) {
	c := Case{Bytes: 4 << 20, Procs: 4, Reps: 10, Expect: 2 * time.Second}
	want := 60*time.Second + 6*time.Second + 10*(time.Millisecond+time.Duration(float64(4<<20)*4/1e7*1e9))
	if got := DefaultLimit(c); got != want {
		t.Errorf("DefaultLimit = %v, want %v", got, want)
	}
	if got := DefaultLimit(Case{}); got != 60*time.Second+time.Millisecond {
		t.Errorf("empty case: %v", got)
	}
}

// The watchdog fires only for a case still running: End disarms it, and
// the expiry runs the cleanup and the abort with ExitHung.
func TestWatchdog(t *testing.T) {
	aborted := make(chan int, 1)
	cleaned := false
	g := New(Options{Rank: 0, Timeout: 50 * time.Millisecond, Stderr: &discard{},
		Cleanup: func() { cleaned = true }, Abort: func(code int) { aborted <- code; select {} }})
	g.Begin(Case{Key: "a"})
	g.End()
	time.Sleep(100 * time.Millisecond)
	select {
	case <-aborted:
		t.Fatal("a finished case was ended")
	default:
	}
	g.Begin(Case{Key: "b"})
	select {
	case code := <-aborted:
		if code != ExitHung || !cleaned {
			t.Errorf("abort code %d, cleanup %v", code, cleaned)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a hung case was not ended")
	}
}

type discard struct{}

func (*discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkBeginEnd is the watchdog's cost per case, outside the timed
// loops: arming and disarming a timer.
func BenchmarkBeginEnd(b *testing.B) {
	g := New(Options{Rank: 1, Stderr: &discard{}})
	c := Case{Key: "mpi1/PingPong/np2/1024", Reps: 1000, Bytes: 1024, Procs: 2}
	for i := 0; i < b.N; i++ {
		g.Begin(c)
		g.End()
	}
}
