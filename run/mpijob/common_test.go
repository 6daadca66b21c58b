package mpijob

import (
	"slices"
	"strings"
	"testing"
	"time"

	"mpibench/run/progress"
)

// splitCommon takes the common flags, spelt -flag, --flag, -flag=value or
// -flag value, anywhere on the line, and leaves every other argument, in
// order, to the suite: the flag package's reading, as every command's.
func TestSplitCommon(t *testing.T) {
	off := time.Duration(-1)
	for _, c := range []struct {
		args string // one argument a line
		want commonFlags
		rest string
	}{
		{"", commonFlags{thread: "single"}, ""},
		{"-timeout\n30", commonFlags{timeout: 30 * time.Second, thread: "single"}, ""},
		{"--timeout=0.5", commonFlags{timeout: 500 * time.Millisecond, thread: "single"}, ""},
		{"-timeout=0", commonFlags{timeout: off, thread: "single"}, ""},
		// Not a flag to the flag package: the command's parser sees it.
		{"---timeout\n2", commonFlags{thread: "single"}, "---timeout\n2"},
		// A switch given "true" is given: the flag package passes the
		// bare flag on so.
		{"-resume=true", commonFlags{resume: true, thread: "single"}, ""},
		{"-msglen\nf\n-timeout\n1e6\nPingPong\n-npmin\n2",
			commonFlags{timeout: 1e6 * time.Second, thread: "single"}, "-msglen\nf\nPingPong\n-npmin\n2"},
		{"-resume\n-x\n--resume", commonFlags{resume: true, thread: "single"}, "-x"},
		{"PingPong\n-thread_level\nmultiple", commonFlags{thread: "multiple"}, "PingPong"},
		{"--thread_level=funneled\n-thread_level=serialized", commonFlags{thread: "serialized"}, ""},
		{"-progress\nfalse", commonFlags{thread: "single", progress: progress.On}, "false"},
		{"-progress=F", commonFlags{thread: "single", progress: progress.Off}, ""},
		{"-\n-=3\n-h\n-timeouts\n3", commonFlags{thread: "single"}, "-\n-=3\n-h\n-timeouts\n3"},
		{"-resume\n--\n-timeout\n3", commonFlags{resume: true, thread: "single"}, "--\n-timeout\n3"},
		{"-timeout\n5\n-timeout\n0.001", commonFlags{timeout: time.Millisecond, thread: "single"}, ""},
	} {
		got, rest, err := splitCommon(splitArgs(c.args))
		if err != nil || got != c.want || !slices.Equal(rest, splitArgs(c.rest)) {
			t.Errorf("%q: %+v, rest %q, %v; want %+v, rest %q", c.args, got, rest, err, c.want, splitArgs(c.rest))
		}
	}
}

// The common flags' errors name the flag and what it wants.
func TestSplitCommonErrors(t *testing.T) {
	seconds := ": want seconds, 0 to 1000000 (0 turns the watchdog off)"
	levels := ": want single, funneled, serialized or multiple"
	for args, want := range map[string]string{
		"-resume=1":               "-resume takes no value",
		"--resume=":               "-resume takes no value",
		"-progress=maybe":         "-progress=maybe: want true or false",
		"-progress=":              "-progress=: want true or false",
		"-timeout":                "-timeout: want a number of seconds",
		"PingPong\n--timeout":     "-timeout: want a number of seconds",
		"-timeout\nsoon":          `-timeout "soon"` + seconds,
		"-timeout=":               `-timeout ""` + seconds,
		"-timeout\n-resume":       `-timeout "-resume"` + seconds,
		"-timeout\n-1":            `-timeout "-1"` + seconds,
		"-timeout\nNaN":           `-timeout "NaN"` + seconds,
		"-timeout\n1e-4":          `-timeout "1e-4"` + seconds,
		"-timeout=1000001":        `-timeout "1000001"` + seconds,
		"-thread_level":           "-thread_level" + levels,
		"-thread_level\nSingle":   `-thread_level "Single"` + levels,
		"--thread_level=":         `-thread_level ""` + levels,
		"-timeout\n3\n-resume=no": "-resume takes no value",
	} {
		_, _, err := splitCommon(splitArgs(args))
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v; want %s", args, err, want)
		}
		if strings.HasPrefix(args, "-thread_level") || strings.HasPrefix(args, "--thread_level") {
			if _, err := threadLevel(splitArgs(args)); err == nil || err.Error() != want {
				t.Errorf("threadLevel(%q): %v; want %s", args, err, want)
			}
		}
	}
}
