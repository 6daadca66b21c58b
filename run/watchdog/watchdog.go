// Package watchdog ends a job in which this rank has waited far longer
// than it should in one phase (a lost message, a deadlocked library, a
// stuck file system): a timer armed when the phase begins and disarmed
// when it ends. It knows nothing of cases or journals; what it says and
// notes when the time runs out is the hung function its caller passes.
package watchdog

import (
	"os"
	"sync"
	"time"
)

// ExitHung is the exit code of a job the watchdog ended.
const ExitHung = 4

// Options configure a Watchdog.
type Options struct {
	Rank    int
	Cleanup func()         // run before the job is aborted: removes benchmark files
	Abort   func(code int) // MPI_Abort on MPI_COMM_WORLD
}

// Watchdog is the timer of one process. Its methods may be called from
// any goroutine.
type Watchdog struct {
	opt   Options
	mu    sync.Mutex
	gen   int // counts Arm and Disarm: an expiry of an older phase is void
	timer *time.Timer
}

// New returns a disarmed Watchdog.
func New(opt Options) *Watchdog { return &Watchdog{opt: opt} }

// Arm watches the phase that begins now, in place of any before it: when
// limit passes before Disarm or the next Arm, hung runs (it tells the user
// and notes the phase), then the cleanups, and the job is aborted with
// ExitHung. A limit of 0 or less watches nothing.
func (w *Watchdog) Arm(limit time.Duration, hung func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stop()
	if limit <= 0 {
		return
	}
	gen := w.gen
	w.timer = time.AfterFunc(limit, func() { w.expire(gen, hung) })
}

// Disarm ends the watch of the current phase.
func (w *Watchdog) Disarm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stop()
}

// stop voids the current timer; w.mu is held.
func (w *Watchdog) stop() {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.gen++
}

// Before it aborts the job, rank 0 waits rootGrace so that the other
// ranks waiting in the phase report too; the others wait grace, so that
// rank 0, blocked in the same phase, notes it hung first.
const (
	rootGrace = time.Second
	grace     = 3 * time.Second
)

// expire ends the job when phase gen is still being watched. It runs on
// the timer's goroutine while the measuring goroutine is blocked in MPI,
// so MPI_Abort is called from a thread other than the one that called
// MPI_Init: both MPI libraries allow that for MPI_Abort in practice, and
// if the job has not ended after a while the process exits by itself.
func (w *Watchdog) expire(gen int, hung func()) {
	w.mu.Lock()
	current := gen == w.gen
	w.mu.Unlock()
	if !current {
		return
	}
	if hung != nil {
		hung()
	}
	if w.opt.Cleanup != nil {
		w.opt.Cleanup()
	}
	if w.opt.Rank == 0 {
		time.Sleep(rootGrace)
	} else {
		time.Sleep(grace)
	}
	if w.opt.Abort != nil {
		w.opt.Abort(ExitHung)
	}
	time.Sleep(10 * time.Second)
	os.Exit(ExitHung)
}
