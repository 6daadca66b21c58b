package e2e

// The results file and its journal after a fault and a resume, as the
// fault tests of every suite read them.

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Line is what the fault tests read of a record.
type Line struct {
	Case      string  `json:"case"`
	Benchmark string  `json:"benchmark"`
	Class     string  `json:"class"`
	TMax      float64 `json:"t_max_us"`
}

// ReadLines reads a results file; with partial, a last line cut short (by
// a signal in the middle of a write) is allowed.
func ReadLines(t *testing.T, path string, partial bool) []Line {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var out []Line
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var runs runHeaders
	for i, line := range lines {
		if line == "" && len(lines) == 1 {
			break
		}
		line, ok := runs.v1(line)
		if !ok {
			continue
		}
		var l Line
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			if partial && i == len(lines)-1 && !strings.HasSuffix(text, "\n") {
				break
			}
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, l)
	}
	return out
}

// DoneCases is the journal's verdict: the cases whose last event is "done N"
// with their N.
func DoneCases(t *testing.T, out string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(out + ".state")
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "done":
			done[f[1]], _ = strconv.Atoi(f[2])
		case len(f) == 2:
			delete(done, f[1])
		}
	}
	return done
}

// KeptCases checks that every case the journal calls done has its records
// in the results file, and returns those records by case.
func KeptCases(t *testing.T, out string, partial bool) map[string][]Line {
	t.Helper()
	byCase := map[string][]Line{}
	for _, l := range ReadLines(t, out, partial) {
		byCase[l.Case] = append(byCase[l.Case], l)
	}
	done := DoneCases(t, out)
	kept := map[string][]Line{}
	for key, n := range done {
		if n > 0 && len(byCase[key]) != n {
			t.Errorf("%s: done with %d records, the results file has %d", key, n, len(byCase[key]))
		}
		kept[key] = byCase[key]
	}
	if len(done) == 0 {
		t.Errorf("no case finished before the fault")
	}
	return kept
}

// OnceEach checks that the results file holds the records of every case in
// keys, together and as many as the journal counts, no other case, and
// one summary, last.
func OnceEach(t *testing.T, out string, keys []string, summary string) {
	t.Helper()
	lines := ReadLines(t, out, false)
	count := map[string]int{}
	for i, l := range lines {
		switch {
		case l.Case == "" && (l.Benchmark != summary || i != len(lines)-1):
			t.Errorf("record %d has no case and is not the summary at the end: %+v", i+1, l)
		case l.Case == "":
		case count[l.Case] > 0 && lines[i-1].Case != l.Case:
			t.Errorf("record %d: case %s twice", i+1, l.Case)
		}
		count[l.Case]++
	}
	done := DoneCases(t, out)
	for _, k := range keys {
		if count[k] == 0 || count[k] != done[k] {
			t.Errorf("case %s: %d records, the journal says %d", k, count[k], done[k])
		}
	}
	for k := range count {
		if k != "" && !slices.Contains(keys, k) {
			t.Errorf("case %s is not one of the run", k)
		}
	}
	if n := len(lines); n == 0 || lines[n-1].Benchmark != summary {
		t.Errorf("the last record is not the %s summary", summary)
	}
}

// SameRecords checks that the records of the cases finished before a resume
// are the ones in the final file, not measured again.
func SameRecords(t *testing.T, before map[string][]Line, out string) {
	t.Helper()
	after := map[string][]Line{}
	for _, l := range ReadLines(t, out, false) {
		after[l.Case] = append(after[l.Case], l)
	}
	for key, recs := range before {
		if !slices.Equal(recs, after[key]) {
			t.Errorf("%s: the resumed run changed its records\nbefore %+v\nafter  %+v", key, recs, after[key])
		}
	}
}

// Shape is the text output with every number replaced by N and the
// lines naming the run (date, command line) left out: the tables of two
// runs of the same plan have the same shape. The marks of a case cut by
// a bound (IMB's -time line under a row, b_eff_io's "< -disk") depend on
// the speed of the moment and are left out too.
func Shape(out string) []string {
	var shape []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "# Date") || strings.HasPrefix(line, "# Calling sequence") ||
			strings.HasPrefix(line, "#   ^ ") || strings.HasPrefix(line, "# < -disk:") {
			continue
		}
		line = strings.TrimSuffix(line, "  < -disk")
		f := strings.Fields(line)
		for i, w := range f {
			if _, err := strconv.ParseFloat(w, 64); err == nil {
				f[i] = "N"
			}
		}
		shape = append(shape, strings.Join(f, " "))
	}
	return shape
}

// SameShape requires got and want, two text outputs, to have the same
// Shape.
func SameShape(t *testing.T, got, want string) {
	t.Helper()
	g, w := Shape(got), Shape(want)
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Errorf("text output line %d after the resume:\n%s\nan uninterrupted run:\n%s", i+1, g[i], w[i])
			return
		}
	}
	if len(g) != len(w) {
		t.Errorf("text output after the resume has %d lines, an uninterrupted run %d", len(g), len(w))
	}
}

// Interrupted checks the exit of a run whose ranks all got sig.
func Interrupted(t *testing.T, r Result, sig syscall.Signal) {
	t.Helper()
	// MPICH's mpiexec ends the other ranks with SIGHUP once one has
	// exited, and may report that (129) or 0/1 instead.
	if want := 128 + int(sig); r.Code != want && LauncherKind() == "openmpi" {
		t.Errorf("exit code %d, want %d\n%s", r.Code, want, r)
	}
	if !strings.Contains(r.Stderr, "interrupted by") {
		t.Errorf("no interruption notice\n%s", r)
	}
}
