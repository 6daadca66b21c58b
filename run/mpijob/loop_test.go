package mpijob

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/run/cases"
	"mpibench/run/journal"
	"mpibench/run/progress"
)

// testLoop is a loop of rank 0 on a fresh journal, resuming a run that
// finished case "kept" (one record) and hung in "hung"; it notes every
// step in *log. speaking makes every write go through a fake Speak.
func testLoop(t *testing.T, speaking bool, log *[]string) (*Loop, *journal.Journal, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := journal.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	res := resumed(t, filepath.Join(t.TempDir(), "old.jsonl"))
	rec := cases.New(cases.Options{Name: "test", Timeout: -1, Journal: j, Resumed: res, Progress: progress.Off})
	l := &Loop{cases: rec}
	if speaking {
		l.speak = func(write func() error) error {
			*log = append(*log, "speak")
			return write()
		}
	}
	return l, j, path
}

// resumed is what -resume reads of an earlier run into path that
// finished case "kept" (one record) and hung in "hung".
func resumed(t *testing.T, path string) *journal.Resumed {
	t.Helper()
	j, err := journal.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	_ = j.Start("kept")
	_ = j.Finish("kept", []*result.Record{{Suite: result.SuiteMPI1, Benchmark: "stored"}})
	_ = j.Start("hung")
	_ = j.Hung("hung")
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j, res, err := journal.Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return res
}

// step is a case key whose functions note what they are called with.
func step(key string, log *[]string) Step {
	return Step{Case: cases.Case{Benchmark: key, Key: key},
		Measure: func() ([]*result.Record, error) {
			*log = append(*log, "measure "+key)
			return []*result.Record{{Benchmark: "new", Case: key}}, nil
		},
		Show: func(recs []*result.Record) error {
			names := []string{"show"}
			for _, r := range recs {
				names = append(names, r.Benchmark)
			}
			*log = append(*log, strings.Join(names, " "))
			return nil
		},
	}
}

// A Speaking loop shows a kept case from the journal, says that the
// resumed run hung in one, and measures, writes, shows and ends the
// others, each write spoken once.
func TestLoopSpeaking(t *testing.T) {
	var log []string
	l, _, path := testLoop(t, true, &log)
	recs, kept, err := l.Run(step("kept", &log))
	if err != nil || !kept || len(recs) != 1 || recs[0].Benchmark != "stored" {
		t.Fatalf("kept: %v, %v, %v", recs, kept, err)
	}
	hung := step("hung", &log)
	hung.Hung = func() error { log = append(log, "hung"); return nil }
	if _, kept, err := l.Run(hung); err != nil || !kept {
		t.Fatalf("hung: %v, %v", kept, err)
	}
	if _, _, err := l.Run(step("hung", &log)); err != nil { // without Hung: Show gets nothing
		t.Fatal(err)
	}
	recs, kept, err = l.Run(step("new", &log))
	if err != nil || kept || len(recs) != 1 {
		t.Fatalf("new: %v, %v, %v", recs, kept, err)
	}
	silent := step("kept", &log)
	silent.Show = nil
	if _, _, err := l.Run(silent); err != nil {
		t.Fatal(err)
	}
	want := []string{"speak", "show stored", "speak", "hung", "speak", "show", "measure new", "speak", "show new"}
	if !slices.Equal(log, want) {
		t.Errorf("steps %q, want %q", log, want)
	}
	state, _ := os.ReadFile(journal.StatePath(path))
	if got := string(state); got != "start new\ndone new 1\n" {
		t.Errorf("journal state:\n%s", got)
	}
}

// A failed write of a Speaking loop is every rank's error at once.
func TestLoopSpeakingFails(t *testing.T) {
	var log []string
	l, _, _ := testLoop(t, true, &log)
	s := step("new", &log)
	s.Show = func([]*result.Record) error { return errors.New("full") }
	if _, _, err := l.Run(s); err == nil || err.Error() != "full" {
		t.Errorf("error %v, want full", err)
	}
}

// A GoingOn loop keeps the first failed write of the text and of the
// records, writes no more text after it, measures on, and Err tells the
// records' failure first.
func TestLoopGoingOn(t *testing.T) {
	var log []string
	l, j, _ := testLoop(t, false, &log)
	bad := step("a", &log)
	bad.Show = func([]*result.Record) error { log = append(log, "fail"); return errors.New("text") }
	if _, _, err := l.Run(bad); err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Run(step("b", &log)); err != nil {
		t.Fatal(err)
	}
	if err := l.Err(); err == nil || err.Error() != "text" {
		t.Errorf("Err %v, want text", err)
	}
	_ = j.Close() // the journal's next write fails
	if _, _, err := l.Run(step("c", &log)); err != nil {
		t.Fatal(err)
	}
	if err := l.Err(); err == nil || err.Error() == "text" {
		t.Errorf("Err %v, want the journal's", err)
	}
	want := []string{"measure a", "fail", "measure b", "measure c"}
	if !slices.Equal(log, want) {
		t.Errorf("steps %q, want %q", log, want)
	}
}

// A failed measurement writes nothing; Again measures a kept case anew.
func TestLoopMeasureErrorAndAgain(t *testing.T) {
	var log []string
	l, _, path := testLoop(t, false, &log)
	s := step("x", &log)
	s.Measure = func() ([]*result.Record, error) { return nil, errors.New("MPI") }
	if _, _, err := l.Run(s); err == nil || err.Error() != "MPI" {
		t.Errorf("error %v, want MPI", err)
	}
	again := step("hung", &log)
	again.Again = true
	if _, kept, err := l.Run(again); err != nil || kept {
		t.Errorf("again: %v, %v", kept, err)
	}
	want := []string{"measure hung", "show new"}
	if !slices.Equal(log, want) {
		t.Errorf("steps %q, want %q", log, want)
	}
	state, _ := os.ReadFile(journal.StatePath(path))
	if got := string(state); got != "start x\nstart hung\ndone hung 1\n" {
		t.Errorf("journal state:\n%s", got)
	}
}
