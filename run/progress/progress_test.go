package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fake is a Meter on a clock the test moves.
func fake(tty bool) (*Meter, *bytes.Buffer, *time.Time) {
	var out bytes.Buffer
	m := New(&out, "io", tty)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m.start = now
	m.now = func() time.Time { return now }
	return m, &out, &now
}

// Into a log, each case gets a line: which of how many, elapsed, and the
// estimate: before any case ended the current one's planned time for
// every case left, then the average case.
func TestLines(t *testing.T) {
	m, out, now := fake(false)
	m.SetTotal(4)
	*now = now.Add(5 * time.Second)
	m.Begin("A, 8 bytes, 2 processes", 10*time.Second)
	*now = now.Add(20 * time.Second)
	m.End()
	m.Begin("B, 16 bytes, 2 processes", 0)
	*now = now.Add(2 * time.Second)
	m.Begin("C, 32 bytes, 2 processes", 0) // B ends with C's begin
	m.Close()
	want := []string{
		"mpibench io: case 1/4, 0:05 elapsed, about 0:40 left: A, 8 bytes, 2 processes",
		"mpibench io: case 2/4, 0:25 elapsed, about 1:00 left: B, 16 bytes, 2 processes",
		"mpibench io: case 3/4, 0:27 elapsed, about 0:22 left: C, 32 bytes, 2 processes",
		"mpibench io: 3 cases in 0:27",
	}
	if got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Without a total, or without a planned time or an ended case, there is
// no estimate; cases -resume kept count as done.
func TestNoEstimate(t *testing.T) {
	m, out, _ := fake(false)
	m.Begin("A", 0)
	m.SetTotal(3)
	m.Kept(1)
	m.Begin("B", 0)
	m.Close()
	want := "mpibench io: case 1, 0:00 elapsed: A\n" +
		"mpibench io: case 3/3, 0:00 elapsed: B\n" +
		"mpibench io: 2 cases in 0:00, 1 kept from the resumed run\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

// On a terminal a case is drawn only once the tick finds it running: in
// place, cut to the width, cleared when the case ends or hides it and
// before any other message, which is followed by the line again.
func TestTerminal(t *testing.T) {
	m, out, now := fake(true)
	m.SetTotal(2)
	m.Begin(strings.Repeat("x", 100), 0)
	if out.Len() > 0 {
		t.Errorf("a case drawn before the tick: %q", out)
	}
	m.redraw(m.gen)
	first := out.String()
	if !strings.HasPrefix(first, "\rmpibench io: case 1/2, 0:00 elapsed: xxx") || len([]rune(first)) != 1+width ||
		!strings.HasSuffix(first, "…") {
		t.Errorf("first line %q", first)
	}
	out.Reset()
	*now = now.Add(time.Second)
	m.End()
	if got := out.String(); got != "\r"+strings.Repeat(" ", width)+"\r" {
		t.Errorf("end %q", got)
	}
	out.Reset()
	m.Begin("B", 0)
	m.redraw(m.gen)
	line := "\rmpibench io: case 2/2, 0:01 elapsed, about 0:01 left: B"
	if got := out.String(); got != line {
		t.Errorf("second line %q", got)
	}
	out.Reset()
	m.Writer().Write([]byte("note\n"))
	if got, want := out.String(), "\r"+strings.Repeat(" ", len(line)-1)+"\rnote\n"+line; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	out.Reset()
	gen := m.gen
	m.Hide()
	m.redraw(gen) // a tick that waited for the lock
	m.Close()
	if got := out.String(); got != "\r"+strings.Repeat(" ", len(line)-1)+"\r" {
		t.Errorf("hidden and closed %q", got)
	}
}

// The tick draws a slow case and redraws it, so that its elapsed time
// moves.
func TestTick(t *testing.T) {
	var out syncBuffer
	m := New(&out, "beffio", true)
	m.Begin("A", 0)
	time.Sleep(2*tick + tick/2)
	m.End()
	m.Close()
	if n := strings.Count(out.String(), "case 1, "); n != 2 {
		t.Errorf("drawn %d times: %q", n, out.String())
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0:00", 61500 * time.Millisecond: "1:02",
		3*time.Hour + 4*time.Minute + 5*time.Second: "3:04:05"} {
		if got := clock(d); got != want {
			t.Errorf("clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLauncher(t *testing.T) {
	for name, want := range map[string]bool{"mpirun": true, "mpirun.openmpi": true, "mpiexec.hydra": true,
		"orterun": true, "srun": true, "hydra_pmi_proxy": false, "bash": false, "mpibench": false} {
		if launcher(name) != want {
			t.Errorf("launcher(%q) = %v", name, !want)
		}
	}
}
