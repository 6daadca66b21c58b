// Package cases keeps the measured cases of a run. Its Recorder notes each
// case in the journal as it begins, writes the case's Records when it
// finishes, answers what -resume kept, and has the watchdog (package
// watchdog) watch the case and the progress line (package progress) show
// it. Drivers call Begin before a case and End after it on every rank,
// and Finish with the case's Records on rank 0.
//
// A nil *Recorder does nothing, so that drivers run without one in tests.
package cases

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"mpibench/analysis/result"
	"mpibench/run/journal"
	"mpibench/run/progress"
	"mpibench/run/watchdog"
)

// Options configure a Recorder.
type Options struct {
	Name    string // the command, in the progress line
	Rank    int
	Timeout time.Duration // -timeout: the limit of every case; 0 DefaultLimit; < 0 no watchdog
	Journal *journal.Journal
	Resumed *journal.Resumed // what -resume read, on every rank; nil for a fresh run
	Fault   *Fault           // test-only fault injection (mutant builds); nil for none
	// Progress shows the progress line on rank 0: On, Off, or Auto when
	// the launcher's stderr is a terminal.
	Progress progress.Mode
	Stderr   io.Writer
	Cleanup  func()         // run before the job is aborted: removes benchmark files
	Abort    func(code int) // MPI_Abort on MPI_COMM_WORLD
}

// terminal is progress.Terminal; the tests replace it.
var terminal = progress.Terminal

// Recorder keeps the cases of one process.
type Recorder struct {
	opt    Options
	dog    *watchdog.Watchdog
	meter  *progress.Meter // rank 0 with progress; else nil
	stderr io.Writer       // opt.Stderr, through the meter when there is one
	err    error           // a failed journal write of Begin, returned by Finish
	mu     sync.Mutex
	cur    *Case // the case or phase being watched
	inCase bool  // cur is a measured case, not a phase of Watch
}

// New returns a Recorder.
func New(opt Options) *Recorder {
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	r := &Recorder{opt: opt, stderr: opt.Stderr,
		dog: watchdog.New(watchdog.Options{Rank: opt.Rank, Cleanup: opt.Cleanup, Abort: opt.Abort})}
	if opt.Rank == 0 && opt.Progress != progress.Off {
		tty := terminal()
		if tty || opt.Progress == progress.On {
			r.meter = progress.New(opt.Stderr, opt.Name, tty)
			r.stderr = r.meter.Writer()
			if res := opt.Resumed; res != nil {
				r.meter.Kept(len(res.Done) + len(res.Hung))
			}
		}
	}
	return r
}

// Stderr is where the run's other messages go on this rank: on a
// terminal with a progress line they clear it first.
func (r *Recorder) Stderr() io.Writer {
	if r == nil {
		return os.Stderr
	}
	return r.stderr
}

// SetTotal tells the progress line how many cases the run has, those
// -resume skips included. Drivers call it once, on every rank, before the
// first case.
func (r *Recorder) SetTotal(n int) {
	if r != nil {
		r.meter.SetTotal(n)
	}
}

// Close ends the progress line.
func (r *Recorder) Close() {
	if r != nil {
		r.meter.Close()
	}
}

// Skip tells whether case key is not to be measured: it finished in the
// resumed run, or the watchdog ended that run in it (measuring it again
// would most likely hang again; a run without -resume retries it).
func (r *Recorder) Skip(key string) bool {
	return r != nil && (r.opt.Resumed.IsDone(key) || r.opt.Resumed.IsHung(key))
}

// Hung tells whether the watchdog ended the resumed run in case key.
func (r *Recorder) Hung(key string) bool { return r != nil && r.opt.Resumed.IsHung(key) }

// Stored reads the Records that case key left in the resumed run (rank
// 0's; none elsewhere).
func (r *Recorder) Stored(key string) ([]result.Record, error) {
	if r == nil {
		return nil, nil
	}
	return r.opt.Resumed.Stored(key)
}

// Begin arms the watchdog for c, shows it in the progress line and, on
// rank 0, notes in the journal that c starts. A failed journal write is
// returned by Finish, where rank 0 shares its errors with the others.
func (r *Recorder) Begin(c Case) {
	if r == nil {
		return
	}
	r.watch(c, true)
	r.meter.Begin(c.what(), c.Expect)
	if r.opt.Journal != nil && r.opt.Rank == 0 && r.err == nil {
		r.err = r.opt.Journal.Start(c.Key)
	}
	r.opt.Fault.strike(r.opt.Rank, c.Key)
}

// Watch arms the watchdog for a phase that is not a measured case (the
// setup of one: windows, files), which the journal and the progress line
// do not know.
func (r *Recorder) Watch(c Case) {
	if r != nil {
		r.watch(c, false)
	}
}

// Finish, on rank 0, writes the Records of the current case to the
// journal and notes the case done. It hides the progress line first:
// drivers print the case's results next.
func (r *Recorder) Finish(recs []*result.Record) error {
	if r == nil {
		return nil
	}
	r.meter.Hide()
	if r.opt.Journal == nil {
		return nil
	}
	if r.err != nil {
		return r.err
	}
	key := r.curKey()
	if key == "" {
		return fmt.Errorf("cases: Finish outside a case")
	}
	return r.opt.Journal.Finish(key, recs)
}

// curKey is the key of the case being measured, "" outside one.
func (r *Recorder) curKey() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil {
		return ""
	}
	return r.cur.Key
}

// Stream writes one record of the case being measured at once, on rank
// 0, where the case's records are too many to hold until Finish. Finish
// counts it; its error is Finish's too.
func (r *Recorder) Stream(rec *result.Record) error {
	if r == nil || r.opt.Journal == nil {
		return nil
	}
	if r.err != nil {
		return r.err
	}
	key := r.curKey()
	if key == "" {
		return fmt.Errorf("cases: Stream outside a case")
	}
	if err := r.opt.Journal.Stream(key, rec); err != nil {
		r.err = err
	}
	return r.err
}

// End disarms the watchdog; the case (or phase) is over.
func (r *Recorder) End() {
	if r == nil {
		return
	}
	r.dog.Disarm()
	r.mu.Lock()
	inCase := r.inCase
	r.cur, r.inCase = nil, false
	r.mu.Unlock()
	if inCase {
		r.meter.End()
	}
}

// Limit is the watchdog limit of c.
func (r *Recorder) Limit(c Case) time.Duration {
	if r.opt.Timeout != 0 {
		return r.opt.Timeout
	}
	return DefaultLimit(c)
}

// watch makes c the current case or phase and arms the watchdog for it.
func (r *Recorder) watch(c Case, inCase bool) {
	r.mu.Lock()
	r.cur, r.inCase = &c, inCase
	r.mu.Unlock()
	if r.opt.Timeout < 0 {
		r.dog.Disarm()
		return
	}
	limit := r.Limit(c)
	r.dog.Arm(limit, func() { r.hung(c, limit) })
}

// hung tells the user that this rank waited more than limit in c and, on
// rank 0, marks c hung in the journal; the watchdog then ends the job.
func (r *Recorder) hung(c Case, limit time.Duration) {
	r.meter.Hide()
	recorded := ""
	if r.opt.Journal != nil {
		recorded = "the journal records the case as hung and " // rank 0 keeps it
	}
	_, _ = fmt.Fprintf(r.stderr, "mpibench %s: watchdog: rank %d waited more than %v in %s, %d bytes, %d processes; "+
		"%sthe job ends (exit code %d)\n",
		c.Suite, r.opt.Rank, limit, c.Benchmark, c.Bytes, c.Procs, recorded, ExitHung)
	if r.opt.Journal != nil && r.opt.Rank == 0 {
		if err := r.opt.Journal.Hung(c.Key); err != nil {
			_, _ = fmt.Fprintf(r.stderr, "mpibench %s: journal: %v\n", c.Suite, err)
		}
	}
}
