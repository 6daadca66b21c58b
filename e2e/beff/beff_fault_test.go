package beff

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mpibench/e2e"
)

var (
	bfBeffArgs = []string{"-mem", "1", "-random", "1"}
	// bfBeffStuck is part-way through the first repetition, so that a
	// resumed run takes looplengths from the stored records.
	bfBeffStuck = "beff/rep1/random-1/1024/sendrecv"
)

func bfBeffCommand(out string, more ...string) []string {
	return append(append([]string{"beff", "-json", out}, bfBeffArgs...), more...)
}

// bfBeffKeys are the cases of b_eff records, by the journal's key.
func bfBeffKeys(recs []beffRecord) []string {
	var keys []string
	for _, r := range recs {
		if r.Beff == nil {
			keys = append(keys, fmt.Sprintf("beff/rep%d/%s/%d/%s", r.Rep, r.Benchmark, r.Bytes, r.Mode))
		}
	}
	return keys
}

// bfBeffFile reads the b_eff records of a results file.
func bfBeffFile(t *testing.T, path string) []beffRecord {
	t.Helper()
	return e2e.ReadJSONL[beffRecord](t, path)
}

// bfLoops checks that every measurement used the looplength of the first
// repetition, whichever run measured it (a hung one has none).
func bfLoops(t *testing.T, recs []beffRecord) {
	t.Helper()
	first := map[string]int{}
	for _, r := range recs {
		if r.Beff == nil && r.Rep == 1 {
			first[fmt.Sprintf("%s/%d/%s", r.Benchmark, r.Bytes, r.Mode)] = r.Reps
		}
	}
	for _, r := range recs {
		k := fmt.Sprintf("%s/%d/%s", r.Benchmark, r.Bytes, r.Mode)
		if ll, ok := first[k]; ok && r.Beff == nil && r.Reps != ll {
			t.Errorf("%s repetition %d: looplength %d, the first repetition %d", k, r.Rep, r.Reps, first[k])
		}
	}
}

// TestBeffWatchdog: a measurement stuck on rank 0 ends the job with exit
// code 4 and is marked hung; -resume skips it (the fault would strike
// again), notes it, and computes b_eff from all the other records.
func TestBeffWatchdog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := e2e.HangRun(t, 2, 0, bfBeffStuck, out, bfBeffCommand(out)...)
	if !strings.Contains(r.Stderr, " in random-1 sendrecv, repetition 1, 1024 bytes, 2 processes") {
		t.Errorf("the watchdog message does not name the measurement\n%s", r)
	}
	e2e.KeptCases(t, out, false)

	r = e2e.Launch(t, 2, bfBeffCommand(out, "-resume", "-timeout", "30")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "1 hung skipped ("+bfBeffStuck+")") {
		t.Errorf("the resumed run does not note the hung case\n%s", r)
	}
	recs := bfBeffFile(t, out)
	sum := recs[len(recs)-1].Beff
	if len(recs) != 1764 || sum == nil {
		t.Fatalf("%d records, want the 1763 measured ones and the summary", len(recs))
	}
	for _, k := range bfBeffKeys(recs) {
		if k == bfBeffStuck {
			t.Errorf("the hung case was measured")
		}
	}
	if want := beffFormula(recs, "cartesian"); math.Abs(sum.Beff-want) > 1e-9*want {
		t.Errorf("b_eff %g, recomputed from the records %g", sum.Beff, want)
	}
	bfLoops(t, recs)
}

// TestBeffKillResume: kill -9 of rank 1 part-way through the first
// repetition; -resume (after a half line the crash left) keeps the
// finished measurements as they were, measures the rest with the same
// looplengths, and prints the tables of an uninterrupted run.
func TestBeffKillResume(t *testing.T) {
	ref, refRecs := beffRun(t, 2, bfBeffArgs...)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.SetFault(t, "hang:1:"+bfBeffStuck)
	e2e.KillAt(t, 2, out, "start "+bfBeffStuck, bfBeffCommand(out, "-timeout", "0")...)
	before := e2e.KeptCases(t, out, true)
	kept := len(e2e.DoneCases(t, out))
	if kept == 0 || kept >= 1764 || e2e.StateHas(out, "done "+bfBeffStuck) {
		t.Fatalf("after the kill: %d of 1764 cases done", kept)
	}
	e2e.AppendText(t, out, `{"suite":"beff","bench`)

	e2e.SetFault(t, "")
	r := e2e.Launch(t, 2, bfBeffCommand(out, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.Stderr, fmt.Sprintf("%d finished cases kept", kept)) {
		t.Errorf("resume should warn about the half line and keep %d cases:\n%s", kept, r.Stderr)
	}
	e2e.OnceEach(t, out, bfBeffKeys(refRecs), "b_eff")
	e2e.SameRecords(t, before, out)
	recs := bfBeffFile(t, out)
	beffCheck(t, r, recs, 2, beffCartesian[2], "cartesian", 1, beffAnalysis)
	bfLoops(t, recs)
	e2e.SameShape(t, r.Stdout, ref.Stdout)
}

// TestBeffTruncatedResume: the last record of a finished run cut in half
// (and the summary lost): -resume warns, measures that one case again
// and completes the file.
func TestBeffTruncatedResume(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, bfBeffCommand(out)...))
	keys := bfBeffKeys(bfBeffFile(t, out))
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	last := lines[len(lines)-2]
	cut := strings.Join(lines[:len(lines)-2], "") + last[:len(last)/2]
	if err := os.WriteFile(out, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}

	r := e2e.Launch(t, 2, bfBeffCommand(out, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "warning: skipped unreadable line "+out+":"+strconv.Itoa(len(lines)-1)) ||
		!strings.Contains(r.Stderr, fmt.Sprintf("%d finished cases kept", len(keys)-1)) {
		t.Errorf("resume should warn about line %d and keep %d cases:\n%s", len(lines)-1, len(keys)-1, r.Stderr)
	}
	e2e.OnceEach(t, out, keys, "b_eff")
	beffCheck(t, r, bfBeffFile(t, out), 2, beffCartesian[2], "cartesian", 1, beffAnalysis)
}

// TestBeffSignal: SIGINT or SIGTERM to every rank while a measurement
// runs: the finished records are kept and the ranks exit with 128 + the
// signal.
func TestBeffSignal(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			e2e.SetFault(t, "hang:1:"+bfBeffStuck)
			r := e2e.SignalAt(t, 2, out, "start "+bfBeffStuck, sig, -1, bfBeffCommand(out, "-timeout", "0")...)
			e2e.Interrupted(t, r, sig)
			e2e.KeptCases(t, out, true)
		})
	}
}
