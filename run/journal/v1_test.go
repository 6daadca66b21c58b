package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// A run of the last release that wrote records version 1, interrupted
// before its last case (the journal's last "done" taken away), resumes:
// its finished records are kept as they were, the file is rewritten in
// version 2, and the run's new records follow under their own header.
func TestResumeV1(t *testing.T) {
	src := filepath.Join("..", "..", "analysis", "result", "testdata", "v1", "mpi1.jsonl")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile(src + ".state")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(state), "\n"), "\n")
	last := lines[len(lines)-1] // done mpi1/Barrier/np2/0 1
	if !strings.HasPrefix(last, "done mpi1/Barrier/np2/0 ") {
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
	if err != nil || len(old) != 5 {
		t.Fatalf("testdata: %d records, %v", len(old), err)
	}

	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 || !slices.Equal(r.Crashed, []string{"mpi1/Barrier/np2/0"}) || len(r.Done) != 4 {
		t.Fatalf("resumed: done %v crashed %v warnings %v", r.Done, r.Crashed, r.Warnings)
	}
	if !reflect.DeepEqual(kept(t, r), old[:4]) {
		t.Errorf("the finished records changed on resume")
	}
	again := old[4]
	again.Context.Start = "a later start"
	j.Start(again.Case)
	j.Finish(again.Case, []*result.Record{&again})
	j.Close()

	text, _ := os.ReadFile(path)
	if n := strings.Count(string(text), fmt.Sprintf(`{"schema":%d,`, result.Schema)); n != 2 {
		t.Errorf("%d run headers after the resumed run, want 2 (the old run's, the new):\n%s", n, text)
	}
	got, warns, err := result.Read(strings.NewReader(string(text)), path)
	want := append(slices.Clone(old[:4]), again)
	if err != nil || len(warns) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("after the resumed run: %d records, warnings %v, %v; want the 4 kept and the new one", len(got), warns, err)
	}
}
