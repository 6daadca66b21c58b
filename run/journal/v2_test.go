package journal

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// A run of records version 2 (its overlap figures flat on the record),
// interrupted before its last case, resumes: its finished records are
// kept as they were and the run's new records follow under their own
// header, in version 3; the file reads as the kept records and the new.
func TestResumeV2(t *testing.T) {
	src := filepath.Join("..", "..", "analysis", "result", "testdata", "v2", "nbc.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile(src + ".state")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(state), "\n"), "\n")
	last := lines[len(lines)-1]
	const crashed = "nbc/Iallreduce/np2/non-blocking/1024"
	if !strings.HasPrefix(last, "done "+crashed+" ") {
		t.Fatalf("testdata: last journal line %q", last)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(StatePath(path), []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	old, _, err := result.Read(strings.NewReader(string(data)), src)
	if err != nil || len(old) != 4 || old[3].TOvrl == 0 || old[3].CPUMflops == 0 {
		t.Fatalf("testdata: %d records, %v", len(old), err)
	}

	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 || !slices.Equal(r.Crashed, []string{crashed}) || len(r.Done) != 3 {
		t.Fatalf("resumed: done %v crashed %v warnings %v", r.Done, r.Crashed, r.Warnings)
	}
	if !reflect.DeepEqual(kept(t, r), old[:3]) {
		t.Errorf("the finished records changed on resume")
	}
	again := old[3]
	again.Context.Start = "a later start"
	again.TOvrl *= 2
	j.Start(again.Case)
	j.Finish(again.Case, []*result.Record{&again})
	j.Close()

	text, _ := os.ReadFile(path)
	if n := strings.Count(string(text), `{"schema":`); n != 2 {
		t.Errorf("%d run headers after the resumed run, want 2 (the old run's, the new):\n%s", n, text)
	}
	if !strings.Contains(string(text), `{"schema":3,`) || !strings.Contains(string(text), `"overlap":{"t_ovrl_us":`) {
		t.Errorf("the new run is not in version 3:\n%s", text)
	}
	got, warns, err := result.Read(strings.NewReader(string(text)), path)
	want := append(slices.Clone(old[:3]), again)
	if err != nil || len(warns) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("after the resumed run: %d records, warnings %v, %v; want the 3 kept and the new one", len(got), warns, err)
	}
}
