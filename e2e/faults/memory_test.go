package faults

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// memStopped checks a run the memory check stopped: exit 2, one message
// from rank 0 with the need and the limit, no panic, no table rows and
// no -json file.
func memStopped(t *testing.T, r e2e.Result, js string, want ...string) {
	t.Helper()
	e2e.NoPanic(t, r)
	if r.Code != 2 || strings.Count(r.Stderr, "needs ") != 1 {
		t.Errorf("want exit 2 and one message, got %s", r)
	}
	for _, w := range want {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("message lacks %q: %s", w, r)
		}
	}
	if strings.Contains(r.Stdout, "#bytes") || strings.Contains(r.Stdout, "b_eff =") {
		t.Errorf("rows were measured: %s", r)
	}
	if b, err := os.ReadFile(js); err == nil && len(b) > 0 {
		t.Errorf("the -json file holds records:\n%s", b)
	}
}

// TestMemMPI1: Alltoall at 4 MiB on 2 processes needs 16 MiB per process;
// a node faked at 1 MB has 0.5 MiB per process.
func TestMemMPI1(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	dir := t.TempDir()
	lens := filepath.Join(dir, "lens.txt")
	if err := os.WriteFile(lens, []byte("4194304\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "o.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-msglen", lens, "-json", js, "Alltoall")
	memStopped(t, r, js, "mpibench mpi1: Alltoall at 4194304 bytes on 2 processes needs 16.0 MiB per process",
		"this node has 0.5 MiB per process available")
}

// TestMemBeff: -mem 256 gives L_max = 2 MiB, more than a node faked at
// 1 MB can hold.
func TestMemBeff(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	js := filepath.Join(t.TempDir(), "beff.jsonl")
	r := e2e.Launch(t, 2, "beff", "-mem", "256", "-json", js)
	memStopped(t, r, js, "mpibench beff: b_eff at L_max 2097152 bytes on 2 processes needs",
		"this node has 0.5 MiB per process available")
}

// TestMemFits: with enough memory the check lets the run go on.
func TestMemFits(t *testing.T) {
	e2e.SetFakeMem(t, "1024")
	dir := t.TempDir()
	lens := filepath.Join(dir, "lens.txt")
	if err := os.WriteFile(lens, []byte("1024\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e2e.Launch(t, 2, "mpi1", "-msglen", lens, "PingPong")
	e2e.MustSucceed(t, r)
}

// TestMemReleaseIgnoresFake: the release binary has no memory hook, so a
// node faked at 1 MB, too small for PingPong at 4 MiB, changes nothing.
func TestMemReleaseIgnoresFake(t *testing.T) {
	t.Setenv(e2e.FakeMemEnv, "1")
	r := e2e.Launch(t, 2, "mpi1", "-msglen", e2e.Lengths(t, 4194304), "PingPong")
	e2e.MustSucceed(t, r)
}

// TestMemSkampi: the default configuration's Bsend ping-pong at 1 MiB
// needs 8.3 MiB per process: send, receive and Bsend buffers of 2 MiB,
// and 27 points (budget 26 and one in flight) of up to 1000 recorded
// times of 91 bytes (skampi.MemoryNeed).
func TestMemSkampi(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	js := filepath.Join(t.TempDir(), "sk.jsonl")
	r := e2e.Launch(t, 2, "skampi", "-o", js)
	memStopped(t, r, js, "mpibench skampi: Pingpong_Bsend_Recv at 1048576 bytes on 2 processes needs 8.3 MiB",
		"this node has 0.5 MiB per process available")
}

// TestMemPgmpi: measuring MPI_Bcast on 4 MiB needs four 4 MiB vectors
// per process, 16 MiB, more than a node faked at 1 MB holds.
func TestMemPgmpi(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	dir := t.TempDir()
	r := e2e.Launch(t, 2, "guidelines", "measure", "-calls", "MPI_Bcast", "-sizes", "4194304", "-reps", "10",
		"-o", filepath.Join(dir, "pg"))
	memStopped(t, r, filepath.Join(dir, "pg", "launch-1.jsonl"),
		"mpibench guidelines measure: MPI_Bcast at 4194304 bytes on 2 processes needs 16.0 MiB",
		"this node has 0.5 MiB per process available")
}
