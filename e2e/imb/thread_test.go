package imb

import (
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestThreadLevel: -thread_level reaches MPI_Init_thread on every rank and
// the level provided is in every record; the default is IMB's (single).
func TestThreadLevel(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct{ flag, want string }{
		{"", "MPI_THREAD_SINGLE"},
		{"-thread_level=funneled", "MPI_THREAD_FUNNELED"},
		{"serialized", "MPI_THREAD_SERIALIZED"},
	} {
		js := filepath.Join(t.TempDir(), "r.jsonl")
		args := []string{"mpi1", "PingPong", "-msglen", e2e.Testdata(t, "short.txt"), "-json", js}
		if strings.HasPrefix(c.flag, "-") {
			args = append(args, c.flag)
		} else if c.flag != "" {
			args = append(args, "-thread_level", c.flag)
		}
		r := e2e.Launch(t, 2, args...)
		e2e.MustSucceed(t, r)
		if !strings.Contains(r.Stdout, "MPI Thread Environment: "+c.want) {
			t.Errorf("%v: header lacks %s:\n%s", args, c.want, r)
		}
		type rec struct {
			Context struct {
				ThreadLevel string `json:"thread_level"`
			} `json:"context"`
		}
		for _, x := range e2e.ReadJSONL[rec](t, js) {
			if x.Context.ThreadLevel != c.want {
				t.Fatalf("%v: record's thread_level %q, want %q", args, x.Context.ThreadLevel, c.want)
			}
		}
	}
}

// TestThreadLevelBad: a bad or missing level stops every rank before
// MPI_Init with one message and exit code 2.
func TestThreadLevelBad(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	for _, args := range [][]string{
		{"mpi1", "PingPong", "-thread_level", "double"},
		{"ext", "-thread_level"},
	} {
		r := e2e.Launch(t, 2, args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 {
			t.Errorf("%v: want exit code 2, got %s", args, r)
		}
		if n := strings.Count(r.Stderr, "-thread_level"); n != 1 {
			t.Errorf("%v: want one message naming -thread_level, got %d:\n%s", args, n, r)
		}
	}
}

// TestThreadLevelResume: a run measured at one thread level is not
// resumed at another (the level changes the timings).
func TestThreadLevelResume(t *testing.T) {
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "r.jsonl")
	args := []string{"mpi1", "PingPong", "-msglen", e2e.Testdata(t, "short.txt"), "-json", js}
	e2e.MustSucceed(t, e2e.Launch(t, 2, append(args, "-thread_level", "funneled")...))
	r := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.NoPanic(t, r)
	if r.Code != 2 || !strings.Contains(r.Stderr, "resume with the same -thread_level") {
		t.Errorf("resume at another level: want exit code 2 naming -thread_level, got %s", r)
	}
	e2e.MustSucceed(t, e2e.Launch(t, 2, append(args, "-resume", "-thread_level", "funneled")...))
}
