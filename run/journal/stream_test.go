package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"mpibench/analysis/result"
)

// TestResumeStreams: resuming a large results file of few cases costs
// memory by the cases, not by the records or bytes. Everything Resume
// allocates (runtime.MemStats.TotalAlloc, garbage included) stays far
// below the file's size, and its allocations far below one a record.
// Resume used to hold every Record and the rewritten file in memory,
// several times the file.
func TestResumeStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 12 MB file")
	}
	const cases, per = 20, 2000
	path := filepath.Join(t.TempDir(), "r.jsonl")
	size := writeLarge(t, path, cases, per)
	before, _ := os.ReadFile(path)

	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	j, r, err := Resume(path, nil)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if len(r.Done) != cases {
		t.Fatalf("%d cases done, want %d", len(r.Done), cases)
	}
	alloc, mallocs := m1.TotalAlloc-m0.TotalAlloc, m1.Mallocs-m0.Mallocs
	t.Logf("file %d bytes, %d records: Resume allocated %d bytes in %d allocations", size, cases*per, alloc, mallocs)
	if alloc > uint64(size)/8 {
		t.Errorf("Resume allocated %d bytes for a file of %d: it grows with the file", alloc, size)
	}
	if mallocs > cases*per/4 {
		t.Errorf("Resume made %d allocations for %d records: it grows with the records", mallocs, cases*per)
	}
	// A finished run's file is kept as it was.
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Errorf("the file of a finished run changed on resume: %d bytes, was %d", len(after), len(before))
	}
}

// odd is a results file as a writer other than this mpibench's might
// leave it (key order, spaces, escapes, number forms, CRLF, no line end
// at the end): a decoder would write each line otherwise. Case B crashed
// between A's lines; E is a line of records version 1; C refers to a
// second header of run 1.
const (
	oddH1 = `{ "schema" : 2 , "context" : {"procs":2, "tool":"first", "hosts":["n1","n2"]}, "run":1 }` + "\n"
	oddA1 = `{"case":"A",  "suite":"mpi1","benchmark":"Ping\u0050ong", "bytes":1,"run":1,"t_min_us":1.50e0,"np":2,"multi":-1}` + "\n"
	oddB1 = `{"suite":"mpi1","case":"B","run":1,"np":2,"multi":-1}` + "\n"
	oddA2 = `{"run":1,"suite":"mpi1","case":"A","bytes":2,"t_max_us":0.000001,"np":2,"multi":-1}` + "\r\n"
	oddE1 = `{"suite":"mpi1","case":"E","context":{"tool":"v1","procs":2}}` + "\n"
	oddH2 = `{"schema":2,"run":1,"context":{"tool":"second","procs":4}}` + "\n"
	oddC1 = `{"suite":"mpi1","case":"C","run":1,"groups":[[0,1],[2,3]],"np":2}` + "\n"
	oddC2 = `{"suite":"mpi1" , "case":"C","run":1,"np":4,"multi":-1,"group":-1}`
	odd   = oddH1 + oddA1 + oddB1 + oddA2 + oddE1 + oddH2 + oddC1 + oddC2
	// B crashed, the others finished.
	oddState = "start A\nstart B\ndone A 2\nstart E\ndone E 1\nstart C\ndone C 2\n"
)

// writeOdd writes the odd results file and its state file at path.
func writeOdd(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(StatePath(path), []byte(oddState), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeCopiesLines: the lines of finished cases are copied byte for
// byte, each after the header it refers to, whatever a decoder would
// make of them; a crashed case's lines are dropped, a line of version 1
// is written in version 2 under a header of its own, and the last line
// gets its line end.
func TestResumeCopiesLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeOdd(t, path)
	old, warns, err := result.Read(strings.NewReader(odd), path)
	if err != nil || len(warns) != 0 || len(old) != 6 {
		t.Fatalf("the odd file reads %d records, %v, %v", len(old), warns, err)
	}
	j, r, err := Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Done) != 3 || len(r.Crashed) != 1 || len(r.Warnings) != 0 {
		t.Fatalf("done %v crashed %v warnings %v", r.Done, r.Crashed, r.Warnings)
	}
	// E again, as a Writer after run 1 writes it.
	var e bytes.Buffer
	if err := result.NewWriterAfter(&e, 1).Write(&old[3]); err != nil {
		t.Fatal(err)
	}
	want := oddH1 + oddA1 + oddA2 + e.String() + oddH2 + oddC1 + oddC2 + "\n"
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Errorf("rewritten file:\n%s\nwant:\n%s", got, want)
	}
	// The run goes on: its header and records follow, and every record
	// reads back with its run's context.
	d := result.Record{Suite: "mpi1", Benchmark: "D", Context: result.Context{Tool: "third", Procs: 2}}
	if err := j.Start("D"); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish("D", []*result.Record{&d}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	all, warns, err := result.Read(bytes.NewReader(data), path)
	wantAll := []result.Record{old[0], old[2], old[3], old[4], old[5], d}
	if err != nil || len(warns) != 0 || !reflect.DeepEqual(all, wantAll) {
		t.Errorf("after the resumed run: %v, %v\n%+v\nwant\n%+v", warns, err, all, wantAll)
	}
}

// TestResumeStoredReadsBack: Stored reads each finished case's records
// from the file as a reader of the file gets them, their contexts from
// their headers, before and after the rewrite; Context is the first
// kept record's.
func TestResumeStoredReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	writeOdd(t, path)
	old, _, _ := result.Read(strings.NewReader(odd), path)
	var checked *Resumed
	j, r, err := Resume(path, func(r *Resumed) error {
		checked = r
		if r.Context == nil || r.Context.Tool != "first" {
			t.Errorf("context for the check: %+v", r.Context)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if checked != r || r.Kept != 5 {
		t.Errorf("kept %d records, want 5", r.Kept)
	}
	for key, want := range map[string][]result.Record{"A": {old[0], old[2]}, "E": {old[3]}, "C": {old[4], old[5]}} {
		got, err := r.Stored(key)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Stored(%s): %v\n%+v\nwant\n%+v", key, err, got, want)
		}
	}
	for _, key := range []string{"B", "none"} {
		if got, err := r.Stored(key); got != nil || err != nil {
			t.Errorf("Stored(%s) of a case not kept: %v, %v", key, got, err)
		}
	}
	// Resumed again, the rewritten file reads the same.
	j.Close()
	j, r, err = Resume(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := r.Stored("C"); err != nil || !reflect.DeepEqual(got, []result.Record{old[4], old[5]}) {
		t.Errorf("Stored(C) after a second resume: %v %+v", err, got)
	}
}
