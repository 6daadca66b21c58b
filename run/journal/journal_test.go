package journal

import (
	"os"
	"slices"
	"strings"
	"testing"

	"path/filepath"

	"mpibench/analysis/result"
)

// kept reads back the Records of every finished case, in the order
// they finished.
func kept(t testing.TB, r *Resumed) []result.Record {
	t.Helper()
	var out []result.Record
	for _, key := range r.Done {
		recs, err := r.Stored(key)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recs...)
	}
	return out
}

func recs(key string, n int) []*result.Record {
	var out []*result.Record
	for i := 0; i < n; i++ {
		out = append(out, &result.Record{Suite: "mpi1", Benchmark: key, Bytes: i})
	}
	return out
}

// A run that finished A, crashed in B after writing part of it, and left
// half a line behind: resuming keeps A, reports B crashed and the line,
// and the rewritten files hold A only.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Start("A")
	j.Finish("A", recs("A", 2))
	j.Start("B")
	b := recs("B", 1)[0]
	b.Case = "B"
	j.Write(b) // as if B wrote part of its rows
	j.out.WriteString(`{"suite":"mpi1","bench`)
	j.Close()

	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Done, []string{"A"}) || !slices.Equal(r.Crashed, []string{"B"}) || len(r.Warnings) != 1 {
		t.Fatalf("resumed: done %v crashed %v warnings %v", r.Done, r.Crashed, r.Warnings)
	}
	if got := kept(t, r); len(got) != 2 || got[0].Case != "A" || !r.IsDone("A") || r.IsDone("B") {
		t.Errorf("records %+v", got)
	}
	// The run goes on: C hangs.
	j.Start("C")
	j.Hung("C")
	j.Close()
	_, r, err = Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Hung, []string{"C"}) || !slices.Equal(r.Crashed, []string{"B"}) || !r.IsHung("C") {
		t.Errorf("second resume: hung %v crashed %v", r.Hung, r.Crashed)
	}
	data, _ := os.ReadFile(path)
	got, warns, _ := result.Read(strings.NewReader(string(data)), path)
	if len(got) != 2 || got[0].Benchmark != "A" || len(warns) != 0 {
		t.Errorf("results after resume: %d records, %d warnings:\n%s", len(got), len(warns), data)
	}
	state, _ := os.ReadFile(StatePath(path))
	if string(state) != "done A 2\nhung C\nstart B\n" {
		t.Errorf("state after resume:\n%s", state)
	}
}

// "done" without its records (the results file lost them) is neither
// finished nor crashed; a missing journal is an empty one.
func TestResumeMissingRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	os.WriteFile(StatePath(path), []byte("start A\ndone A 3\n"), 0o644)
	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if len(r.Done) != 0 || len(r.Crashed) != 0 || len(r.Hung) != 0 {
		t.Errorf("done %v crashed %v hung %v", r.Done, r.Crashed, r.Hung)
	}
	j, r, err = Resume(filepath.Join(dir, "none.jsonl"), nil)
	if err != nil || len(r.Done) != 0 {
		t.Fatalf("missing journal: %v %v", r, err)
	}
	j.Close()
}

func TestStartRefusesSpaces(t *testing.T) {
	j, err := Create(filepath.Join(t.TempDir(), "r.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Start("a b"); err == nil {
		t.Error("a key with a space was accepted")
	}
}

// A journal empties an earlier run's files only when it writes: a run
// refused after opening them leaves them as they were, and a journal
// that made its files and never wrote removes them.
func TestCreateIsLazy(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	os.WriteFile(path, []byte("old\n"), 0o644)
	j, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if data, _ := os.ReadFile(path); string(data) != "old\n" {
		t.Errorf("an unused journal changed the results file: %q", data)
	}
	j, _ = Create(path)
	j.Start("A")
	j.Close()
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("a used journal kept the old results: %q", data)
	}
	fresh := filepath.Join(dir, "new.jsonl")
	j, _ = Create(fresh)
	j.Close()
	if _, err := os.Stat(fresh); err == nil {
		t.Error("an unused new journal left its results file behind")
	}
}

// A state file that may not be written (here a link) is refused before
// the results file is touched.
func TestCreateChecksBothFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	os.WriteFile(path, []byte("old\n"), 0o644)
	os.Symlink(filepath.Join(dir, "elsewhere"), StatePath(path))
	if _, err := Create(path); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err %v", err)
	}
	if _, _, err := Resume(path, nil); err == nil {
		t.Fatal("resume through a linked state file")
	}
	if data, _ := os.ReadFile(path); string(data) != "old\n" {
		t.Errorf("the results file changed: %q", data)
	}
}

// Resume refuses a results file its state file does not account for: the
// state file missing, or records of cases it never named. Both files stay
// as they were.
func TestResumeRefusesStrayRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	recs := `{"suite":"mpi1","case":"A"}` + "\n" + `{"suite":"mpi1","case":"B"}` + "\n"
	os.WriteFile(path, []byte(recs), 0o644)
	if _, _, err := Resume(path, nil); err == nil || !strings.Contains(err.Error(), "missing or unreadable") {
		t.Errorf("no state file: %v", err)
	}
	os.WriteFile(StatePath(path), []byte("garbage line\n\x00\x01\n"), 0o644)
	if _, _, err := Resume(path, nil); err == nil || !strings.Contains(err.Error(), "missing or unreadable") {
		t.Errorf("garbage state file: %v", err)
	}
	os.WriteFile(StatePath(path), []byte("start A\ndone A 1\n"), 0o644)
	if _, _, err := Resume(path, nil); err == nil || !strings.Contains(err.Error(), "1 records of cases") {
		t.Errorf("a stray record: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != recs {
		t.Errorf("the results file changed: %q", data)
	}
	// A summary without a case is no stray: it is computed again.
	os.WriteFile(path, []byte(`{"suite":"beff","case":"A"}`+"\n"+`{"suite":"beff","benchmark":"b_eff"}`+"\n"), 0o644)
	j, r, err := Resume(path, nil)
	if err != nil || r.Kept != 1 || len(kept(t, r)) != 1 {
		t.Fatalf("summary: %v %+v", err, r)
	}
	j.Close()
}

// A results file being written by one run is refused to another.
func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path); err == nil || !strings.Contains(err.Error(), "being written by another run") {
		t.Errorf("second journal: %v", err)
	}
	if _, _, err := Resume(path, nil); err == nil {
		t.Error("resume of a file in use")
	}
	j.Close()
	j, err = Create(path)
	if err != nil {
		t.Fatalf("after close: %v", err)
	}
	j.Close()
}

// A run may not take another run's state file for its results file, nor
// the other way round.
func TestLockedStateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.jsonl")
	j, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := Create(StatePath(path)); err == nil {
		t.Error("another run's state file was taken as a results file")
	}
	other := filepath.Join(dir, "e.jsonl")
	k, err := Create(StatePath(other))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := Create(other); err == nil {
		t.Error("a results file whose state file another run writes was accepted")
	}
}

// Records streamed during a case count with those of its Finish; a case
// that streamed and never finished (a crash) is measured again, its
// streamed records dropped by the resume.
func TestStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	j, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Start("A")
	for _, r := range recs("A", 2) {
		if err := j.Stream("A", r); err != nil {
			t.Fatal(err)
		}
	}
	j.Finish("A", recs("A", 1))
	j.Start("B")
	j.Stream("B", recs("B", 1)[0]) // then the crash
	j.Close()
	state, _ := os.ReadFile(StatePath(path))
	if !strings.Contains(string(state), "done A 3\n") {
		t.Errorf("state after streaming 2 and finishing 1:\n%s", state)
	}
	_, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := kept(t, r)
	if !slices.Equal(r.Done, []string{"A"}) || !slices.Equal(r.Crashed, []string{"B"}) || len(got) != 3 {
		t.Errorf("resumed: done %v crashed %v, %d records; want A's 3 kept, B again", r.Done, r.Crashed, len(got))
	}
	for _, rec := range got {
		if rec.Case != "A" {
			t.Errorf("kept a record of case %q", rec.Case)
		}
	}
}
