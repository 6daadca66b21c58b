// Package progress shows on stderr how far a run is: which case of how
// many runs, the time elapsed and an estimate of what is left. On a
// terminal one line is redrawn in place; elsewhere (-progress into a log)
// each case gets a line of its own. It writes to the writer it is given
// and nothing else, so it never reaches the records or stdout.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Mode is the -progress setting: Auto shows progress when the launcher's
// stderr is a terminal.
type Mode int

const (
	Auto Mode = iota
	On
	Off
)

// width is the most a redrawn line takes: a wider one would wrap, and
// "\r" would then redraw only its last row.
const width = 79

// tick is how long a case runs before a terminal shows it, and how often
// the line is redrawn while it runs, so that the elapsed time moves during
// a long case: one short write a second from a thread other than the
// measuring one. A quicker case is not drawn at all: the suite's own
// output (IMB's rows) tells how far the run is, and the line, drawn only
// while a slow case runs and hidden before its results are printed, does
// not mix with them (the launcher forwards stdout and stderr apart, and
// stdout later).
const tick = time.Second

// Meter is the progress of one run, on rank 0. A nil *Meter does nothing.
type Meter struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	name     string // the command, as in "mpibench io: ..."
	now      func() time.Time
	start    time.Time
	total    int           // cases the run has in all; 0 unknown
	kept     int           // cases -resume kept, counted as done
	begun    int           // cases begun in this run
	finished int           // cases of this run that ended
	first    time.Time     // the first case's begin
	spent    time.Duration // first begin to the last end
	cur      *current
	shown    int // runes of the line on the terminal; 0 none
	timer    *time.Timer
	gen      int // counts stopTimer: a tick of an older timer is void
}

// current is the case that runs.
type current struct {
	what   string
	expect time.Duration
	began  time.Time
}

// New returns a Meter writing to w, redrawing one line when tty.
func New(w io.Writer, name string, tty bool) *Meter {
	return &Meter{w: w, name: name, tty: tty, now: time.Now, start: time.Now()}
}

// SetTotal says how many cases the run has in all, those -resume skips
// included.
func (m *Meter) SetTotal(n int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total = n
}

// Kept counts n cases that -resume kept as done.
func (m *Meter) Kept(n int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.kept += n
}

// Begin shows that a case begins: what (benchmark, length, processes)
// and the time it is planned to take (0 unknown). A case still running
// ends first.
func (m *Meter) Begin(what string, expect time.Duration) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.end(now)
	if m.begun == 0 {
		m.first = now
	}
	m.begun++
	m.cur = &current{what: what, expect: expect, began: now}
	if m.tty {
		m.startTimer()
		return
	}
	m.put(m.line(now))
}

// Hide clears the terminal line before the current case's results are
// printed; the tick does not draw it again during this case.
func (m *Meter) Hide() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopTimer()
	m.clear()
}

// End notes that the current case ended; the next Begin shows it.
func (m *Meter) End() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.end(m.now())
}

func (m *Meter) end(now time.Time) {
	if m.cur == nil {
		return
	}
	m.stopTimer()
	m.clear()
	m.cur = nil
	m.finished++
	m.spent = now.Sub(m.first)
}

// Close ends the display: a terminal's line is cleared; a log gets a last
// line, the cases run and the time they took.
func (m *Meter) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.end(now)
	if m.tty || (m.begun == 0 && m.kept == 0) {
		return
	}
	line := fmt.Sprintf("mpibench %s: %d cases in %s", m.name, m.begun, clock(now.Sub(m.start)))
	if m.kept > 0 {
		line += fmt.Sprintf(", %d kept from the resumed run", m.kept)
	}
	m.put(line)
}

// Writer returns a writer for the other messages of the run: on a
// terminal it clears the progress line before a message, so that the
// message starts a line of its own, and draws it again after one.
func (m *Meter) Writer() io.Writer { return writer{m} }

type writer struct{ m *Meter }

func (w writer) Write(p []byte) (int, error) {
	m := w.m
	m.mu.Lock()
	defer m.mu.Unlock()
	shown := m.shown > 0
	m.clear()
	n, err := m.w.Write(p)
	if shown && len(p) > 0 && p[len(p)-1] == '\n' {
		m.put(m.line(m.now()))
	}
	return n, err
}

// redraw is the tick's: the line of a slow case, its elapsed time moving
// on.
func (m *Meter) redraw(gen int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen != m.gen || m.cur == nil {
		return // stopped while the tick waited for the lock
	}
	m.put(m.line(m.now()))
	m.startTimer()
}

// startTimer has the tick redraw the line; m.mu is held.
func (m *Meter) startTimer() {
	m.stopTimer()
	gen := m.gen
	m.timer = time.AfterFunc(tick, func() { m.redraw(gen) })
}

// stopTimer stops the tick, and voids one already waiting for the lock;
// m.mu is held.
func (m *Meter) stopTimer() {
	if m.timer != nil {
		m.timer.Stop()
		m.timer = nil
	}
	m.gen++
}

// put writes line: in place of the one shown on a terminal, else as a
// line of its own. A failed write of the progress is not the run's
// failure: the messages that matter go through Writer.
func (m *Meter) put(line string) {
	if !m.tty {
		_, _ = io.WriteString(m.w, line+"\n")
		return
	}
	r := []rune(line)
	if len(r) > width {
		r = append(r[:width-1], '…')
	}
	pad := max(m.shown-len(r), 0)
	_, _ = io.WriteString(m.w, "\r"+string(r)+strings.Repeat(" ", pad))
	m.shown = len(r)
}

// clear removes the line shown on a terminal; m.mu is held.
func (m *Meter) clear() {
	if m.tty && m.shown > 0 {
		_, _ = io.WriteString(m.w, "\r"+strings.Repeat(" ", m.shown)+"\r")
		m.shown = 0
	}
}

// line is the progress line: "mpibench io: case 12/40, 1:02 elapsed,
// about 3:10 left: S_Write_Indv, 1048576 bytes, 2 processes", the case
// last, where the terminal's width may cut it.
func (m *Meter) line(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mpibench %s: case %d", m.name, m.kept+m.begun)
	if m.total > 0 {
		fmt.Fprintf(&b, "/%d", max(m.total, m.kept+m.begun))
	}
	fmt.Fprintf(&b, ", %s elapsed", clock(now.Sub(m.start)))
	if left, ok := m.left(now); ok {
		fmt.Fprintf(&b, ", about %s left", clock(left))
	}
	if m.cur != nil {
		fmt.Fprintf(&b, ": %s", m.cur.what)
	}
	return b.String()
}

// left estimates the time the run still takes: what the current case has
// left of its planned time (or of the average case), and the cases not
// begun at the average time of the cases so far (before any ended, at the
// current case's planned time). Without a total there is no estimate.
func (m *Meter) left(now time.Time) (time.Duration, bool) {
	if m.total <= 0 {
		return 0, false
	}
	var avg time.Duration
	if m.finished > 0 {
		avg = m.spent / time.Duration(m.finished)
	}
	per, cur := avg, time.Duration(0)
	if m.cur != nil {
		if m.finished == 0 {
			per = m.cur.expect
		}
		plan := m.cur.expect
		if plan <= 0 {
			plan = avg
		}
		cur = max(plan-now.Sub(m.cur.began), 0)
	}
	if per <= 0 {
		return 0, false
	}
	rest := max(m.total-m.kept-m.begun, 0)
	return cur + time.Duration(rest)*per, true
}

// clock writes d as m:ss, or h:mm:ss from an hour on.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
