// Package guard watches every measured case of a run: a watchdog that ends
// the job when a case takes far longer than it should, the journal that
// records each finished case (and the hung one), and what -resume learned
// from an earlier run. Drivers call Begin before a case and End after it
// on every rank, and Finish with the case's Records on rank 0.
//
// A nil *Guard does nothing, so that drivers run without one in tests.
package guard

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"mpibench/journal"
	"mpibench/result"
)

// ExitHung is the exit code of a job the watchdog ended.
const ExitHung = 4

// Case is one measured case: what the watchdog reports when it hangs and
// the key the journal knows it by.
type Case struct {
	Suite     string
	Benchmark string
	Bytes     int64
	Procs     int
	Reps      int           // repetitions (or an upper bound of them)
	Key       string        // unique in the run, no spaces
	Expect    time.Duration // time the case is planned to take, if it has a schedule; else 0
}

// Base, PerRep and Floor make the default limit of a case: generous enough
// for an oversubscribed laptop and a slow file system, far below forever.
const (
	Base   = 60 * time.Second
	PerRep = time.Millisecond
	Floor  = 10e6 // bytes per second that every process moves at least
)

// MaxDefaultLimit caps DefaultLimit: a case planned to take longer is
// watched for 100 days, not for a time.Duration that overflowed.
const MaxDefaultLimit = 100 * 24 * time.Hour

// DefaultLimit is the watchdog limit of a case without -timeout:
// Base + 3·Expect + Reps·(PerRep + Bytes·Procs/Floor), at least Base and
// at most MaxDefaultLimit. It is computed in floating point, so that no
// Case, however large its figures, makes it overflow or go negative.
func DefaultLimit(c Case) time.Duration {
	move := float64(c.Bytes) * float64(max(c.Procs, 1)) / Floor * float64(time.Second)
	ns := float64(Base) + 3*float64(c.Expect) + float64(max(c.Reps, 1))*(float64(PerRep)+move)
	switch {
	case !(ns < float64(MaxDefaultLimit)): // NaN too
		return MaxDefaultLimit
	case ns < float64(Base):
		return Base
	}
	return time.Duration(math.Round(ns))
}

// Seconds converts seconds to a Duration for Case.Expect, saturating at
// the largest one (NaN too) instead of overflowing; a negative time is
// none.
func Seconds(sec float64) time.Duration {
	ns := sec * float64(time.Second)
	switch {
	case !(ns < math.MaxInt64):
		return math.MaxInt64
	case ns < 0:
		return 0
	}
	return time.Duration(ns)
}

// Options configure a Guard.
type Options struct {
	Rank    int
	Timeout time.Duration // -timeout: the limit of every case; 0 DefaultLimit; < 0 no watchdog
	Journal *journal.Journal
	Resumed *journal.Resumed // what -resume read, on every rank; nil for a fresh run
	Fault   *Fault           // test-only fault injection; nil for none
	Stderr  io.Writer
	Cleanup func()         // run before the job is aborted: removes benchmark files
	Abort   func(code int) // MPI_Abort on MPI_COMM_WORLD
}

// Guard is the watchdog and journal of one process.
type Guard struct {
	opt   Options
	err   error // a failed journal write of Begin, returned by Finish
	mu    sync.Mutex
	cur   *Case
	gen   int
	timer *time.Timer
}

// New returns a Guard.
func New(opt Options) *Guard {
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	return &Guard{opt: opt}
}

// Skip tells whether case key is not to be measured: it finished in the
// resumed run, or the watchdog ended that run in it (measuring it again
// would most likely hang again; a run without -resume retries it).
func (g *Guard) Skip(key string) bool {
	return g != nil && (g.opt.Resumed.IsDone(key) || g.opt.Resumed.IsHung(key))
}

// Hung tells whether the watchdog ended the resumed run in case key.
func (g *Guard) Hung(key string) bool { return g != nil && g.opt.Resumed.IsHung(key) }

// Stored returns the Records that case key left in the resumed run.
func (g *Guard) Stored(key string) []result.Record {
	if g == nil {
		return nil
	}
	return g.opt.Resumed.Stored(key)
}

// Begin arms the watchdog for c and, on rank 0, notes in the journal that
// c starts. A failed journal write is returned by Finish, where rank 0
// shares its errors with the others.
func (g *Guard) Begin(c Case) {
	if g == nil {
		return
	}
	g.arm(c)
	if g.opt.Journal != nil && g.opt.Rank == 0 && g.err == nil {
		g.err = g.opt.Journal.Start(c.Key)
	}
	g.opt.Fault.strike(g.opt.Rank, c.Key)
}

// Watch arms the watchdog for a phase that is not a measured case (the
// setup of one: windows, files), which the journal does not know.
func (g *Guard) Watch(c Case) {
	if g != nil {
		g.arm(c)
	}
}

// Finish, on rank 0, writes the Records of the current case to the
// journal and notes the case done.
func (g *Guard) Finish(recs []*result.Record) error {
	if g == nil || g.opt.Journal == nil {
		return nil
	}
	if g.err != nil {
		return g.err
	}
	g.mu.Lock()
	key := ""
	if g.cur != nil {
		key = g.cur.Key
	}
	g.mu.Unlock()
	if key == "" {
		return fmt.Errorf("guard: Finish outside a case")
	}
	return g.opt.Journal.Finish(key, recs)
}

// End disarms the watchdog.
func (g *Guard) End() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.timer != nil {
		g.timer.Stop()
	}
	g.gen++
	g.cur = nil
}

// Limit is the watchdog limit of c.
func (g *Guard) Limit(c Case) time.Duration {
	if g.opt.Timeout != 0 {
		return g.opt.Timeout
	}
	return DefaultLimit(c)
}

func (g *Guard) arm(c Case) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.timer != nil {
		g.timer.Stop()
	}
	g.gen++
	g.cur = &c
	if g.opt.Timeout < 0 {
		return
	}
	gen, limit := g.gen, g.Limit(c)
	g.timer = time.AfterFunc(limit, func() { g.expire(gen, limit) })
}

// Before it aborts the job, rank 0 waits rootGrace so that the other
// ranks waiting in the case report too; the others wait grace, so that
// rank 0, blocked in the same case, notes it hung first.
const (
	rootGrace = time.Second
	grace     = 3 * time.Second
)

// expire ends the job when case gen is still running. It runs on the
// timer's goroutine while the measuring goroutine is blocked in MPI, so
// MPI_Abort is called from a thread other than the one that called
// MPI_Init: both MPI libraries allow that for MPI_Abort in practice, and
// if the job has not ended after a while the process exits by itself.
func (g *Guard) expire(gen int, limit time.Duration) {
	g.mu.Lock()
	if gen != g.gen || g.cur == nil {
		g.mu.Unlock()
		return
	}
	c := *g.cur
	g.mu.Unlock()
	recorded := ""
	if g.opt.Journal != nil {
		recorded = "the journal records the case as hung and " // rank 0 keeps it
	}
	fmt.Fprintf(g.opt.Stderr, "mpibench %s: watchdog: rank %d waited more than %v in %s, %d bytes, %d processes; "+
		"%sthe job ends (exit code %d)\n",
		c.Suite, g.opt.Rank, limit, c.Benchmark, c.Bytes, c.Procs, recorded, ExitHung)
	if g.opt.Journal != nil && g.opt.Rank == 0 {
		if err := g.opt.Journal.Hung(c.Key); err != nil {
			fmt.Fprintf(g.opt.Stderr, "mpibench %s: journal: %v\n", c.Suite, err)
		}
	}
	if g.opt.Cleanup != nil {
		g.opt.Cleanup()
	}
	if g.opt.Rank == 0 {
		time.Sleep(rootGrace)
	} else {
		time.Sleep(grace)
	}
	if g.opt.Abort != nil {
		g.opt.Abort(ExitHung)
	}
	time.Sleep(10 * time.Second)
	os.Exit(ExitHung)
}
