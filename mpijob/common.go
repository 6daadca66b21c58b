package mpijob

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"mpibench/mpi"
	"mpibench/progress"
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
`

// commonFlags are the flags every MPI command takes.
type commonFlags struct {
	timeout  time.Duration // cases.Options.Timeout: 0 default, < 0 off
	resume   bool
	thread   string        // -thread_level, one of mpi.ThreadLevelNames
	progress progress.Mode // -progress: Auto unless given
}

// defaultThreadLevel is IMB 2021's default (imb.cpp: "single", which calls
// MPI_Init_thread with MPI_THREAD_SINGLE). It is honest: mpibench makes
// every MPI call from its one locked OS thread, and the Go runtime's other
// threads never call MPI. It is also the fastest: see README.md, "Thread
// level".
const defaultThreadLevel = "single"

// splitCommon takes the common flags out of args, in -flag, --flag,
// -flag=value and -flag value forms, and leaves the rest, in order, to the
// command. A value that is itself spelt -resume or -timeout is not told
// apart from the flag.
func splitCommon(args []string) (commonFlags, []string, error) {
	c := commonFlags{thread: defaultThreadLevel}
	var rest []string
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if args[i] == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if !strings.HasPrefix(args[i], "-") {
			rest = append(rest, args[i])
			continue
		}
		switch name {
		case "resume":
			if hasVal {
				return c, nil, fmt.Errorf("-resume takes no value")
			}
			c.resume = true
		case "progress":
			p, err := parseProgress(val, hasVal)
			if err != nil {
				return c, nil, err
			}
			c.progress = p
		case "timeout":
			if !hasVal {
				if val, i = nextValue(args, i); i < 0 {
					return c, nil, fmt.Errorf("-timeout: want a number of seconds")
				}
			}
			t, err := parseTimeout(val)
			if err != nil {
				return c, nil, err
			}
			c.timeout = t
		case "thread_level":
			if !hasVal {
				if val, i = nextValue(args, i); i < 0 {
					return c, nil, fmt.Errorf("-thread_level: want single, funneled, serialized or multiple")
				}
			}
			if _, err := mpi.ParseThreadLevel(val); err != nil {
				return c, nil, err
			}
			c.thread = val
		default:
			rest = append(rest, args[i])
		}
	}
	return c, rest, nil
}

// parseProgress reads -progress, -progress=true or -progress=false.
func parseProgress(v string, hasVal bool) (progress.Mode, error) {
	on, err := strconv.ParseBool(v)
	switch {
	case !hasVal:
		return progress.On, nil
	case err != nil:
		return 0, fmt.Errorf("-progress=%s: want true or false", v)
	case on:
		return progress.On, nil
	}
	return progress.Off, nil
}

// parseTimeout reads -timeout's seconds: 0 is off.
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

// nextValue is the value of the flag args[i] given as the next argument
// ("-flag value") and that argument's index, or -1 when there is none.
func nextValue(args []string, i int) (string, int) {
	if i+1 == len(args) {
		return "", -1
	}
	return args[i+1], i + 1
}
