package skampi

// Integration tests of mpibench skampi under the real launcher, with tiny
// configurations: the records' names, parameters and figures, the text,
// bad input, and a run killed part-way then resumed.

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
)

// skampiTiny has one measurement per pattern and parameter; its bounds
// are checked against the records.
// timelimit 600: the repetition bounds are checked, which the default 0.5 s
// limit would cut short on a loaded machine.
const skampiTiny = `node tiny-node
network tiny-net
user tiny-user
epsilon 0.1
minreps 4
maxreps 16
timelimit 600
budget 12
measure Pingpong_Send_Recv  pingpong      Send_Recv   bytes 1..1K
measure Pingpong_Bsend_Recv pingpong      Bsend_Recv  none len=64
measure Bcast               collective    Bcast       bytes 1..4K gamma=4 budget=8
measure Barrier_nodes       collective    Barrier     procs 1..P
measure Comm_split_nodes    collective    Comm_split  procs 2..P step=doubling
measure MW_Waitsome_work    master-worker Waitsome    workpieces 1..4 step=doubling len=32
measure MW_Isend            master-worker Isend       bytes 1..256 gamma=4
measure MW_Recv_Any_nodes   master-worker Recv_Any    procs 2..P len=16
measure Wtime               simple        Wtime       none
measure Attr_get            simple        Attr_get    none
`

// skampiRecord is the JSON form of a SKaMPI record, read independently
// of package result.
type skampiRecord struct {
	Suite     string  `json:"suite"`
	Benchmark string  `json:"benchmark"`
	Class     string  `json:"class"`
	Mode      string  `json:"mode"`
	NP        int     `json:"np"`
	Groups    [][]int `json:"groups"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	Stats     *struct {
		N                                       int
		Mean, Trimmed, StdErr, Min, Median, Max float64
		TrimmedStdErr                           float64 `json:"trimmed_stderr"`
	} `json:"stats"`
	Samples       []float64 `json:"samples_us"`
	TimeLimit     float64   `json:"time_limit_s"`
	SkampiFigures `json:"skampi"`
	Context       struct {
		Procs   int    `json:"procs"`
		MPI     string `json:"mpi"`
		Node    string `json:"node"`
		Network string `json:"network"`
		User    string `json:"user"`
	} `json:"context"`
}

func skampiRead(t *testing.T, path string) []skampiRecord {
	t.Helper()
	return e2e.ReadJSONL[skampiRecord](t, path)
}

func skampiWrite(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.ski")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// skampiByName groups the records by measurement, failing when one
// measurement's records are not contiguous (it was journaled twice).
func skampiByName(t *testing.T, recs []skampiRecord) (map[string][]skampiRecord, []string) {
	t.Helper()
	by := map[string][]skampiRecord{}
	var order []string
	for i, r := range recs {
		if i == 0 || recs[i-1].Benchmark != r.Benchmark {
			if slices.Contains(order, r.Benchmark) {
				t.Errorf("%s journaled twice", r.Benchmark)
			}
			order = append(order, r.Benchmark)
		}
		by[r.Benchmark] = append(by[r.Benchmark], r)
	}
	return by, order
}

func TestSkampiTiny(t *testing.T) {
	for _, np := range e2e.RankCounts() {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			r := e2e.Launch(t, np, "skampi", "-config", skampiWrite(t, skampiTiny), "-o", out)
			e2e.MustSucceed(t, r)
			by, order := skampiByName(t, skampiRead(t, out))
			want := []string{"Pingpong_Send_Recv", "Pingpong_Bsend_Recv", "Bcast", "Barrier_nodes", "Comm_split_nodes",
				"MW_Waitsome_work", "MW_Isend", "MW_Recv_Any_nodes", "Wtime", "Attr_get"}
			if !slices.Equal(order, want) {
				t.Fatalf("measurements %v, want %v", order, want)
			}
			for _, name := range want {
				if !strings.Contains(r.Stdout, "# "+name+":") {
					t.Errorf("no table for %s in the text output", name)
				}
				skampiCheck(t, np, by[name])
			}
			skampiCheckXs(t, np, by)
		})
	}
}

// skampiCheck verifies the rules every record of a measurement obeys.
func skampiCheck(t *testing.T, np int, recs []skampiRecord) {
	t.Helper()
	for _, r := range recs {
		s := r.Stats
		id := fmt.Sprintf("%s x=%d", r.Benchmark, r.X)
		switch {
		case r.Suite != "skampi" || s == nil:
			t.Fatalf("%s: suite %q stats %v", id, r.Suite, s)
		case r.Context.Procs != np || r.Context.MPI != mpi.Flavor:
			t.Errorf("%s: context %+v", id, r.Context)
		case r.Context.Node != "tiny-node" || r.Context.Network != "tiny-net" || r.Context.User != "tiny-user":
			t.Errorf("%s: identity %+v", id, r.Context)
		case !(s.Min <= s.Median && s.Median <= s.Max && s.Min <= s.Trimmed && s.Trimmed <= s.Max):
			t.Errorf("%s: figures out of order: %+v", id, *s)
		case s.N != r.Reps || s.N < 4 || s.N > 16:
			t.Errorf("%s: n %d reps %d, want 4..16", id, s.N, r.Reps)
		case s.N < 16 && !r.Reached:
			t.Errorf("%s: stopped at n=%d < maxreps without reaching epsilon", id, s.N)
		case r.Epsilon != 0.1 || s.StdErr < 0:
			t.Errorf("%s: epsilon %g stderr %g", id, r.Epsilon, s.StdErr)
		case len(r.Groups) != 1 || len(r.Groups[0]) != r.NP:
			t.Errorf("%s: groups %v for %d processes", id, r.Groups, r.NP)
		}
	}
}

// skampiCheckXs verifies the parameter values of each measurement.
func skampiCheckXs(t *testing.T, np int, by map[string][]skampiRecord) {
	t.Helper()
	xs := func(name string) []int {
		var x []int
		for _, r := range by[name] {
			x = append(x, r.X)
			if r.Param == "bytes" && r.Bytes != r.X {
				t.Errorf("%s: bytes %d at x=%d", name, r.Bytes, r.X)
			}
			if r.Param == "procs" && r.NP != r.X {
				t.Errorf("%s: np %d at x=%d", name, r.NP, r.X)
			}
		}
		return x
	}
	upTo := func(lo int) []int {
		var p []int
		for i := lo; i <= np; i++ {
			p = append(p, i)
		}
		return p
	}
	doubling := []int{2, 4}[:1+min(np/4, 1)]
	for name, want := range map[string][]int{"Barrier_nodes": upTo(1), "MW_Recv_Any_nodes": upTo(2),
		"Comm_split_nodes": doubling, "MW_Waitsome_work": {1, 2, 4}, "Wtime": {0}, "Pingpong_Bsend_Recv": {0}} {
		if got := xs(name); !slices.Equal(got, want) {
			t.Errorf("%s: x = %v, want %v", name, got, want)
		}
	}
	// The refinement measures the grid 1, 2, 4, ..., 1024, then at most
	// one more point (budget 12); records come by increasing length.
	pp := xs("Pingpong_Send_Recv")
	grid := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}
	if len(pp) > 12 || !slices.IsSorted(pp) || len(slices.DeleteFunc(slices.Clone(grid), func(x int) bool { return slices.Contains(pp, x) })) > 0 {
		t.Errorf("Pingpong_Send_Recv: lengths %v, want the grid %v and at most one more", pp, grid)
	}
	for _, r := range by["Pingpong_Send_Recv"] {
		if g := r.Groups[0]; g[0] == g[1] || g[0] >= np || g[1] >= np || r.Class != "pingpong" || r.Mode != "MPI_Send/MPI_Recv" {
			t.Errorf("Pingpong_Send_Recv: pair %v class %s mode %s", g, r.Class, r.Mode)
		}
	}
	if b := xs("Bcast"); len(b) < 7 || len(b) > 8 || b[0] != 1 || b[len(b)-1] != 4096 {
		t.Errorf("Bcast: lengths %v", b)
	}
	if r := by["Wtime"][0]; r.NP != 1 || r.Param != "none" || r.Class != "simple" {
		t.Errorf("Wtime: %+v", r)
	}
}

// Bad input ends every rank with 2 before any measurement: nothing on
// stdout, the error (with file:line for the configuration) once (the
// other bad configurations and flags: suites/skampi's TestBadInput, read
// in process).
func TestSkampiBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	bad := skampiWrite(t, "epsilon 0.1\nmeasure A pingpong Send_Recv bytes 1..4 gamma=0.5\n")
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-config", bad}, bad + ":2: option gamma=\"0.5\""},
		// -o is -json's old spelling; the message names -json.
		{[]string{"-o", filepath.Join(dir, "no", "such", "dir.jsonl")}, "-json: open"},
	}
	for _, c := range cases {
		r := e2e.Launch(t, 2, append([]string{"skampi"}, c.args...)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || r.Stdout != "" || strings.Count(r.Stderr, c.want) != 1 {
			t.Errorf("skampi %v: want exit 2, no output, %q once in stderr; got %s", c.args, c.want, r)
		}
	}
}

// skampiKillTiny: Slow takes 0.1 s or more whatever ε says (its ε is
// never reached), so a kill at its start lands inside it.
const skampiKillTiny = `node n
epsilon 0.1
minreps 4
maxreps 16
measure Wtime               simple     Wtime      none
measure Pingpong_Send_Recv  pingpong   Send_Recv  bytes 1..64
measure Slow                pingpong   Send_Recv  none len=256K epsilon=0.000000001 minreps=1 maxreps=2000
measure Bcast               collective Bcast      bytes 1..256
measure Comm_size           simple     Comm_size  none
`

// A run killed (SIGKILL to a rank) inside its third measurement, then
// resumed: every measurement is in the journal exactly once, the killed
// one retried last, and the half line left behind is skipped.
func TestSkampiKillResume(t *testing.T) {
	e2e.NeedMPI(t)
	cfg := skampiWrite(t, skampiKillTiny)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.KillAt(t, 2, out, "start Slow", "skampi", "-config", cfg, "-o", out)
	if e2e.StateHas(out, "done Slow") {
		t.Fatal("Slow finished before the kill: make it slower")
	}
	if recs := skampiRead(t, out); len(recs) == 0 || recs[len(recs)-1].Benchmark != "Pingpong_Send_Recv" {
		t.Fatalf("after the kill the journal should end with Pingpong_Send_Recv, has %d records", len(recs))
	}
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"suite":"skampi","benchmark":"Slo`) // a write cut short
	f.Close()

	r := e2e.Launch(t, 2, "skampi", "-config", cfg, "-o", out, "-resume")
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "measured again last: Slow") || !strings.Contains(r.Stderr, "warning") {
		t.Errorf("resume should warn about the half line and retry Slow last:\n%s", r.Stderr)
	}
	// Wtime is kept and shown from its records, Slow measured: each once.
	if strings.Count(r.Stdout, "# Wtime:") != 1 || strings.Count(r.Stdout, "# Slow:") != 1 {
		t.Errorf("resume should show Wtime (kept) and Slow (measured) once each:\n%s", r.Stdout)
	}
	_, order := skampiByName(t, skampiRead(t, out))
	want := []string{"Wtime", "Pingpong_Send_Recv", "Bcast", "Comm_size", "Slow"}
	if !slices.Equal(order, want) {
		t.Errorf("journal after resume: %v, want %v", order, want)
	}
}

// SkampiFigures are the record's "skampi".
type SkampiFigures struct {
	Param      string   `json:"param"`
	X          int      `json:"x"`
	Epsilon    float64  `json:"epsilon"`
	Reached    bool     `json:"reached"`
	Correction float64  `json:"correction_us"`
	RelErr     *float64 `json:"rel_err"`
	Stop       string   `json:"stop"`
	MinReps    int      `json:"min_reps"`
	MaxReps    int      `json:"max_reps"`
	Tick       float64  `json:"tick_us"`
}
