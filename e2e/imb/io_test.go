package imb

// Tests that run mpibench io under the real launcher. The IMB-IO rules
// (names, order, classes, modes, repetitions, file names) are written
// down here again, from the IMB 3.0 guide, independently of package imb.
// The non-blocking benchmarks run CPU_Exploit for 0.1 s per transfer, so
// they get 16 MiB lengths (one repetition) and the blocking ones small
// lengths, which keeps the file under a minute.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/e2e"
)

// ioNames is IMB-IO's benchmark list in its default order.
var ioNames = []string{
	"S_Write_Indv", "S_IWrite_Indv", "S_Write_Expl", "S_IWrite_Expl",
	"P_Write_Indv", "P_IWrite_Indv", "P_Write_Shared", "P_IWrite_Shared",
	"P_Write_Priv", "P_IWrite_Priv", "P_Write_Expl", "P_IWrite_Expl",
	"C_Write_Indv", "C_IWrite_Indv", "C_Write_Shared", "C_IWrite_Shared",
	"C_Write_Expl", "C_IWrite_Expl",
	"S_Read_Indv", "S_IRead_Indv", "S_Read_Expl", "S_IRead_Expl",
	"P_Read_Indv", "P_IRead_Indv", "P_Read_Shared", "P_IRead_Shared",
	"P_Read_Priv", "P_IRead_Priv", "P_Read_Expl", "P_IRead_Expl",
	"C_Read_Indv", "C_IRead_Indv", "C_Read_Shared", "C_IRead_Shared",
	"C_Read_Expl", "C_IRead_Expl",
	"Open_Close",
}

func ioNonBlocking(name string) bool {
	return strings.Contains(name, "_IWrite") || strings.Contains(name, "_IRead")
}

// ioSelect lists the benchmarks, blocking or non-blocking, in IMB order.
func ioSelect(nonBlocking bool) []string {
	var out []string
	for _, n := range ioNames {
		if ioNonBlocking(n) == nonBlocking {
			out = append(out, n)
		}
	}
	return out
}

// ioClass is the JSON class: S_ single, P_ parallel, C_ and Open_Close
// collective.
func ioClass(name string) string {
	return map[byte]string{'S': "single", 'P': "parallel", 'C': "collective", 'O': "collective"}[name[0]]
}

// ioModes are the tables of a benchmark in order: blocking writes
// aggregate then non-aggregate, reads aggregate, non-blocking versions
// their own mode, Open_Close none.
func ioModes(name string) []string {
	switch {
	case name == "Open_Close":
		return []string{""}
	case ioNonBlocking(name):
		return []string{"non-blocking"}
	case strings.Contains(name, "Write"):
		return []string{"aggregate", "non-aggregate"}
	}
	return []string{"aggregate"}
}

// ioReps is n_sample of settings_io.h: MSGSPERSAMPLE 50 (MSGS_NONAGGR 10
// for non-aggregate), at most OVERALL_VOL = 16 MiB per sample, at least 1.
func ioReps(x int, mode string) int {
	n := 50
	if mode == "non-aggregate" {
		n = 10
	}
	if x == 0 {
		return n
	}
	return max(1, min(n, 16<<20/x))
}

// ioCounts are the process counts: 1, 2, 4, ..., P; single transfers 1.
func ioCounts(p int, class string) []int {
	if class == "single" {
		return []int{1}
	}
	var qs []int
	for q := 1; q < p; q *= 2 {
		qs = append(qs, q)
	}
	return append(qs, p)
}

// ioRankCounts are the job sizes: 1, 2 and, with Open MPI, 4.
func ioRankCounts() []int {
	if e2e.MaxRanks() >= 4 {
		return []int{1, 2, 4}
	}
	return []int{1, 2}
}

type ioRecord struct {
	Suite          string  `json:"suite"`
	Benchmark      string  `json:"benchmark"`
	Class          string  `json:"class"`
	Multi          int     `json:"multi"`
	Group          int     `json:"group"`
	NP             int     `json:"np"`
	Groups         [][]int `json:"groups"`
	Bytes          int     `json:"bytes"`
	Reps           int     `json:"reps"`
	TMin           float64 `json:"t_min_us"`
	TMax           float64 `json:"t_max_us"`
	TAvg           float64 `json:"t_avg_us"`
	MBps           float64 `json:"mbytes_per_sec"`
	Check          bool    `json:"check"`
	Defects        float64 `json:"defects"`
	Mode           string  `json:"mode"`
	OverlapFigures `json:"overlap"`
	Context        struct {
		MPI   string `json:"mpi"`
		Procs int    `json:"procs"`
	} `json:"context"`
}

func (r ioRecord) String() string {
	return fmt.Sprintf("%s np=%d groups=%v group=%d mode=%q bytes=%d reps=%d t=%g/%g/%g mbps=%g defects=%g ovrl=%g pure=%g cpu=%g overlap=%g",
		r.Benchmark, r.NP, r.Groups, r.Group, r.Mode, r.Bytes, r.Reps, r.TMin, r.TAvg, r.TMax, r.MBps, r.Defects,
		r.TOvrl, r.TPure, r.TCPU, r.Overlap)
}

// ioReadRecords reads a -json file; allowEmpty accepts a file without
// records.
func ioReadRecords(t *testing.T, path string, allowEmpty bool) []ioRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("-json file: %v", err)
	}
	var recs []ioRecord
	for n, line := range e2e.RecordLines(string(data)) {
		if line == "" {
			continue // an empty file
		}
		var r ioRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: record %d: %v: %q", path, n+1, err, line)
		}
		recs = append(recs, r)
	}
	if len(recs) == 0 && !allowEmpty {
		t.Fatalf("%s: no records", path)
	}
	return recs
}

// ioRun runs mpibench io on np ranks with an -iodir and a -json file of
// its own, and checks that the directory is empty afterwards. It runs with
// -time off (args may override it): the tests check IMB 3.0's counts, which
// the default bound of 0.5 s would lower for the non-blocking benchmarks.
func ioRun(t *testing.T, np int, args ...string) (e2e.Result, []ioRecord, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "io")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, np, append([]string{"io", "-iodir", dir, "-json", js, "-time", "off"}, args...)...)
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, dir)
	return r, ioReadRecords(t, js, false), dir
}

// ioRow is one expected record: benchmark, process count, mode, length,
// group (-multi 1).
type ioRow struct {
	bench string
	np    int
	mode  string
	bytes int
	group int
}

// ioExpectedRows is the record sequence of a run: benchmarks in order,
// then process counts, modes, lengths and, with -multi 1, groups.
func ioExpectedRows(names []string, p int, lens []int, multi int) []ioRow {
	var rows []ioRow
	for _, n := range names {
		for _, q := range ioCounts(p, ioClass(n)) {
			for _, m := range ioModes(n) {
				xs := lens
				if n == "Open_Close" {
					xs = []int{0}
				}
				for _, x := range xs {
					groups := []int{-1}
					if multi == 1 {
						groups = seq(p / q)
					}
					for _, g := range groups {
						rows = append(rows, ioRow{n, q, m, x, g})
					}
				}
			}
		}
	}
	return rows
}

// ioCheckRecords compares the records with the expected sequence and
// checks every record's own rules.
func ioCheckRecords(t *testing.T, recs []ioRecord, want []ioRow, p, multi int, check bool) {
	t.Helper()
	var got []ioRow
	for _, r := range recs {
		got = append(got, ioRow{r.Benchmark, r.NP, r.Mode, r.Bytes, r.Group})
		ioCheckRecord(t, r, p, multi, check)
	}
	if !slices.Equal(got, want) {
		t.Errorf("records (benchmark, np, mode, bytes, group):\n got %v\nwant %v", got, want)
	}
}

func ioCheckRecord(t *testing.T, r ioRecord, p, multi int, check bool) {
	t.Helper()
	if r.Suite != "io" || r.Class != ioClass(r.Benchmark) || r.Context.Procs != p || r.Check != check || r.Multi != multi {
		t.Errorf("%v: suite %q class %q procs %d check %v multi %d", r, r.Suite, r.Class, r.Context.Procs, r.Check, r.Multi)
	}
	if r.Defects != 0 {
		t.Errorf("%v: %g defects", r, r.Defects)
	}
	if want := ioReps(r.Bytes, r.Mode); r.Reps != want {
		t.Errorf("%v: %d repetitions, want %d", r, r.Reps, want)
	}
	wantGroups := [][]int{seq(r.NP)}
	if multi >= 0 {
		wantGroups = multiGroups(p, r.NP)
	}
	if !equalGroups(r.Groups, wantGroups) {
		t.Errorf("%v: groups %v, want %v", r, r.Groups, wantGroups)
	}
	const eps = 1e-9
	if !(r.TMin >= 0 && r.TMin <= r.TAvg*(1+eps)+eps && r.TAvg <= r.TMax*(1+eps)+eps) {
		t.Errorf("%v: want 0 <= t_min <= t_avg <= t_max", r)
	}
	t0, want := r.TMax, 0.0
	if r.Mode == "non-blocking" {
		ioCheckOverlap(t, r)
		t0 = r.TPure
	}
	if r.Benchmark != "Open_Close" && t0 > 0 {
		want = float64(r.Bytes) / 1.048576 / t0
	}
	if math.Abs(r.MBps-want) > 1e-6*math.Max(1, want) {
		t.Errorf("%v: Mbytes/sec %g, want X/1.048576/t = %g", r, r.MBps, want)
	}
}

// ioCheckOverlap: t_ovrl is the worst overlapped time, t_CPU the
// calibrated CPU_Exploit time (about TARGET_CPU_SECS = 0.1 s of CPU time),
// and overlap the formula of section 4.2.5.2 in percent, as it is.
func ioCheckOverlap(t *testing.T, r ioRecord) {
	t.Helper()
	if r.TOvrl != r.TMax || r.TPure <= 0 || r.TCPU < 0.05e6 || r.TCPU > 2e6 || r.CPUMflops <= 0 {
		t.Errorf("%v: want t_ovrl = t_max, t_pure > 0, t_CPU about 0.1 s, Mflop/s > 0", r)
	}
	want := 100 * (r.TPure + r.TCPU - r.TOvrl) / min(r.TPure, r.TCPU)
	if math.Abs(r.Overlap-want) > 1e-6 {
		t.Errorf("%v: overlap %g, want %g", r, r.Overlap, want)
	}
	// The ranks calibrate at once, up to 4 of them on 2 cores and beside
	// other jobs, so a rank running alone later may well take a fraction
	// of t_CPU; but t_ovrl near t_pure means that CPU_Exploit did not run
	// with the transfers.
	if r.TPure < r.TCPU/20 && r.TOvrl < r.TCPU/10 {
		t.Errorf("%v: t_ovrl %g is far below t_CPU: CPU_Exploit did not run with every transfer", r, r.TOvrl)
	}
}

// ioCheckTables checks the text tables: one per benchmark, process count
// and mode, in the record order, headed by its MODE line.
func ioCheckTables(t *testing.T, out string, want []ioRow, multi int) {
	t.Helper()
	type key struct {
		bench string
		np    int
		mode  string
	}
	var keys []key
	for _, w := range want {
		k := key{w.bench, w.np, w.mode}
		if len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
	}
	tabs := e2e.ParseTables(t, out)
	if len(tabs) != len(keys) {
		t.Fatalf("%d tables, want %d", len(tabs), len(keys))
	}
	for i, tab := range tabs {
		k := keys[i]
		if title := strings.TrimPrefix(tab.Title, "Multi-"); title != k.bench {
			t.Errorf("table %d: %q, want %q", i, tab.Title, k.bench)
		}
		mode := strings.ToUpper(strings.Replace(k.mode, "non-blocking", "aggregate", 1))
		hasMode := slices.ContainsFunc(tab.Head, func(l string) bool { return strings.Contains(l, "MODE: ") })
		if (mode == "") == hasMode || mode != "" && !headHasRow(&tab, "#", "MODE:", mode) {
			t.Errorf("%s np=%d %q: header %q lacks or wrongly has MODE: %s", k.bench, k.np, k.mode, tab.Head, mode)
		}
		if k.mode == "non-blocking" && !slices.Contains(tab.Columns, "overlap[%]") {
			t.Errorf("%s: columns %v lack overlap[%%]", k.bench, tab.Columns)
		}
	}
	nonBlocking := slices.ContainsFunc(want, func(w ioRow) bool { return w.mode == "non-blocking" })
	if nonBlocking != strings.Contains(out, "# Function CPU_Exploit obtains an undisturbed") {
		t.Errorf("CPU_Exploit's Mflop/s line: want it exactly when non-blocking benchmarks run")
	}
}

// TestIOCheckBlocking runs every blocking benchmark and Open_Close in
// -check mode on 1, 2 and (Open MPI) 4 ranks.
func TestIOCheckBlocking(t *testing.T) {
	e2e.NeedMPI(t)
	lens := []int{0, 1, 5, 1024, 65536}
	names := ioSelect(false)
	for _, np := range ioRankCounts() {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			r, recs, _ := ioRun(t, np, append([]string{"-check", "-msglen", e2e.Lengths(t, lens...)}, names...)...)
			want := ioExpectedRows(names, np, lens, -1)
			ioCheckRecords(t, recs, want, np, -1, true)
			ioCheckTables(t, r.Stdout, want, -1)
			if !strings.Contains(r.Stdout, "!!!!  ALL BENCHMARKS SUCCESSFUL !!!!") {
				t.Errorf("no ALL BENCHMARKS SUCCESSFUL line")
			}
		})
	}
}

// TestIOCheckNonBlocking runs every non-blocking benchmark in -check mode
// on 2 and (Open MPI) 4 ranks; one rank would only repeat the runs on one
// process that these make.
func TestIOCheckNonBlocking(t *testing.T) {
	e2e.NeedMPI(t)
	lens := []int{16 << 20}
	names := ioSelect(true)
	for _, np := range ioRankCounts()[1:] {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			r, recs, _ := ioRun(t, np, append([]string{"-check", "-msglen", e2e.Lengths(t, lens...)}, names...)...)
			want := ioExpectedRows(names, np, lens, -1)
			ioCheckRecords(t, recs, want, np, -1, true)
			ioCheckTables(t, r.Stdout, want, -1)
		})
	}
}

// TestIORepetitions times (no -check) a write, a read and a non-blocking
// benchmark at lengths where OVERALL_VOL cuts the repetitions: 512 KiB →
// 32 aggregate, 2 MiB → 8, 16 MiB → 1 (sample 3), non-aggregate 10, 8, 1.
func TestIORepetitions(t *testing.T) {
	e2e.NeedMPI(t)
	lens := []int{0, 512 << 10, 2 << 20, 16 << 20}
	names := []string{"P_Write_Expl", "C_Read_Indv"}
	_, recs, _ := ioRun(t, 2, append([]string{"-msglen", e2e.Lengths(t, lens...)}, names...)...)
	ioCheckRecords(t, recs, ioExpectedRows(names, 2, lens, -1), 2, -1, false)
	want := map[[2]int]int{{512 << 10, 0}: 32, {2 << 20, 0}: 8, {16 << 20, 0}: 1, {0, 0}: 50,
		{512 << 10, 1}: 10, {2 << 20, 1}: 8, {16 << 20, 1}: 1, {0, 1}: 10}
	for _, r := range recs {
		if got, w := r.Reps, want[[2]int{r.Bytes, map[string]int{"aggregate": 0, "non-aggregate": 1}[r.Mode]}]; got != w {
			t.Errorf("%v: %d repetitions, want %d", r, got, w)
		}
	}
	lens = []int{4 << 20, 16 << 20}
	_, recs, _ = ioRun(t, 1, "-msglen", e2e.Lengths(t, lens...), "S_IRead_Expl")
	ioCheckRecords(t, recs, ioExpectedRows([]string{"S_IRead_Expl"}, 1, lens, -1), 1, -1, false)
	if len(recs) != 2 || recs[0].Reps != 4 || recs[1].Reps != 1 {
		t.Errorf("S_IRead_Expl: want 4 and 1 repetitions, got %v", recs)
	}
}

// ioWatch records the names of the files that appear in dir until stop is
// closed.
func ioWatch(dir string, stop chan struct{}) <-chan map[string]bool {
	out := make(chan map[string]bool, 1)
	go func() {
		seen := map[string]bool{}
		for {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				seen[e.Name()] = true
			}
			select {
			case <-stop:
				out <- seen
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return out
}

// TestIOMulti runs Multi versions: -multi 1 reports every group, and the
// files carry the group suffix _g<group> (and _<rank> for private ones).
func TestIOMulti(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	p := e2e.MaxRanks()
	lens := []int{16 << 20}
	names := []string{"S_IWrite_Indv", "P_IWrite_Priv", "C_IRead_Shared"}
	for _, multi := range []int{1, 0} {
		t.Run(fmt.Sprintf("multi%d", multi), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "io")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			js := filepath.Join(t.TempDir(), "o.jsonl")
			stop := make(chan struct{})
			seen := ioWatch(dir, stop)
			r := e2e.Launch(t, p, append([]string{"io", "-multi", strconv.Itoa(multi), "-check", "-iodir", dir, "-json", js,
				"-msglen", e2e.Lengths(t, lens...)}, names...)...)
			close(stop)
			e2e.MustSucceed(t, r)
			e2e.AssertEmpty(t, dir)
			recs := ioReadRecords(t, js, false)
			want := ioExpectedRows(names, p, lens, multi)
			ioCheckRecords(t, recs, want, p, multi, true)
			ioCheckTables(t, r.Stdout, want, multi)
			ioCheckFileNames(t, <-seen, p)
		})
	}
}

// ioCheckFileNames: every file seen has an IMB name of a Multi run on p
// ranks, and the private files of every group were seen.
func ioCheckFileNames(t *testing.T, seen map[string]bool, p int) {
	t.Helper()
	valid := map[string]bool{}
	for q := 1; q <= p; q *= 2 {
		for w := 0; w < p; w++ {
			valid[fmt.Sprintf("IMB_out_g%d_%d", w/q, w)] = true
			valid[fmt.Sprintf("IMB_out_g%d", w/q)] = true
		}
	}
	for name := range seen {
		// MPI-IO libraries' helper files and our -iodir probes
		helper := strings.HasPrefix(name, ".IMB_out_g") || strings.HasSuffix(name, ".lock") ||
			strings.Contains(name, ".locktest.") || strings.HasPrefix(name, ".mpibench-probe-")
		if !valid[name] && !helper {
			t.Errorf("file %q in -iodir is not an IMB-IO name of a Multi run", name)
		}
	}
	for w := 0; w < p; w++ {
		if name := fmt.Sprintf("IMB_out_g%d_%d", w, w); !seen[name] {
			t.Errorf("never saw %s (S_ and P_ _priv on 1 process, group %d); saw %v", name, w, seen)
		}
	}
	if !seen["IMB_out_g0"] {
		t.Errorf("never saw IMB_out_g0 (C_ on a common file); saw %v", seen)
	}
}

// TestIOBadDir: a missing, non-directory or unwritable -iodir stops the
// run on every rank with exit code 2 and a message, before any
// measurement.
func TestIOBadDir(t *testing.T) {
	e2e.NeedMPI(t)
	p := e2e.MaxRanks()
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		filepath.Join(base, "missing"): "no such directory",
		file:                           "not a directory",
	}
	if ro, ok := ioReadOnlyDir(t); ok {
		cases[ro] = "cannot create files there"
	}
	for dir, msg := range cases {
		js := filepath.Join(t.TempDir(), "o.jsonl")
		r := e2e.Launch(t, p, "io", "-iodir", dir, "-json", js, "P_Write_Indv", "S_Read_Expl")
		e2e.NoPanic(t, r)
		if r.Code != 2 {
			t.Errorf("-iodir %s: exit code %d, want 2\n%s", dir, r.Code, r)
		}
		for rank := 0; rank < p; rank++ {
			if want := fmt.Sprintf("rank %d: -iodir %s: %s", rank, dir, msg); !strings.Contains(r.Stderr, want) {
				t.Errorf("-iodir %s: stderr lacks %q\n%s", dir, want, r)
			}
		}
		if strings.Contains(r.Stdout, "# Benchmarking") {
			t.Errorf("-iodir %s: a benchmark ran:\n%s", dir, r.Stdout)
		}
		// A refused run removes the results file it made and never used.
		if _, err := os.Stat(js); err == nil {
			t.Errorf("-iodir %s: the unused -json file was left behind", dir)
		}
	}
}

// ioReadOnlyDir makes a directory this process cannot create files in:
// mode 0555, or for root, who ignores modes, the immutable attribute.
func ioReadOnlyDir(t *testing.T) (string, bool) {
	dir := filepath.Join(t.TempDir(), "readonly")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Logf("no read-only directory for root (chattr +i: %v %s)", err, out)
			return "", false
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	}
	return dir, true
}

// TestIOInterrupt interrupts a run part-way through, while every rank has
// a file open: the files are removed, the finished records are kept, and
// the ranks exit with 128 + the signal. The signal goes to the ranks (as
// a batch system or `kill` does) or to the launcher (as Ctrl-C does),
// which passes it on.
func TestIOInterrupt(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	cases := []struct {
		name     string
		sig      syscall.Signal
		launcher bool
	}{
		{"SIGTERM to ranks", syscall.SIGTERM, false},
		{"SIGINT to ranks", syscall.SIGINT, false},
		{"SIGINT to launcher", syscall.SIGINT, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { ioInterrupt(t, c.sig, c.launcher) })
	}
}

func ioInterrupt(t *testing.T, sig syscall.Signal, toLauncher bool) {
	p := e2e.MaxRanks()
	dir := filepath.Join(t.TempDir(), "io")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(t.TempDir(), "o.jsonl")
	// 16 MiB takes one repetition; 0 bytes takes 50 of 0.1 s each, and
	// the signal comes during them. -multi 0 gives every rank a file.
	cmd, stdout, stderr := e2e.StartRun(t, p, "io", "-multi", "0", "-iodir", dir, "-json", js,
		"-msglen", e2e.Lengths(t, 16<<20, 0), "P_IWrite_Priv")
	e2e.AwaitCond(t, "the first record", func() bool {
		data, _ := os.ReadFile(js)
		return bytes.Count(data, []byte("\n")) >= 1
	})
	e2e.AwaitCond(t, "a file of every rank", func() bool {
		entries, _ := os.ReadDir(dir)
		return len(entries) >= p
	})
	var pids []int
	for _, pid := range e2e.RankPIDs(dir) {
		pids = append(pids, pid)
	}
	if len(pids) != p {
		t.Fatalf("found rank processes %v, want %d", pids, p)
	}
	if toLauncher {
		cmd.Process.Signal(sig)
	} else {
		for _, pid := range pids {
			syscall.Kill(pid, sig)
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the run did not end after %v", sig)
	}
	r := e2e.Result{Stdout: stdout.String(), Stderr: stderr.String(), Code: cmd.ProcessState.ExitCode()}
	e2e.NoPanic(t, r)
	e2e.AssertEmpty(t, dir)
	recs := ioReadRecords(t, js, false)
	if recs[0].Benchmark != "P_IWrite_Priv" || recs[0].Bytes != 16<<20 || recs[0].Mode != "non-blocking" {
		t.Errorf("first record %v, want P_IWrite_Priv 16 MiB", recs[0])
	}
	if toLauncher {
		if r.Code == 0 && e2e.LauncherKind() == "openmpi" {
			t.Errorf("the launcher exited 0 after %v\n%s", sig, r)
		}
		return
	}
	// Every rank exits with 128 + the signal. Open MPI's mpirun passes the
	// code on; MPICH's mpiexec ends the ranks still running once one has
	// exited, with SIGHUP, and may report that instead.
	want := 128 + int(sig)
	if r.Code != want && (e2e.LauncherKind() == "openmpi" || r.Code == 0) {
		t.Errorf("exit code %d, want %d\n%s", r.Code, want, r)
	}
	if !strings.Contains(r.Stderr, "interrupted by") {
		t.Errorf("stderr lacks the interruption notice\n%s", r)
	}
}
