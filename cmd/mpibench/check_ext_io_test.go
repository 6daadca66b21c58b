package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Mutation tests of the IMB-EXT and IMB-IO data checks: the mutant binary
// (mpi/mutant.h) runs every benchmark of both suites in -check mode at 1
// and 5 bytes; each mutant must show defects in every benchmark it breaks
// at every length, the real kernels none. The IMB-IO files stay under
// 50·5 bytes; the mutant build's CPU_Exploit knob (mpi/mutant_cpu.go)
// makes the non-blocking loops' 50 repetitions take milliseconds.

// extIOMutants are the mutants of these suites with the benchmarks each
// breaks.
var extIOMutants = []struct {
	name  string
	suite string
	hits  func(bench string) bool
}{
	{"", "ext", func(string) bool { return false }},
	{"", "io", func(string) bool { return false }},
	{"rma-offset", "ext", extTransfers},
	{"first-only", "ext", extTransfers},
	{"io-offset", "io", func(b string) bool { return strings.Contains(b, "Write") }},
	{"first-only", "io", func(b string) bool { return b != "Open_Close" }},
}

// extTransfers: every IMB-EXT benchmark but Window, which has no data to
// check (IMB gives it no defects column).
func extTransfers(b string) bool { return b != "Window" }

func TestCheckFindsBrokenEXTIO(t *testing.T) {
	needMPI(t)
	bin := mutantBinary(t)
	t.Setenv("MPIBENCH_CPU_SECS", "0.001")
	lens := ioLengths(t, 1, 5)
	for _, m := range extIOMutants {
		name := m.name
		if name == "" {
			name = "none"
		}
		t.Run(m.suite+"/"+name, func(t *testing.T) {
			t.Setenv(mutantEnv, m.name)
			dir := t.TempDir()
			js := filepath.Join(dir, "o.jsonl")
			args := []string{m.suite, "-check", "-msglen", lens, "-json", js}
			if m.suite == "io" {
				iodir := filepath.Join(dir, "io")
				if err := os.Mkdir(iodir, 0o700); err != nil {
					t.Fatal(err)
				}
				defer ioAssertEmpty(t, iodir)
				args = append(args, "-npmin", "2", "-iodir", iodir)
			}
			r := launchBinary(t, bin, 2, args...)
			extIOCheckRun(t, r, ioReadRecords(t, js, false), m.hits)
		})
	}
}

// extIOCheckRun requires defects in exactly the records of broken
// benchmarks (length 0 moves nothing to check) and the matching exit code.
func extIOCheckRun(t *testing.T, r runResult, recs []ioRecord, hits func(string) bool) {
	t.Helper()
	noPanic(t, r)
	broken := false
	for _, rec := range recs {
		want := hits(rec.Benchmark) && rec.Bytes > 0
		broken = broken || want
		if !rec.Check || (rec.Defects > 0) != want {
			t.Errorf("%v: %g defects, want defects: %v", rec, rec.Defects, want)
		}
	}
	if code := map[bool]int{false: 0, true: 3}[broken]; r.code != code {
		t.Errorf("exit code %d, want %d\n%s", r.code, code, r)
	}
}

// launchBinary runs bin (an mpibench binary) on np processes under the
// launcher, as launch does for the tested binary.
func launchBinary(t *testing.T, bin string, np int, args ...string) runResult {
	t.Helper()
	argv := launcherArgs(np)
	argv[len(argv)-1] = bin
	return execute(t, mpirunTimeout, launcherPath, append(argv, args...)...)
}
