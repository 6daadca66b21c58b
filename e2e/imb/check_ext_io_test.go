package imb

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// Mutation tests of the IMB-EXT and IMB-IO data checks: the mutant binary
// (mpi/mutant.h) runs every benchmark of both suites that moves data (not
// Window and Open_Close, which have none to check) in -check mode at 1
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
	{"first-only", "io", func(string) bool { return true }},
}

func extTransfers(string) bool { return true }

// extIOBenchmarks are the benchmarks a suite's runs select.
func extIOBenchmarks(suite string) []string {
	if suite == "ext" {
		return []string{"Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"}
	}
	return slices.DeleteFunc(slices.Clone(ioNames), func(n string) bool { return n == "Open_Close" })
}

func TestCheckFindsBrokenEXTIO(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	t.Setenv("MPIBENCH_CPU_SECS", "0.0001")
	lens := e2e.Lengths(t, 1, 5)
	for _, m := range extIOMutants {
		name := m.name
		if name == "" {
			name = "none"
		}
		t.Run(m.suite+"/"+name, func(t *testing.T) {
			t.Setenv(e2e.MutantEnv, m.name)
			dir := t.TempDir()
			js := filepath.Join(dir, "o.jsonl")
			args := []string{m.suite, "-check", "-msglen", lens, "-json", js}
			if m.suite == "io" {
				iodir := filepath.Join(dir, "io")
				if err := os.Mkdir(iodir, 0o700); err != nil {
					t.Fatal(err)
				}
				defer e2e.AssertEmpty(t, iodir)
				args = append(args, "-npmin", "2", "-iodir", iodir)
			}
			names := extIOBenchmarks(m.suite)
			r := e2e.LaunchBin(t, bin, 2, append(args, names...)...)
			extIOCheckRun(t, r, ioReadRecords(t, js, false), names, m.hits)
		})
	}
}

// extIOCheckRun requires records of every benchmark at both lengths,
// defects in exactly the records of broken benchmarks (length 0 moves
// nothing to check) and the matching exit code.
func extIOCheckRun(t *testing.T, r e2e.Result, recs []ioRecord, names []string, hits func(string) bool) {
	t.Helper()
	e2e.NoPanic(t, r)
	lens := map[string]map[int]bool{}
	for _, rec := range recs {
		if lens[rec.Benchmark] == nil {
			lens[rec.Benchmark] = map[int]bool{}
		}
		lens[rec.Benchmark][rec.Bytes] = true
	}
	for _, n := range names {
		if len(lens[n]) != 2 {
			t.Errorf("%s: records at lengths %v, want two (1 and 5 bytes, rounded up to 4 and 8 for Accumulate)", n, lens[n])
		}
	}
	broken := false
	for _, rec := range recs {
		want := hits(rec.Benchmark) && rec.Bytes > 0
		broken = broken || want
		if !rec.Check || (rec.Defects > 0) != want {
			t.Errorf("%v: %g defects, want defects: %v", rec, rec.Defects, want)
		}
	}
	if code := map[bool]int{false: 0, true: 3}[broken]; r.Code != code {
		t.Errorf("exit code %d, want %d\n%s", r.Code, code, r)
	}
}
