package mpijob

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"mpibench/internal/cli"
	"mpibench/mpi"
	"mpibench/run/progress"
)

// commonUsage is appended to the help of every command that runs under
// MPI.
const commonUsage = `
Common to every MPI command:
  -timeout S     watchdog: end the job (exit code 4) when one measured case
                 takes more than S seconds; the journal marks it hung.
                 0 turns the watchdog off. Default: 60 s + 3 x the case's
                 scheduled time + repetitions x (1 ms + bytes x processes
                 / 10 MB/s), per case, at most 100 days.
  -thread_level L
                 single, funneled, serialized or multiple: the level
                 MPI_Init_thread asks for, as IMB's flag (records carry the
                 level provided). Default: single, IMB's default; mpibench
                 makes every MPI call from one OS thread.
  -progress      show on stderr, from rank 0, which case of how many runs,
                 the time elapsed and an estimate of the time left, a line
                 per case. Default: on, one line redrawn in place, when
                 mpirun's stderr is a terminal; -progress=false turns it off.
  -resume        continue a run that was killed, interrupted or hung: keep
                 the finished cases of its results file, measure the rest,
                 skip the case it hung in (FILE.state is the journal)
  -append        add this run to the results file after the runs it holds,
                 which stay as they are (without it a run replaces the file,
                 and says so): several launches of one side of a compare
                 in one file
`

// commonFlags are the flags every MPI command takes.
type commonFlags struct {
	timeout  time.Duration // cases.Options.Timeout: 0 default, < 0 off
	resume   bool
	append   bool
	thread   string        // -thread_level, one of mpi.ThreadLevelNames
	progress progress.Mode // -progress: Auto unless given
}

// defaultThreadLevel is IMB 2021's default (imb.cpp: "single", which calls
// MPI_Init_thread with MPI_THREAD_SINGLE). It is honest: mpibench makes
// every MPI call from its one locked OS thread, and the Go runtime's other
// threads never call MPI. It is also the fastest: see docs/running.md, "Thread
// level".
const defaultThreadLevel = "single"

// splitCommon takes the common flags out of args, wherever they come, in
// every spelling the flag package reads (cli.Extract), and leaves the
// rest, in order, to the command. A value that is itself spelt -resume or
// -timeout is not told apart from the flag.
func splitCommon(args []string) (commonFlags, []string, error) {
	c := commonFlags{thread: defaultThreadLevel}
	fs, bad := c.commonSet()
	rest, err := cli.Extract(fs, args)
	if err != nil {
		return c, nil, commonError(fs, err, *bad)
	}
	return c, rest, nil
}

// commonSet is the flag set of the common flags, writing into c. The
// errors of its values are whole messages, kept in *bad as they are
// rather than in the flag package's words.
func (c *commonFlags) commonSet() (*flag.FlagSet, *error) {
	fs := cli.NewFlags("common")
	bad := new(error)
	keep := func(set func(string) error) func(string) error {
		return func(v string) error {
			*bad = set(v)
			return *bad
		}
	}
	resume := cli.Switch{On: &c.resume}
	fs.BoolFunc("resume", "", keep(func(v string) error {
		if resume.Set(v) != nil {
			return errors.New("-resume takes no value")
		}
		return nil
	}))
	appendRun := cli.Switch{On: &c.append}
	fs.BoolFunc("append", "", keep(func(v string) error {
		if appendRun.Set(v) != nil {
			return errors.New("-append takes no value")
		}
		return nil
	}))
	// As the flag package's bool flags, but Auto until given.
	fs.BoolFunc("progress", "", keep(func(v string) error {
		on, err := strconv.ParseBool(v)
		switch {
		case err != nil:
			return fmt.Errorf("-progress=%s: want true or false", v)
		case on:
			c.progress = progress.On
		default:
			c.progress = progress.Off
		}
		return nil
	}))
	fs.Func("timeout", "-timeout: want a number of seconds", keep(func(v string) (err error) {
		c.timeout, err = parseTimeout(v)
		return err
	}))
	fs.Func("thread_level", "-thread_level: want single, funneled, serialized or multiple", keep(func(v string) error {
		_, err := mpi.ParseThreadLevel(v)
		if err == nil {
			c.thread = v
		}
		return err
	}))
	return fs, bad
}

// commonError is the error of a common flag: its value's own, or, when
// the flag package found no value to give the flag, its usage line, which
// says what the flag wants.
func commonError(fs *flag.FlagSet, err, bad error) error {
	if bad != nil {
		return bad
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag needs an argument: -"); ok && fs.Lookup(name) != nil {
		return errors.New(fs.Lookup(name).Usage)
	}
	return err
}

// parseTimeout reads -timeout's seconds: 0 is off. Not cli.Seconds, which
// takes no 0 but a word for off, and no floor: here 0, spelt any way
// ParseFloat reads it, is off, and below a millisecond is refused.
func parseTimeout(v string) (time.Duration, error) {
	s, err := strconv.ParseFloat(v, 64)
	// Below a millisecond no case can finish: a typo, not a limit.
	if err != nil || s < 0 || math.IsNaN(s) || s > 1e6 || (s > 0 && s < 1e-3) {
		return 0, fmt.Errorf("-timeout %q: want seconds, 0 to 1000000 (0 turns the watchdog off)", v)
	}
	if s == 0 {
		return -1, nil
	}
	return time.Duration(s * float64(time.Second)), nil
}
