package cases

import (
	"fmt"
	"math"
	"time"

	"mpibench/run/watchdog"
)

// ExitHung is the exit code of a job the watchdog ended.
const ExitHung = watchdog.ExitHung

// Case is one measured case: what the watchdog reports when it hangs, what
// the progress line shows, and the key the journal knows it by.
type Case struct {
	Suite     string
	Benchmark string
	Bytes     int64
	Procs     int
	Reps      int           // repetitions (or an upper bound of them)
	Key       string        // unique in the run, no spaces
	Expect    time.Duration // time the case is planned to take, if it has a schedule; else 0
}

// what describes the case to the user: "PingPong, 1024 bytes, 2 processes".
func (c Case) what() string {
	return fmt.Sprintf("%s, %d bytes, %d processes", c.Benchmark, c.Bytes, c.Procs)
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
