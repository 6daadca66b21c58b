package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestThreadLevel: -thread_level reaches MPI_Init_thread on every rank and
// the level provided is in every record; the default is IMB's (single).
func TestThreadLevel(t *testing.T) {
	needMPI(t)
	for _, c := range []struct{ flag, want string }{
		{"", "MPI_THREAD_SINGLE"},
		{"-thread_level=funneled", "MPI_THREAD_FUNNELED"},
		{"serialized", "MPI_THREAD_SERIALIZED"},
	} {
		js := filepath.Join(t.TempDir(), "r.jsonl")
		args := []string{"mpi1", "PingPong", "-msglen", testdata(t, "short.txt"), "-json", js}
		if strings.HasPrefix(c.flag, "-") {
			args = append(args, c.flag)
		} else if c.flag != "" {
			args = append(args, "-thread_level", c.flag)
		}
		r := launch(t, 2, args...)
		mustSucceed(t, r)
		if !strings.Contains(r.stdout, "MPI Thread Environment: "+c.want) {
			t.Errorf("%v: header lacks %s:\n%s", args, c.want, r)
		}
		type rec struct {
			Context struct {
				ThreadLevel string `json:"thread_level"`
			} `json:"context"`
		}
		for _, x := range readJSONL[rec](t, js) {
			if x.Context.ThreadLevel != c.want {
				t.Fatalf("%v: record's thread_level %q, want %q", args, x.Context.ThreadLevel, c.want)
			}
		}
	}
}

// TestThreadLevelBad: a bad or missing level stops every rank before
// MPI_Init with one message and exit code 2.
func TestThreadLevelBad(t *testing.T) {
	needMPI(t)
	for _, args := range [][]string{
		{"mpi1", "PingPong", "-thread_level", "double"},
		{"ext", "-thread_level"},
	} {
		r := launch(t, 2, args...)
		noPanic(t, r)
		if r.code != 2 {
			t.Errorf("%v: want exit code 2, got %s", args, r)
		}
		if n := strings.Count(r.stderr, "-thread_level"); n != 1 {
			t.Errorf("%v: want one message naming -thread_level, got %d:\n%s", args, n, r)
		}
	}
}

// TestThreadLevelResume: a run measured at one thread level is not
// resumed at another (the level changes the timings).
func TestThreadLevelResume(t *testing.T) {
	needMPI(t)
	js := filepath.Join(t.TempDir(), "r.jsonl")
	args := []string{"mpi1", "PingPong", "-msglen", testdata(t, "short.txt"), "-json", js}
	mustSucceed(t, launch(t, 2, append(args, "-thread_level", "funneled")...))
	r := launch(t, 2, append(args, "-resume")...)
	noPanic(t, r)
	if r.code != 2 || !strings.Contains(r.stderr, "resume with the same -thread_level") {
		t.Errorf("resume at another level: want exit code 2 naming -thread_level, got %s", r)
	}
	mustSucceed(t, launch(t, 2, append(args, "-resume", "-thread_level", "funneled")...))
}
