package beffio

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"mpibench/e2e"
)

// bfIOStuck is part-way through the rewrite: the resumed run must write
// the files again before it rewrites and reads them.
const bfIOStuck = "beffio/part2/rewrite/shared"

func bfIOCommand(out, dir string, more ...string) []string {
	return append([]string{"beffio", "-json", out, "-T", "2", "-mem", "16", "-disk", "256M", "-iodir", dir}, more...)
}

// bfIOKeys are the 15 cases of a b_eff_io run on one partition of 2.
func bfIOKeys() []string {
	var keys []string
	for _, a := range beffioAccesses {
		for _, typ := range beffioTypes {
			keys = append(keys, "beffio/part2/"+a+"/"+typ)
		}
	}
	return keys
}

// TestBeffIOWatchdog: a type stuck on rank 1 ends the job with exit code
// 4, marked hung, its files removed; -resume skips it, notes that its
// rewrite and read cannot be measured without the file, and measures the
// other types.
func TestBeffIOWatchdog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	out, dir := e2e.FaultDirs(t)
	stuck := "beffio/part2/write/shared"
	r := e2e.HangRun(t, 2, 1, stuck, out, bfIOCommand(out, dir)...)
	if !strings.Contains(r.Stderr, " in write of type 1 (shared), ") {
		t.Errorf("the watchdog message does not name the type\n%s", r)
	}
	e2e.KeptCases(t, out, false)
	e2e.AssertEmpty(t, dir)

	r = e2e.Launch(t, 2, bfIOCommand(out, dir, "-resume", "-timeout", "60")...)
	e2e.MustSucceed(t, r)
	for _, msg := range []string{"1 hung skipped (" + stuck + ")",
		"beffio/part2/rewrite/shared is not measured", "beffio/part2/read/shared is not measured"} {
		if !strings.Contains(r.Stderr, msg) {
			t.Errorf("the resumed run does not say %q\n%s", msg, r)
		}
	}
	var keys []string
	for _, k := range bfIOKeys() {
		if !strings.HasSuffix(k, "/shared") {
			keys = append(keys, k)
		}
	}
	e2e.OnceEach(t, out, keys, "b_eff_io")
	e2e.AssertEmpty(t, dir)
}

// TestBeffIOKillResume: kill -9 of rank 1 in the rewrite; -resume (after a
// half line the crash left) keeps the finished types as they were, writes
// the files again, measures the rest with the stored repeat factors, and
// prints the tables of an uninterrupted run.
func TestBeffIOKillResume(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	refOut, dir := e2e.FaultDirs(t)
	ref := e2e.Launch(t, 2, bfIOCommand(refOut, dir)...)
	e2e.MustSucceed(t, ref)

	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.SetFault(t, "hang:1:"+bfIOStuck)
	e2e.KillAt(t, 2, out, "start "+bfIOStuck, bfIOCommand(out, dir, "-timeout", "0")...)
	before := e2e.KeptCases(t, out, true)
	kept := len(e2e.DoneCases(t, out))
	if kept != 6 {
		t.Fatalf("after the kill: %d cases done, want the write and the rewrite of type 0", kept)
	}
	e2e.AppendText(t, out, `{"suite":"beffio","bench`)

	e2e.SetFault(t, "")
	r := e2e.Launch(t, 2, bfIOCommand(out, dir, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.Stderr, fmt.Sprintf("%d finished cases kept", kept)) {
		t.Errorf("resume should warn about the half line and keep %d cases:\n%s", kept, r.Stderr)
	}
	e2e.OnceEach(t, out, bfIOKeys(), "b_eff_io")
	e2e.SameRecords(t, before, out)
	beffioCheck(t, beffioRead(t, out), []int{2}, r.Stdout)
	e2e.SameShape(t, r.Stdout, ref.Stdout)
	// MPICH's mpiexec may end the other rank with SIGKILL, which leaves
	// the killed run's files behind; the resumed run has the same file
	// prefix (it comes from the results file) and removes them.
	e2e.AssertEmpty(t, dir)
}

// TestBeffIOSignal: SIGINT or SIGTERM to every rank in the rewrite: the
// finished types are kept, every file is removed, and the ranks exit with
// 128 + the signal.
func TestBeffIOSignal(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out, dir := e2e.FaultDirs(t)
			e2e.SetFault(t, "hang:1:"+bfIOStuck)
			r := e2e.SignalAt(t, 2, out, "start "+bfIOStuck, sig, -1, bfIOCommand(out, dir, "-timeout", "0")...)
			e2e.Interrupted(t, r, sig)
			e2e.KeptCases(t, out, true)
			e2e.AssertEmpty(t, dir)
		})
	}
}
