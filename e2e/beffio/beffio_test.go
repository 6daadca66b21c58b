package beffio

// Integration tests of mpibench beffio under the real launcher: b_eff_io
// is recomputed here, independently of package beffio, from the recorded
// type totals, and compared with the summary record and the last line.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/e2e"
)

// beffioRecord is the JSON form of a b_eff_io record.
type beffioRecord struct {
	Suite         string  `json:"suite"`
	Benchmark     string  `json:"benchmark"`
	Class         string  `json:"class"`
	Mode          string  `json:"mode"`
	NP            int     `json:"np"`
	Bytes         int     `json:"bytes"`
	Reps          int64   `json:"reps"`
	TMax          float64 `json:"t_max_us"`
	Defects       float64 `json:"defects"`
	BeffIOFigures `json:"b_eff_io"`
}

// BeffIOFigures are b_eff_io's own figures, in the record's "b_eff_io".
type BeffIOFigures struct {
	MemBytes int     `json:"mem_bytes"`
	Units    int     `json:"units"`
	IOBytes  int64   `json:"io_bytes"`
	Sched    float64 `json:"sched_s"`
	MBps     float64 `json:"io_mbps"`
	BeffIO   *struct {
		BeffIO     float64 `json:"b_eff_io"`
		Procs      int     `json:"procs"`
		MemMB      int     `json:"mem_mb"`
		Partitions []struct {
			Procs  int        `json:"procs"`
			Access [3]float64 `json:"access_mbps"`
			Value  float64    `json:"b_eff_io"`
		} `json:"partitions"`
	} `json:"beffio"`
}

var beffioTypes = []string{"scatter", "shared", "separated", "segmented", "seg_coll"}
var beffioAccesses = []string{"write", "rewrite", "read"}

func beffioRead(t *testing.T, path string) []beffioRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []beffioRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r beffioRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		recs = append(recs, r)
	}
	return recs
}

func beffioNear(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestBeffIORun(t *testing.T) {
	cases := []struct {
		np    int
		parts []int
	}{{2, []int{2}}, {3, []int{2, 3}}, {4, []int{4}}}
	for _, c := range cases {
		if c.np > e2e.MaxRanks() {
			continue
		}
		t.Run(fmt.Sprintf("np%d", c.np), func(t *testing.T) {
			dir := t.TempDir()
			iodir := filepath.Join(dir, "io")
			os.Mkdir(iodir, 0o755)
			js := filepath.Join(dir, "r.jsonl")
			args := []string{"beffio", "-T", "2", "-mem", "16", "-disk", "256M", "-iodir", iodir, "-json", js}
			if c.np == 3 {
				args = append(args, "-partitions", "2,3")
			}
			r := e2e.Launch(t, c.np, args...)
			e2e.MustSucceed(t, r)
			e2e.AssertEmpty(t, iodir)
			beffioCheck(t, beffioRead(t, js), c.parts, r.Stdout)
		})
	}
}

// beffioCheck recomputes b_eff_io from the records.
func beffioCheck(t *testing.T, recs []beffioRecord, parts []int, stdout string) {
	t.Helper()
	sum := recs[len(recs)-1].BeffIO
	if sum == nil {
		t.Fatal("last record is not the summary")
	}
	best, bestN := -1.0, 0
	for pi, n := range parts {
		var access [3]float64
		for a, acc := range beffioAccesses {
			var types [5]float64
			for ty, name := range beffioTypes {
				types[ty] = beffioType(t, recs, n, acc, name)
			}
			access[a] = (2*types[0] + types[1] + types[2] + types[3] + types[4]) / 6
		}
		value := 0.25*access[0] + 0.25*access[1] + 0.5*access[2]
		if p := sum.Partitions[pi]; p.Procs != n || !beffioNear(p.Value, value) || !beffioNear(p.Access[2], access[2]) {
			t.Errorf("partition %d: summary %+v, recomputed %g from %v", n, p, value, access)
		}
		if value > best {
			best, bestN = value, n
		}
		beffioReps(t, recs, n)
	}
	if !beffioNear(sum.BeffIO, best) || sum.Procs != bestN {
		t.Errorf("b_eff_io %g on %d, recomputed %g on %d", sum.BeffIO, sum.Procs, best, bestN)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) < 6 || f[0] != "b_eff_io" || f[2] != fmt.Sprintf("%.3f", best) || f[5] != strconv.Itoa(bestN) {
		t.Errorf("last line %q, want b_eff_io = %.3f MB/s on %d processes", lines[len(lines)-1], best, bestN)
	}
}

// beffioType checks one type total against its patterns and returns its
// bandwidth: all bytes over the time from open to close.
func beffioType(t *testing.T, recs []beffioRecord, n int, acc, typ string) float64 {
	t.Helper()
	var bytes int64
	var tsum float64
	patterns, totals := 0, 0
	var total beffioRecord
	for _, r := range recs {
		if r.Suite != "beffio" || r.NP != n || r.Mode != acc || r.Class != typ {
			continue
		}
		if r.Benchmark == "total" {
			total, totals = r, totals+1
			continue
		}
		patterns++
		if r.IOBytes != int64(n)*int64(r.MemBytes)*r.Reps {
			t.Errorf("%s %s n=%d: %d bytes, want %d·%d·%d", r.Benchmark, acc, n, r.IOBytes, n, r.MemBytes, r.Reps)
		}
		bytes += r.IOBytes
		tsum += r.TMax
	}
	want := map[string]int{"scatter": 9, "shared": 8, "separated": 8, "segmented": 9, "seg_coll": 9}[typ]
	if patterns != want || totals != 1 {
		t.Fatalf("%s %s n=%d: %d pattern and %d total records, want %d and 1", typ, acc, n, patterns, totals, want)
	}
	if total.IOBytes != bytes || total.TMax < tsum {
		t.Errorf("%s %s n=%d: total %d bytes in %g µs; patterns %d in %g µs", typ, acc, n, total.IOBytes, total.TMax, bytes, tsum)
	}
	bw := float64(total.IOBytes) / total.TMax // bytes/µs = MB/s
	if !beffioNear(total.MBps, bw) {
		t.Errorf("%s %s n=%d: %g MB/s, recomputed %g", typ, acc, n, total.MBps, bw)
	}
	return bw
}

// beffioReps: rewrite and read repeat the write's factors; first and fill
// patterns run once; types 3 and 4 repeat alike; only types 0-2 of the
// write are scheduled, with T·U/64/3.
func beffioReps(t *testing.T, recs []beffioRecord, n int) {
	t.Helper()
	reps := map[string]int64{}
	for _, r := range recs {
		if r.NP != n || r.Benchmark == "total" || r.BeffIO != nil {
			continue
		}
		if r.Mode == "write" {
			reps[r.Benchmark] = r.Reps
			want := 0.0
			if r.Class == "scatter" || r.Class == "shared" || r.Class == "separated" {
				want = 2 * float64(r.Units) / 64 / 3 / float64(beffioParts(recs))
			}
			if !beffioNear(r.Sched, want) {
				t.Errorf("%s: scheduled %g s with U=%d, want %g", r.Benchmark, r.Sched, r.Units, want)
			}
		} else if reps[r.Benchmark] != r.Reps {
			t.Errorf("%s %s: %d repetitions, write had %d", r.Benchmark, r.Mode, r.Reps, reps[r.Benchmark])
		}
		if r.Units == 0 && r.Reps != 1 {
			t.Errorf("%s: %d repetitions with U=0", r.Benchmark, r.Reps)
		}
	}
	for k := 25; k <= 33; k++ {
		a, b := fmt.Sprintf("p%02d", k), fmt.Sprintf("p%02d", k+9)
		if reps[a] != reps[b] || reps[a] < 1 {
			t.Errorf("%s repeats %d, %s %d", a, reps[a], b, reps[b])
		}
	}
}

func beffioParts(recs []beffioRecord) int { return len(recs[len(recs)-1].BeffIO.Partitions) }

// Bad input: exit 2 on every rank before any measurement (the flags:
// suites/beffio's TestBadInput, read in process; -iodir is checked by
// every rank when the job runs).
func TestBeffIOBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-iodir", "/nonexistent/dir"},
	} {
		r := e2e.Launch(t, 2, append([]string{"beffio", "-T", "1", "-mem", "1", "-iodir", dir}, args...)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, "beffio") {
			t.Errorf("%q: want exit 2 with a message, got %s", args, r)
		}
		if strings.Contains(r.Stdout, "b_eff_io =") {
			t.Errorf("%q: measured anyway", args)
		}
	}
	e2e.AssertEmpty(t, dir)
}

// SIGTERM in the middle of a run: every file is removed, exit 143 or the
// launcher's report of it.
func TestBeffIOInterrupt(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	dir := t.TempDir()
	cmd, _, _ := e2e.StartRun(t, 2, "beffio", "-T", "60", "-mem", "16", "-disk", "1G", "-iodir", dir)
	// Wait until the benchmark files exist, then interrupt.
	deadline := time.Now().Add(20 * time.Second)
	seen := false
	for !seen && time.Now().Before(deadline) {
		ents, _ := os.ReadDir(dir)
		seen = len(ents) > 0
		time.Sleep(50 * time.Millisecond)
	}
	if !seen {
		t.Error("no benchmark file appeared within 20 s")
	}
	time.Sleep(300 * time.Millisecond)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		// Hydra (MPICH) may report 0 for a job its signal ended; Open
		// MPI's mpirun reports the ranks' 143.
		if err == nil && e2e.LauncherKind() == "openmpi" {
			t.Error("interrupted run exited 0")
		}
	case <-time.After(30 * time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal("no exit after SIGTERM")
	}
	e2e.AssertEmpty(t, dir)
}
