package main

// Fault tests of b_eff and b_eff_io: a case stuck on one rank ends the job
// through the watchdog, kill -9 of a rank loses no finished case and
// -resume completes the run, SIGINT and SIGTERM keep what was finished
// and remove the benchmark files. Each run is small: b_eff with -mem 1
// and one random pattern (1764 cases at 2 ranks), b_eff_io with -mem 16
// and a scheduled time of 2 s (15 cases).

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

var (
	bfBeffArgs = []string{"-mem", "1", "-random", "1"}
	// bfBeffStuck is part-way through the first repetition, so that a
	// resumed run takes looplengths from the stored records.
	bfBeffStuck = "beff/rep1/random-1/1024/sendrecv"
	// bfIOStuck is part-way through the rewrite: the resumed run must
	// write the files again before it rewrites and reads them.
	bfIOStuck = "beffio/part2/rewrite/shared"
)

func bfBeffCommand(out string, more ...string) []string {
	return append(append([]string{"beff", "-json", out}, bfBeffArgs...), more...)
}

func bfIOCommand(out, dir string, more ...string) []string {
	return append([]string{"beffio", "-json", out, "-T", "2", "-mem", "16", "-disk", "256M", "-iodir", dir}, more...)
}

// bfLine is what the fault tests read of a record.
type bfLine struct {
	Case      string  `json:"case"`
	Benchmark string  `json:"benchmark"`
	Class     string  `json:"class"`
	TMax      float64 `json:"t_max_us"`
}

// bfRead reads a results file; with partial, a last line cut short (by
// a signal in the middle of a write) is allowed.
func bfRead(t *testing.T, path string, partial bool) []bfLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var out []bfLine
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, line := range lines {
		if line == "" && len(lines) == 1 {
			break
		}
		var l bfLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			if partial && i == len(lines)-1 && !strings.HasSuffix(text, "\n") {
				break
			}
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, l)
	}
	return out
}

// bfDone is the journal's verdict: the cases whose last event is "done N"
// with their N.
func bfDone(t *testing.T, out string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(out + ".state")
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "done":
			done[f[1]], _ = strconv.Atoi(f[2])
		case len(f) == 2:
			delete(done, f[1])
		}
	}
	return done
}

// bfKept checks that every case the journal calls done has its records
// in the results file, and returns those records by case.
func bfKept(t *testing.T, out string, partial bool) map[string][]bfLine {
	t.Helper()
	byCase := map[string][]bfLine{}
	for _, l := range bfRead(t, out, partial) {
		byCase[l.Case] = append(byCase[l.Case], l)
	}
	done := bfDone(t, out)
	kept := map[string][]bfLine{}
	for key, n := range done {
		if n > 0 && len(byCase[key]) != n {
			t.Errorf("%s: done with %d records, the results file has %d", key, n, len(byCase[key]))
		}
		kept[key] = byCase[key]
	}
	if len(done) == 0 {
		t.Errorf("no case finished before the fault")
	}
	return kept
}

// bfOnce checks that the results file holds the records of every case in
// keys, together and as many as the journal counts, no other case, and
// one summary, last.
func bfOnce(t *testing.T, out string, keys []string, summary string) {
	t.Helper()
	lines := bfRead(t, out, false)
	count := map[string]int{}
	for i, l := range lines {
		switch {
		case l.Case == "" && (l.Benchmark != summary || i != len(lines)-1):
			t.Errorf("record %d has no case and is not the summary at the end: %+v", i+1, l)
		case l.Case == "":
		case count[l.Case] > 0 && lines[i-1].Case != l.Case:
			t.Errorf("record %d: case %s twice", i+1, l.Case)
		}
		count[l.Case]++
	}
	done := bfDone(t, out)
	for _, k := range keys {
		if count[k] == 0 || count[k] != done[k] {
			t.Errorf("case %s: %d records, the journal says %d", k, count[k], done[k])
		}
	}
	for k := range count {
		if k != "" && !slices.Contains(keys, k) {
			t.Errorf("case %s is not one of the run", k)
		}
	}
	if n := len(lines); n == 0 || lines[n-1].Benchmark != summary {
		t.Errorf("the last record is not the %s summary", summary)
	}
}

// bfSame checks that the records of the cases finished before a resume
// are the ones in the final file, not measured again.
func bfSame(t *testing.T, before map[string][]bfLine, out string) {
	t.Helper()
	after := map[string][]bfLine{}
	for _, l := range bfRead(t, out, false) {
		after[l.Case] = append(after[l.Case], l)
	}
	for key, recs := range before {
		if !slices.Equal(recs, after[key]) {
			t.Errorf("%s: the resumed run changed its records\nbefore %+v\nafter  %+v", key, recs, after[key])
		}
	}
}

// bfShape is the text output with every number replaced by N and the
// lines naming the run (date, command line) left out: the tables of two
// runs of the same plan have the same shape.
func bfShape(out string) []string {
	var shape []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "# Date") || strings.HasPrefix(line, "# Calling sequence") {
			continue
		}
		f := strings.Fields(line)
		for i, w := range f {
			if _, err := strconv.ParseFloat(w, 64); err == nil {
				f[i] = "N"
			}
		}
		shape = append(shape, strings.Join(f, " "))
	}
	return shape
}

func bfSameShape(t *testing.T, got, want string) {
	t.Helper()
	g, w := bfShape(got), bfShape(want)
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Errorf("text output line %d after the resume:\n%s\nan uninterrupted run:\n%s", i+1, g[i], w[i])
			return
		}
	}
	if len(g) != len(w) {
		t.Errorf("text output after the resume has %d lines, an uninterrupted run %d", len(g), len(w))
	}
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
	return readJSONL[beffRecord](t, path)
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
	out := filepath.Join(t.TempDir(), "r.jsonl")
	r := hangRun(t, 2, 0, bfBeffStuck, out, bfBeffCommand(out)...)
	if !strings.Contains(r.stderr, " in random-1 sendrecv, repetition 1, 1024 bytes, 2 processes") {
		t.Errorf("the watchdog message does not name the measurement\n%s", r)
	}
	bfKept(t, out, false)

	r = launch(t, 2, bfBeffCommand(out, "-resume", "-timeout", "30")...)
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "1 hung skipped ("+bfBeffStuck+")") {
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
	setFault(t, "hang:1:"+bfBeffStuck)
	killAt(t, 2, out, "start "+bfBeffStuck, bfBeffCommand(out, "-timeout", "0")...)
	before := bfKept(t, out, true)
	kept := len(bfDone(t, out))
	if kept == 0 || kept >= 1764 || stateHas(out, "done "+bfBeffStuck) {
		t.Fatalf("after the kill: %d of 1764 cases done", kept)
	}
	appendText(t, out, `{"suite":"beff","bench`)

	setFault(t, "")
	r := launch(t, 2, bfBeffCommand(out, "-resume")...)
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.stderr, fmt.Sprintf("%d finished cases kept", kept)) {
		t.Errorf("resume should warn about the half line and keep %d cases:\n%s", kept, r.stderr)
	}
	bfOnce(t, out, bfBeffKeys(refRecs), "b_eff")
	bfSame(t, before, out)
	recs := bfBeffFile(t, out)
	beffCheck(t, r, recs, 2, beffCartesian[2], "cartesian", 1, beffAnalysis)
	bfLoops(t, recs)
	bfSameShape(t, r.stdout, ref.stdout)
}

// TestBeffTruncatedResume: the last record of a finished run cut in half
// (and the summary lost): -resume warns, measures that one case again
// and completes the file.
func TestBeffTruncatedResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	mustSucceed(t, launch(t, 2, bfBeffCommand(out)...))
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

	r := launch(t, 2, bfBeffCommand(out, "-resume")...)
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "warning: skipped unreadable line "+out+":"+strconv.Itoa(len(lines)-1)) ||
		!strings.Contains(r.stderr, fmt.Sprintf("%d finished cases kept", len(keys)-1)) {
		t.Errorf("resume should warn about line %d and keep %d cases:\n%s", len(lines)-1, len(keys)-1, r.stderr)
	}
	bfOnce(t, out, keys, "b_eff")
	beffCheck(t, r, bfBeffFile(t, out), 2, beffCartesian[2], "cartesian", 1, beffAnalysis)
}

// TestBeffSignal: SIGINT or SIGTERM to every rank while a measurement
// runs: the finished records are kept and the ranks exit with 128 + the
// signal.
func TestBeffSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			setFault(t, "hang:1:"+bfBeffStuck)
			r := signalAt(t, 2, out, "start "+bfBeffStuck, sig, -1, bfBeffCommand(out, "-timeout", "0")...)
			bfInterrupted(t, r, sig)
			bfKept(t, out, true)
		})
	}
}

// bfInterrupted checks the exit of a run whose ranks all got sig.
func bfInterrupted(t *testing.T, r runResult, sig syscall.Signal) {
	t.Helper()
	// MPICH's mpiexec ends the other ranks with SIGHUP once one has
	// exited, and may report that (129) or 0/1 instead.
	if want := 128 + int(sig); r.code != want && launcherKind == "openmpi" {
		t.Errorf("exit code %d, want %d\n%s", r.code, want, r)
	}
	if !strings.Contains(r.stderr, "interrupted by") {
		t.Errorf("no interruption notice\n%s", r)
	}
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
	out, dir := faultDirs(t)
	stuck := "beffio/part2/write/shared"
	r := hangRun(t, 2, 1, stuck, out, bfIOCommand(out, dir)...)
	if !strings.Contains(r.stderr, " in write of type 1 (shared), ") {
		t.Errorf("the watchdog message does not name the type\n%s", r)
	}
	bfKept(t, out, false)
	beffioEmpty(t, dir)

	r = launch(t, 2, bfIOCommand(out, dir, "-resume", "-timeout", "60")...)
	mustSucceed(t, r)
	for _, msg := range []string{"1 hung skipped (" + stuck + ")",
		"beffio/part2/rewrite/shared is not measured", "beffio/part2/read/shared is not measured"} {
		if !strings.Contains(r.stderr, msg) {
			t.Errorf("the resumed run does not say %q\n%s", msg, r)
		}
	}
	var keys []string
	for _, k := range bfIOKeys() {
		if !strings.HasSuffix(k, "/shared") {
			keys = append(keys, k)
		}
	}
	bfOnce(t, out, keys, "b_eff_io")
	beffioEmpty(t, dir)
}

// TestBeffIOKillResume: kill -9 of rank 1 in the rewrite; -resume (after a
// half line the crash left) keeps the finished types as they were, writes
// the files again, measures the rest with the stored repeat factors, and
// prints the tables of an uninterrupted run.
func TestBeffIOKillResume(t *testing.T) {
	refOut, dir := faultDirs(t)
	ref := launch(t, 2, bfIOCommand(refOut, dir)...)
	mustSucceed(t, ref)

	out := filepath.Join(t.TempDir(), "r.jsonl")
	setFault(t, "hang:1:"+bfIOStuck)
	killAt(t, 2, out, "start "+bfIOStuck, bfIOCommand(out, dir, "-timeout", "0")...)
	before := bfKept(t, out, true)
	kept := len(bfDone(t, out))
	if kept != 6 {
		t.Fatalf("after the kill: %d cases done, want the write and the rewrite of type 0", kept)
	}
	appendText(t, out, `{"suite":"beffio","bench`)

	setFault(t, "")
	r := launch(t, 2, bfIOCommand(out, dir, "-resume")...)
	mustSucceed(t, r)
	if !strings.Contains(r.stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.stderr, fmt.Sprintf("%d finished cases kept", kept)) {
		t.Errorf("resume should warn about the half line and keep %d cases:\n%s", kept, r.stderr)
	}
	bfOnce(t, out, bfIOKeys(), "b_eff_io")
	bfSame(t, before, out)
	beffioCheck(t, beffioRead(t, out), []int{2}, r.stdout)
	bfSameShape(t, r.stdout, ref.stdout)
	// MPICH's mpiexec may end the other rank with SIGKILL, which leaves
	// the killed run's files behind; the resumed run has the same file
	// prefix (it comes from the results file) and removes them.
	beffioEmpty(t, dir)
}

// TestBeffIOSignal: SIGINT or SIGTERM to every rank in the rewrite: the
// finished types are kept, every file is removed, and the ranks exit with
// 128 + the signal.
func TestBeffIOSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			out, dir := faultDirs(t)
			setFault(t, "hang:1:"+bfIOStuck)
			r := signalAt(t, 2, out, "start "+bfIOStuck, sig, -1, bfIOCommand(out, dir, "-timeout", "0")...)
			bfInterrupted(t, r, sig)
			bfKept(t, out, true)
			beffioEmpty(t, dir)
		})
	}
}
