package journal

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// writeRun writes a finished run of the cases into path, its context
// started at start.
func writeRun(t *testing.T, path string, appendRun bool, start string, cases ...string) {
	t.Helper()
	var j *Journal
	var err error
	if appendRun {
		j, err = Append(path)
	} else {
		j, err = Create(path)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range cases {
		rs := recs(key, 2)
		for _, r := range rs {
			r.Context.Start = start
		}
		if err := j.Start(key); err != nil {
			t.Fatal(err)
		}
		if err := j.Finish(key, rs); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAppend: -append adds a run after the runs of the file, which stay
// byte for byte, under a header numbered after theirs; readers see both
// runs. (A run into an existing file once replaced it.)
func TestAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeRun(t, path, false, "2026-11-29T01:00:00Z", "A", "B")
	before, _ := os.ReadFile(path)
	writeRun(t, path, true, "2026-11-29T02:00:00Z", "A", "B")
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) || len(after) <= len(before) {
		t.Fatalf("the earlier run did not stay as it was:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if !strings.Contains(string(after[len(before):]), `"run":2`) {
		t.Errorf("the appended run's header is not numbered after the first's:\n%s", after[len(before):])
	}
	got, warns, err := result.Read(strings.NewReader(string(after)), path)
	if err != nil || len(warns) != 0 || len(got) != 8 {
		t.Fatalf("%d records, %v, %v", len(got), warns, err)
	}
	if got[0].Context.Start != "2026-11-29T01:00:00Z" || got[7].Context.Start != "2026-11-29T02:00:00Z" {
		t.Errorf("runs read as %s ... %s", got[0].Context.Start, got[7].Context.Start)
	}
	state, _ := os.ReadFile(StatePath(path))
	if want := "base " + strconv.Itoa(len(before)) + "\n"; !strings.HasPrefix(string(state), want) {
		t.Errorf("state file %q, want it to start with %q", state, want)
	}
}

// TestAppendResume: an appended run that crashed resumes its own cases;
// the earlier run's bytes stay, its cases are not this run's (B of the
// earlier run is kept, though this run crashed in a case of that name).
func TestAppendResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeRun(t, path, false, "2026-11-29T01:00:00Z", "A", "B")
	before, _ := os.ReadFile(path)
	j, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Start("A")
	j.Finish("A", recs("A", 2))
	j.Start("B")
	b := recs("B", 1)[0]
	b.Case = "B"
	j.Write(b) // B crashed after one row
	j.Close()

	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Done, []string{"A"}) || !slices.Equal(r.Crashed, []string{"B"}) || r.Kept != 2 {
		t.Fatalf("resumed: done %v crashed %v kept %d", r.Done, r.Crashed, r.Kept)
	}
	j.Start("B")
	j.Finish("B", recs("B", 2))
	j.Close()
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), string(before)) {
		t.Fatalf("resume changed the earlier run:\n%s", after)
	}
	got, warns, err := result.Read(strings.NewReader(string(after)), path)
	if err != nil || len(warns) != 0 || len(got) != 8 {
		t.Errorf("after resume: %d records, %v, %v\n%s", len(got), warns, err, after)
	}
	if _, r, err = Resume(path, nil); err != nil || r.Kept != 4 {
		t.Errorf("second resume: %v, kept %d", err, r.Kept)
	}
}

// TestAppendRefuses: a file mpibench cannot read whole, or one ending in
// a partial line, gets no run added; the file stays as it was.
func TestAppendRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ content, want string }{
		{"{\"schema\":2,\"run\":1,\"context\":{}}\n{\"suite\":\"mpi1\"", "r.jsonl:2:"},
		{"not json\n", "r.jsonl:1:"},
	} {
		path := filepath.Join(dir, "r.jsonl")
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		j, err := Append(path)
		if err == nil {
			j.Close()
			t.Errorf("%q: appended", c.content)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.content, err, c.want)
		}
		if b, _ := os.ReadFile(path); string(b) != c.content {
			t.Errorf("%q: the file changed to %q", c.content, b)
		}
	}
}
