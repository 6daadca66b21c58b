package tune

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
	"mpibench/suites/tune"
)

// needMPICH skips a test of MPICH's selection file in the Open MPI run.
func needMPICH(t *testing.T) {
	t.Helper()
	e2e.NeedMPI(t)
	if e2e.LauncherKind() != "mpich" || mpi.Flavor != "mpich" {
		t.Skip("MPICH's selection file: the MPICH run tests it (MPIBENCH_E2E_SECOND_MPI=1 go test -tags mpich ./e2e/tune)")
	}
}

// bcastArgs are the launches of the test: IMB 2021's Bcast at 2
// processes from 0 bytes to 4 KiB.
var bcastArgs = []string{"mpi1", "-imb", "2021", "-npmin", "2", "-msglog", "0:12", "-iter", "200", "Bcast"}

// bcastTimes launches bcastArgs with env and returns t_max by length.
func bcastTimes(t *testing.T, env []string) map[int]float64 {
	t.Helper()
	r := e2e.ExecuteEnv(t, e2e.MpirunTimeout, env, e2e.Launcher(), append(e2e.LauncherArgs(2), bcastArgs...)...)
	e2e.MustSucceed(t, r)
	times := map[int]float64{}
	for _, tb := range e2e.ParseTables(t, r.Stdout) {
		for _, row := range tb.Rows {
			n, err1 := strconv.Atoi(row[0])
			v, err2 := strconv.ParseFloat(row[3], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("bad row %v", row)
			}
			times[n] = v
		}
	}
	if len(times) != 14 {
		t.Fatalf("%d lengths, want 0 to 4096:\n%s", len(times), r.Stdout)
	}
	return times
}

// writeRules writes the file of tab for MPICH and returns its path.
func writeRules(t *testing.T, m *tune.MPICH, tab tune.Table) string {
	t.Helper()
	var b strings.Builder
	if err := m.WriteRules(&b, tab); err != nil {
		t.Fatal(err)
	}
	return e2e.WriteFile(t, "mpich-rules.json", b.String())
}

// MPICH reads the file WriteRules writes: a table choosing nb (found by
// Algorithms) for Bcast at 2 processes up to 1 KiB and MPICH's own choice
// from 2 KiB makes 0 to 1024 bytes several times slower than without the
// file (nb is a nonblocking broadcast and a wait: about 1 µs more), 2 and
// 4 KiB not. Launches alternate, and each side keeps its fastest of three
// per length, against the load of a shared machine.
func TestMPICHReadsRules(t *testing.T) {
	needMPICH(t)
	m := &tune.MPICH{}
	algs, err := m.Algorithms()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(algs["Bcast"], func(a tune.Alg) bool { return a.Name == "nb" })
	if i < 0 {
		t.Fatalf("no nb among Bcast's %v", algs["Bcast"])
	}
	tab := tune.Table{"Bcast": {{NP: 2, Bytes: 0, Alg: algs["Bcast"][i]}, {NP: 2, Bytes: 2048, Alg: tune.Default}}}
	env := m.RulesEnv(writeRules(t, m, tab))
	def, tuned := map[int]float64{}, map[int]float64{}
	for range 3 {
		keepMin(def, bcastTimes(t, nil))
		keepMin(tuned, bcastTimes(t, env))
	}
	var small []float64
	for n := 0; n <= 4096; n = max(1, 2*n) {
		ratio := tuned[n] / def[n]
		t.Logf("%5d bytes: %.2f µs with the file, %.2f without: %.1fx", n, tuned[n], def[n], ratio)
		if n <= 1024 {
			small = append(small, ratio)
		} else if ratio > 1.5 {
			t.Errorf("%d bytes, where the file keeps MPICH's choice: %.1f times slower with it", n, ratio)
		}
	}
	slices.Sort(small)
	if med := small[len(small)/2]; med < 2 {
		t.Errorf("0 to 1024 bytes with nb: median %.1f times the default's time, want at least 2", med)
	}
}

// keepMin keeps in acc the smaller time per length.
func keepMin(acc, times map[int]float64) {
	for n, v := range times {
		if old, ok := acc[n]; !ok || v < old {
			acc[n] = v
		}
	}
}

// What MPICH 4.0.2 does with a bad file: every one ends the job at
// MPI_Init or at the first collective it cannot select, with no result:
// JSON that does not parse (an assertion in csel.c), a file that names
// only Bcast (mpibench's own first collective asserts "cnt" in
// mpir_coll.c: MPICH reads the file in place of its own selection, which
// is why WriteRules writes that selection whole), and no file at all (a
// segmentation fault: MPICH maps the file it failed to open). tune writes
// its file with WriteRules and the path with RulesEnv, absolute.
func TestMPICHBadRules(t *testing.T) {
	needMPICH(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
	}{
		{"truncated.json", `{"collective=bcast": {"comm_type=intra": {`},
		{"bcast-only.json", `{"collective=bcast": {"comm_type=intra": {"algorithm=MPIR_Bcast_intra_binomial": {}}}}`},
		{"missing.json", ""},
	} {
		path := filepath.Join(dir, c.name)
		if c.text != "" {
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := append(e2e.LauncherArgs(2), "mpi1", "-imb", "2021", "-npmin", "2", "-msglog", "0:2", "-iter", "10", "Bcast")
		r := e2e.ExecuteEnv(t, e2e.MpirunTimeout, (&tune.MPICH{}).RulesEnv(path), e2e.Launcher(), args...)
		e2e.NoPanic(t, r)
		if r.Code == 0 || strings.Contains(r.Stdout, "#repetitions") {
			t.Errorf("%s: MPICH ran with it:\n%s", c.name, r)
		}
		t.Logf("%s: exit %d, %s", c.name, r.Code, firstLine(r.Stdout+r.Stderr, "Assertion", "signal"))
	}
}

// firstLine is the first line of out with one of the words, "" if none.
func firstLine(out string, words ...string) string {
	for _, line := range strings.Split(out, "\n") {
		for _, w := range words {
			if strings.Contains(line, w) {
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}

// Every algorithm of every collective, written into one file, is a name
// MPICH's selection knows: MPI_Init parses the whole file and asserts on
// an unknown one. Each algorithm has a process count of its own, from 3
// up, which the 2-process launch does not reach.
func TestMPICHKnowsEveryAlgorithm(t *testing.T) {
	needMPICH(t)
	m := &tune.MPICH{}
	algs, err := m.Algorithms()
	if err != nil {
		t.Fatal(err)
	}
	tab := tune.Table{}
	for _, c := range tune.Colls {
		for i, a := range algs[c.Name] {
			tab[c.Name] = append(tab[c.Name], tune.Rule{NP: 3 + i, Alg: a})
		}
	}
	env := m.RulesEnv(writeRules(t, m, tab))
	args := append(e2e.LauncherArgs(2), "mpi1", "-imb", "2021", "-npmin", "2", "-msglog", "0:2", "-iter", "10", "Barrier", "Bcast")
	e2e.MustSucceed(t, e2e.ExecuteEnv(t, e2e.MpirunTimeout, env, e2e.Launcher(), args...))
}
