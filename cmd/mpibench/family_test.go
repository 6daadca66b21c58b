//go:build cgo && !nompi

package main

// The MPI binary runs the IMB family's binary for the IMB commands
// (family.go); TestMain builds it next to binPath.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/run/mpijob"
)

// loneBinary is a link to binPath in a directory of its own: no family
// binary next to it.
func loneBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mpibench")
	if err := os.Link(binPath, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestFamilyExec: an IMB command run through mpibench executes the family
// binary (its records and header name mpibench-imb, which only the
// imbonly build is), and a lone mpibench runs it itself with the same
// table and records, naming itself.
func TestFamilyExec(t *testing.T) {
	needMPI(t)
	t.Setenv(familyEnv, "")
	lens := ioLengths(t, 0, 8, 1024)
	js := filepath.Join(t.TempDir(), "r.jsonl") // the same in both headers
	run := func(bin string) (string, []record) {
		if err := os.RemoveAll(js); err != nil {
			t.Fatal(err)
		}
		r := launchBinary(t, bin, 2, "mpi1", "-time", "off", "PingPong", "Allreduce", "-msglen", lens, "-json", js)
		mustSucceed(t, r)
		return r.stdout, readRecords(t, js)
	}
	viaFamily, famRecs := run(binPath)
	inProcess, ownRecs := run(loneBinary(t))
	for _, c := range []struct {
		out  string
		recs []record
		tool string
	}{{viaFamily, famRecs, "mpibench-imb " + mpijob.Version}, {inProcess, ownRecs, "mpibench " + mpijob.Version}} {
		if !strings.Contains(c.out, "#    "+c.tool+", MPI-1 part\n") {
			t.Errorf("the header does not name %s:\n%s", c.tool, c.out)
		}
		for _, r := range c.recs {
			if r.Context.Tool != c.tool {
				t.Fatalf("record %v: context.tool %q, want %q", r, r.Context.Tool, c.tool)
			}
		}
	}
	if got, want := tableShape(viaFamily), tableShape(inProcess); got != want {
		t.Errorf("the tables differ beyond their times:\nthrough %s:\n%s\nin mpibench:\n%s", familyPath(), got, want)
	}
	key := func(r record) string { return fmt.Sprintf("%s %d B np %d reps %d", r.Benchmark, r.Bytes, r.NP, r.Reps) }
	if len(famRecs) != len(ownRecs) || len(famRecs) == 0 {
		t.Fatalf("%d records through the family binary, %d in mpibench", len(famRecs), len(ownRecs))
	}
	for i := range famRecs {
		if a, b := famRecs[i], ownRecs[i]; key(a) != key(b) {
			t.Errorf("record %d: %s through the family binary, %s in mpibench", i, key(a), key(b))
		}
	}
}

// times are the numbers of a table with a decimal point.
var times = regexp.MustCompile(`\d+\.\d+`)

// tableShape is a run's output without what differs between runs: the
// tool line, the date, the times and the column widths they make.
func tableShape(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, " part") && !strings.HasPrefix(l, "# Date") {
			keep = append(keep, strings.Join(strings.Fields(times.ReplaceAllString(l, "T")), " "))
		}
	}
	return strings.Join(keep, "\n")
}

// TestFamilyLinksIMBOnly: the family binary links no code of the other
// suites, Go or C, and is smaller; the MPI binary links them (or the
// check would prove nothing).
func TestFamilyLinksIMBOnly(t *testing.T) {
	others := regexp.MustCompile(`^(mpibench/(osu|skampi|beff|beffio|pgmpi|links|compare|guideline|report/plots)[./]|` +
		`mb_(osu|osucoll|sk|beff|beffio|pg|links)_)`)
	linked := func(bin string) (found []string, text int) {
		out, err := exec.Command(goTool(), "tool", "nm", "-size", bin).CombinedOutput()
		if err != nil {
			t.Fatalf("go tool nm %s: %v\n%s", bin, err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			f := strings.Fields(l) // address size type name
			if len(f) == 4 && (f[2] == "T" || f[2] == "t") && others.MatchString(f[3]) {
				found = append(found, f[3])
			}
		}
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		return found, int(st.Size())
	}
	fam, famSize := linked(familyPath())
	full, fullSize := linked(binPath)
	if len(fam) > 0 {
		t.Errorf("the family binary links %d functions of other suites, e.g. %q", len(fam), fam[:min(len(fam), 10)])
	}
	for _, want := range []string{"mpibench/osu.", "mpibench/skampi.", "mb_sk_", "mb_beff_"} {
		if !slices.ContainsFunc(full, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("the MPI binary links nothing starting %q: is the check wrong?", want)
		}
	}
	if famSize >= fullSize*9/10 {
		t.Errorf("the family binary is %d bytes, the MPI binary %d", famSize, fullSize)
	}
}

// TestFamilyLoopGuard: an mpibench run as the family binary ($MPIBENCH_IMB
// naming an MPI binary) stops with exit code 2 instead of running itself
// forever; a $MPIBENCH_IMB that cannot run is an error, not a silent
// fallback; a family binary of another MPI refuses to run.
func TestFamilyLoopGuard(t *testing.T) {
	t.Setenv(familyEnv, binPath)
	r := direct(t, "mpi1", "-h")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "is mpibench itself, which would run it again") {
		t.Errorf("%s=%s: want exit code 2 and the loop named, got %s", familyEnv, binPath, r)
	}
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv(familyEnv, none)
	if r := direct(t, "mpi1", "-h"); r.code != 2 || !strings.Contains(r.stderr, familyEnv+"="+none) {
		t.Errorf("a missing $%s: want exit code 2 naming it, got %s", familyEnv, r)
	}
	t.Setenv(familyEnv, "")
	t.Setenv(familyFrom, "other:/elsewhere/mpibench")
	r = execute(t, directTimeout, familyPath(), "mpi1", "-h")
	if r.code != 2 || !strings.Contains(r.stderr, "/elsewhere/mpibench (which ran it) for other") {
		t.Errorf("a family binary run by another MPI's mpibench: want exit code 2, got %s", r)
	}
}

// TestFamilyRefusesOthers: the family binary runs the IMB commands only;
// another suite's is refused with exit code 2, naming mpibench.
func TestFamilyRefusesOthers(t *testing.T) {
	t.Setenv(familyFrom, "")
	for _, args := range [][]string{{"beff"}, {"osu", "-h"}, {"report", "r.jsonl"}, {"guidelines", "check", "d"}} {
		r := execute(t, directTimeout, familyPath(), args...)
		noPanic(t, r)
		want := "mpibench-imb: \"" + args[0] + "\" is not a command of the IMB family's binary"
		if r.code != 2 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "run 'mpibench "+args[0]+"'") {
			t.Errorf("mpibench-imb %q: want exit code 2 and %q, got %s", args, want, r)
		}
	}
	r := execute(t, directTimeout, familyPath(), "-h")
	mustSucceed(t, r)
	if strings.Contains(r.stdout, "skampi") || !strings.Contains(r.stdout, "mpibench-imb rma") {
		t.Errorf("mpibench-imb -h: want the IMB commands alone:\n%s", r.stdout)
	}
}
