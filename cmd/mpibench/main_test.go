package main

// Integration tests: TestMain builds the mpibench binary once, for the MPI
// flavour this test binary was built for (mpi.Flavor), and the tests run it
// under the real launcher (mpirun.openmpi / mpirun.mpich, else mpirun).
//
// Without a launcher the MPI tests fail, unless MPIBENCH_SKIP_MPI=1.

import (
	"bufio"
	"bytes"
	stdcontext "context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mpibench/mpi"
)

const (
	mpirunTimeout = 120 * time.Second // one mpirun call; a hang fails the test
	directTimeout = 20 * time.Second  // the binary run without a launcher
)

var (
	binPath      string // the mpibench binary built by TestMain
	launcherPath string // "" when no launcher was found
	launcherKind string // "openmpi", "mpich" or "unknown"
	launcherErr  string // why there is no launcher
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	flag.Parse() // for testing.Verbose in buildPeers' notices
	dir, err := os.MkdirTemp("", "mpibench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mpibench tests:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "mpibench")
	tags := ""
	if mpi.Flavor == "mpich" {
		tags = "mpich"
	}
	if err := buildBinaries(map[string]string{binPath: tags}); err != nil {
		fmt.Fprintln(os.Stderr, "mpibench tests:", err)
		return 1
	}
	findLauncher()
	buildPeers()
	code := m.Run()
	printPeerSkips()
	return code
}

// buildBinaries builds mpibench into each path with its tags, at the
// same time.
func buildBinaries(builds map[string]string) error {
	errs := make(chan error, len(builds))
	for path, tags := range builds {
		go func() {
			args := []string{"build", "-tags", tags, "-o", path, "mpibench/cmd/mpibench"}
			if out, err := exec.Command(goTool(), args...).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				return
			}
			errs <- nil
		}()
	}
	var err error
	for range builds {
		err = errors.Join(err, <-errs)
	}
	return err
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// findLauncher picks the launcher of mpi.Flavor, falling back to mpirun,
// and tells Open MPI from MPICH (hydra) by its --version output.
func findLauncher() {
	names := []string{"mpirun.openmpi", "mpirun"}
	if mpi.Flavor == "mpich" {
		names = []string{"mpirun.mpich", "mpiexec.hydra", "mpirun"}
	}
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		launcherPath = p
		ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), directTimeout)
		out, _ := exec.CommandContext(ctx, p, "--version").CombinedOutput()
		cancel()
		switch v := strings.ToLower(string(out)); {
		case strings.Contains(v, "open mpi") || strings.Contains(v, "open-mpi") || strings.Contains(v, "open-rte"):
			launcherKind = "openmpi"
		case strings.Contains(v, "hydra") || strings.Contains(v, "mpich"):
			launcherKind = "mpich"
		default:
			launcherKind = "unknown"
		}
		return
	}
	launcherErr = fmt.Sprintf("no MPI launcher for %s found in PATH (tried %s)", mpi.Flavor, strings.Join(names, ", "))
}

// needMPI fails the test when there is no launcher, or skips it when
// MPIBENCH_SKIP_MPI=1.
func needMPI(t *testing.T) {
	t.Helper()
	if launcherPath != "" {
		return
	}
	if os.Getenv("MPIBENCH_SKIP_MPI") == "1" {
		t.Skipf("MPIBENCH_SKIP_MPI=1: %s", launcherErr)
	}
	t.Fatalf("%s; set MPIBENCH_SKIP_MPI=1 to skip the MPI integration tests", launcherErr)
}

// maxRanks is the largest job the tests start: 4 (oversubscribed) with
// Open MPI, 2 with MPICH, which busy-polls.
func maxRanks() int {
	if mpi.Flavor == "mpich" || launcherKind != "openmpi" {
		return 2
	}
	return 4
}

// rankCounts are the job sizes of the full-suite runs.
func rankCounts() []int {
	if maxRanks() >= 4 {
		return []int{2, 4}
	}
	return []int{2}
}

type runResult struct {
	stdout, stderr string
	code           int
	dur            time.Duration
}

func (r runResult) String() string {
	return fmt.Sprintf("exit code %d after %v\n--- stdout:\n%s\n--- stderr:\n%s", r.code, r.dur.Round(time.Millisecond), tail(r.stdout, 4000), tail(r.stderr, 4000))
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// launch runs mpibench on np processes under the launcher.
func launch(t *testing.T, np int, args ...string) runResult {
	t.Helper()
	needMPI(t)
	return execute(t, mpirunTimeout, launcherPath, append(launcherArgs(np), args...)...)
}

// launcherArgs are the launcher's arguments for np processes, ending with
// the mpibench binary: Open MPI gets --oversubscribe (the tests run more
// ranks than cores), --allow-run-as-root as root, and openMPIOpts.
func launcherArgs(np int, openMPIOpts ...string) []string {
	var argv []string
	if launcherKind == "openmpi" {
		if os.Geteuid() == 0 {
			argv = append(argv, "--allow-run-as-root")
		}
		argv = append(append(argv, "--oversubscribe"), openMPIOpts...)
	}
	return append(argv, "-np", strconv.Itoa(np), binPath)
}

// direct runs mpibench without a launcher.
func direct(t *testing.T, args ...string) runResult {
	t.Helper()
	return execute(t, directTimeout, binPath, args...)
}

// execute runs a command in its own process group; when the timeout
// expires the whole group is terminated and the test fails.
func execute(t *testing.T, timeout time.Duration, name string, args ...string) runResult {
	t.Helper()
	ctx, cancel := stdcontext.WithTimeout(stdcontext.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := runResult{stdout: stdout.String(), stderr: stderr.String(), dur: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("%s %s: no result within %v (hang?)\n%s", name, strings.Join(args, " "), timeout, r)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	t.Logf("%s %s: exit %d in %v", filepath.Base(name), strings.Join(args, " "), r.code, r.dur.Round(time.Millisecond))
	return r
}

// mustSucceed fails the test unless the run exited 0 without a Go panic.
func mustSucceed(t *testing.T, r runResult) {
	t.Helper()
	noPanic(t, r)
	if r.code != 0 {
		t.Fatalf("want exit code 0, got %s", r)
	}
}

func noPanic(t *testing.T, r runResult) {
	t.Helper()
	for _, s := range []string{"goroutine ", "panic:"} {
		if strings.Contains(r.stderr, s) || strings.Contains(r.stdout, s) {
			t.Errorf("output contains %q (a Go panic or crash):\n%s", s, r)
		}
	}
}

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ---------------------------------------------------------------------------
// The IMB-MPI1 rules, written down here independently of package imb.

type benchInfo struct {
	name      string
	class     string // JSON class
	title     string // class as `mpibench list` prints it
	calls     []string
	reduction bool
	factor    float64 // throughput factor; 0: no throughput
}

// benchTable is Table 1 / section 3 of the IMB guide, in IMB's order.
var benchTable = []benchInfo{
	{"PingPong", "single", "Single Transfer", []string{"MPI_Send", "MPI_Recv"}, false, 1},
	{"PingPing", "single", "Single Transfer", []string{"MPI_Isend", "MPI_Wait", "MPI_Recv"}, false, 1},
	{"Sendrecv", "parallel", "Parallel Transfer", []string{"MPI_Sendrecv"}, false, 2},
	{"Exchange", "parallel", "Parallel Transfer", []string{"MPI_Isend", "MPI_Waitall", "MPI_Recv"}, false, 4},
	{"Bcast", "collective", "Collective", []string{"MPI_Bcast"}, false, 0},
	{"Allgather", "collective", "Collective", []string{"MPI_Allgather"}, false, 0},
	{"Allgatherv", "collective", "Collective", []string{"MPI_Allgatherv"}, false, 0},
	{"Alltoall", "collective", "Collective", []string{"MPI_Alltoall"}, false, 0},
	{"Alltoallv", "collective", "Collective", []string{"MPI_Alltoallv"}, false, 0},
	{"Reduce", "collective", "Collective", []string{"MPI_Reduce"}, true, 0},
	{"Reduce_scatter", "collective", "Collective", []string{"MPI_Reduce_scatter"}, true, 0},
	{"Allreduce", "collective", "Collective", []string{"MPI_Allreduce"}, true, 0},
	{"Barrier", "collective", "Collective", []string{"MPI_Barrier"}, false, 0},
}

func info(t *testing.T, name string) benchInfo {
	t.Helper()
	for _, b := range benchTable {
		if b.name == name {
			return b
		}
	}
	t.Fatalf("unknown benchmark %q in the output", name)
	return benchInfo{}
}

func allNames() []string {
	var n []string
	for _, b := range benchTable {
		n = append(n, b.name)
	}
	return n
}

// expectedReps is n_sample (section 5.2.8) with MSGSPERSAMPLE = 1000 and
// OVERALL_VOL = 40 MiB.
func expectedReps(x int) int {
	if x == 0 {
		return 1000
	}
	return max(1, min(1000, 40*(1<<20)/x))
}

// expectedCounts lists the process counts Q for a job of p processes
// (sections 5.1.1, 5.1.2.2): single transfers on 2 only, the others on
// npmin, 2 npmin, 4 npmin, ..., the largest 2^x npmin < p, then p.
func expectedCounts(p, npmin int, class string) []int {
	if class == "single" {
		if p < 2 {
			return nil
		}
		return []int{2}
	}
	var qs []int
	q := min(npmin, p)
	for ; q < p; q *= 2 {
		qs = append(qs, q)
	}
	return append(qs, p)
}

// expectedLengths are the lengths of b for user lengths: rounded up to a
// multiple of 4 bytes for reductions, each length once, one row for
// Barrier.
func expectedLengths(b benchInfo, user []int) []int {
	if b.name == "Barrier" {
		return []int{0}
	}
	var out []int
	for _, x := range user {
		if b.reduction {
			x = (x + 3) / 4 * 4
		}
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// defaultLengths are IMB's standard lengths: 0, then unit, 2 unit, ... 4 MiB.
func defaultLengths(unit int) []int {
	l := []int{0}
	for x := unit; x <= 1<<22; x *= 2 {
		l = append(l, x)
	}
	return l
}

// ---------------------------------------------------------------------------
// JSON Lines records, decoded with the field names the format promises.

type record struct {
	Suite     string  `json:"suite"`
	Benchmark string  `json:"benchmark"`
	Class     string  `json:"class"`
	Multi     int     `json:"multi"`
	Group     int     `json:"group"`
	NP        int     `json:"np"`
	Groups    [][]int `json:"groups"`
	Map       []int   `json:"map"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	TimeLimit float64 `json:"time_limit_s"`
	TMin      float64 `json:"t_min_us"`
	TMax      float64 `json:"t_max_us"`
	TAvg      float64 `json:"t_avg_us"`
	MBps      float64 `json:"mbytes_per_sec"`
	Check     bool    `json:"check"`
	Defects   float64 `json:"defects"`
	Mode      string  `json:"mode"`
	Case      string  `json:"case"`
	CountMode string  `json:"count_mode"` // bigcount_test.go
	Context   struct {
		Tool  string   `json:"tool"`
		MPI   string   `json:"mpi"`
		Procs int      `json:"procs"`
		Args  []string `json:"args"`
	} `json:"context"`
}

func (r record) String() string {
	return fmt.Sprintf("%s np=%d groups=%v group=%d bytes=%d reps=%d t=%g/%g/%g mbps=%g defects=%g",
		r.Benchmark, r.NP, r.Groups, r.Group, r.Bytes, r.Reps, r.TMin, r.TAvg, r.TMax, r.MBps, r.Defects)
}

func readRecords(t *testing.T, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("-json file: %v", err)
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s:%d: %v: %q", path, n, err, sc.Text())
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", path)
	}
	return recs
}

// checkRecord verifies the rules every record obeys: the job context,
// t_min <= t_avg <= t_max, the repetition count and the throughput.
func checkRecord(t *testing.T, r record, procs int, check bool) {
	t.Helper()
	b := info(t, r.Benchmark)
	if r.Suite != "mpi1" || r.Class != b.class {
		t.Errorf("%v: suite/class %q/%q, want mpi1/%q", r, r.Suite, r.Class, b.class)
	}
	if r.Context.Procs != procs || r.Context.MPI != mpi.Flavor {
		t.Errorf("%v: context procs=%d mpi=%q, want %d %q", r, r.Context.Procs, r.Context.MPI, procs, mpi.Flavor)
	}
	if r.Check != check {
		t.Errorf("%v: check=%v, want %v", r, r.Check, check)
	}
	if r.Defects != 0 {
		t.Errorf("%v: %g defects", r, r.Defects)
	}
	if want := expectedReps(r.Bytes); r.Reps != want {
		t.Errorf("%v: reps %d, want %d", r, r.Reps, want)
	}
	if b.name == "Barrier" && (r.Bytes != 0 || r.Reps != 1000) {
		t.Errorf("%v: Barrier wants 0 bytes and 1000 repetitions", r)
	}
	if b.reduction && r.Bytes%4 != 0 {
		t.Errorf("%v: reduction length not a multiple of sizeof(float)", r)
	}
	const eps = 1e-9
	if !(r.TMin >= 0 && r.TMin <= r.TAvg*(1+eps)+eps && r.TAvg <= r.TMax*(1+eps)+eps) {
		t.Errorf("%v: want 0 <= t_min <= t_avg <= t_max", r)
	}
	want := 0.0
	if b.factor > 0 && r.TMax > 0 {
		want = b.factor * float64(r.Bytes) / 1.048576 / r.TMax
	}
	if math.Abs(r.MBps-want) > 1e-9*math.Max(1, want) {
		t.Errorf("%v: Mbytes/sec %g, want %g*X/1.048576/t_max = %g", r, r.MBps, b.factor, want)
	}
	if r.NP < 1 || r.NP > procs || len(r.Groups) == 0 {
		t.Errorf("%v: bad np or groups for a job of %d", r, procs)
	}
	for _, g := range r.Groups {
		if len(g) != r.NP {
			t.Errorf("%v: group %v does not have np=%d ranks", r, g, r.NP)
		}
	}
}

// distinctNP lists the process counts of a benchmark's records in order.
func distinctNP(recs []record, bench string) []int {
	var nps []int
	for _, r := range recs {
		if r.Benchmark == bench && !slices.Contains(nps, r.NP) {
			nps = append(nps, r.NP)
		}
	}
	return nps
}

func selectRecs(recs []record, bench string, np int) []record {
	var out []record
	for _, r := range recs {
		if r.Benchmark == bench && r.NP == np {
			out = append(out, r)
		}
	}
	return out
}

func benchOrder(recs []record) []string {
	var out []string
	for _, r := range recs {
		if len(out) == 0 || out[len(out)-1] != r.Benchmark {
			out = append(out, r.Benchmark)
		}
	}
	return out
}

func seq(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = i
	}
	return v
}

// ---------------------------------------------------------------------------
// The IMB text tables (section 6).

type table struct {
	title   string   // "PingPong" or "Multi-PingPong"
	head    []string // the '#' lines between the title and the column titles
	columns []string
	rows    [][]string
}

// parseTables splits stdout into its "# Benchmarking" tables. Any other
// line outside the '#' comments that is not a row of numbers is an error,
// except IMB's closing "!!!!" lines.
func parseTables(t *testing.T, out string) []table {
	t.Helper()
	var tabs []table
	var cur *table
	for _, line := range strings.Split(out, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# Benchmarking "):
			tabs = append(tabs, table{title: strings.TrimSpace(strings.TrimPrefix(line, "# Benchmarking "))})
			cur = &tabs[len(tabs)-1]
		case trim == "" || strings.HasPrefix(line, "!!!!"):
		case strings.HasPrefix(line, "#"):
			if cur != nil && cur.columns == nil && !strings.HasPrefix(line, "#--") {
				cur.head = append(cur.head, line)
			}
		case cur != nil && cur.columns == nil:
			cur.columns = strings.Fields(line)
		case cur != nil && numeric(strings.Fields(line)):
			cur.rows = append(cur.rows, strings.Fields(line))
		default:
			t.Errorf("unexpected output line %q", line)
		}
	}
	return tabs
}

func numeric(f []string) bool {
	for _, s := range f {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return false
		}
	}
	return len(f) > 0
}

// expectedColumns are the column titles of a table (section 6 and IMB's
// output): single transfers show t[usec] except in -multi 0, where the
// worst group is shown with t_min/t_max/t_avg; -multi 1 adds Group; -check
// adds defects except for Barrier.
func expectedColumns(b benchInfo, multi int, check bool) []string {
	var c []string
	if multi == 1 {
		c = append(c, "Group")
	}
	switch {
	case b.name == "Barrier":
		return append(c, "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	case b.class == "single" && multi != 0:
		c = append(c, "#bytes", "#repetitions", "t[usec]", "Mbytes/sec")
	case b.class == "collective":
		c = append(c, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]")
	default:
		c = append(c, "#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec")
	}
	if check {
		c = append(c, "defects")
	}
	return c
}

// cell is the value the text table shows for a column of a record.
func cell(t *testing.T, r record, col string) string {
	t.Helper()
	switch col {
	case "Group":
		return strconv.Itoa(r.Group)
	case "#bytes":
		return strconv.Itoa(r.Bytes)
	case "#repetitions":
		return strconv.Itoa(r.Reps)
	case "t[usec]", "t_max[usec]":
		return fmt.Sprintf("%.2f", r.TMax)
	case "t_min[usec]":
		return fmt.Sprintf("%.2f", r.TMin)
	case "t_avg[usec]":
		return fmt.Sprintf("%.2f", r.TAvg)
	case "Mbytes/sec":
		return fmt.Sprintf("%.2f", r.MBps)
	case "defects":
		return fmt.Sprintf("%.2f", r.Defects)
	}
	t.Fatalf("unknown column %q", col)
	return ""
}

// matchTables checks that the tables show exactly the records, in order:
// one table per benchmark and layout, the expected columns, and every
// number as the record holds it. It returns the tables.
func matchTables(t *testing.T, out string, recs []record, multi int, check bool) []table {
	t.Helper()
	tabs := parseTables(t, out)
	i := 0
	for _, tab := range tabs {
		if len(tab.rows) == 0 {
			t.Errorf("table %q %v has no rows", tab.title, tab.head)
			continue
		}
		if i >= len(recs) {
			t.Errorf("table %q has rows beyond the %d records", tab.title, len(recs))
			break
		}
		first := recs[i]
		b := info(t, first.Benchmark)
		wantTitle := b.name
		if len(first.Groups) > 1 {
			wantTitle = "Multi-" + b.name
		}
		if tab.title != wantTitle {
			t.Errorf("table title %q, want %q (record %v)", tab.title, wantTitle, first)
		}
		if want := expectedColumns(b, multi, check); !slices.Equal(tab.columns, want) {
			t.Errorf("%s np=%d: columns %q, want %q", tab.title, first.NP, tab.columns, want)
		}
		head := strings.Join(tab.head, "\n")
		if len(first.Groups) > 1 {
			if s := fmt.Sprintf("# ( %d groups of %d processes each running simultaneous )", len(first.Groups), first.NP); !strings.Contains(head, s) {
				t.Errorf("%s: header lacks %q:\n%s", tab.title, s, head)
			}
		} else if !strings.Contains(head, fmt.Sprintf("# #processes = %d", first.NP)) {
			t.Errorf("%s: header lacks '# #processes = %d':\n%s", tab.title, first.NP, head)
		}
		idle := first.Context.Procs - len(first.Groups)*first.NP
		idleLine := ""
		switch {
		case idle == 1:
			idleLine = "# ( 1 additional process waiting in MPI_Barrier)"
		case idle > 1:
			idleLine = fmt.Sprintf("# ( %d additional processes waiting in MPI_Barrier)", idle)
		}
		if idleLine != "" && !strings.Contains(head, idleLine) || idleLine == "" && strings.Contains(head, "waiting in MPI_Barrier") {
			t.Errorf("%s np=%d of %d: want idle line %q in header:\n%s", tab.title, first.NP, first.Context.Procs, idleLine, head)
		}
		for _, row := range tab.rows {
			if i >= len(recs) {
				t.Errorf("%s: row %q has no record", tab.title, row)
				continue
			}
			r := recs[i]
			i++
			if r.Benchmark != first.Benchmark || r.NP != first.NP || !slices.EqualFunc(r.Groups, first.Groups, slices.Equal) {
				t.Errorf("%s np=%d: row %q belongs to record %v, which is not in this table", tab.title, first.NP, row, r)
				continue
			}
			if len(row) != len(tab.columns) {
				t.Errorf("%s np=%d: row %q has %d fields, want %d", tab.title, r.NP, row, len(row), len(tab.columns))
				continue
			}
			for k, col := range tab.columns {
				if want := cell(t, r, col); row[k] != want {
					t.Errorf("%s np=%d: column %s shows %s, record has %s (%v)", tab.title, r.NP, col, row[k], want, r)
				}
			}
		}
	}
	if i != len(recs) {
		t.Errorf("the tables show %d rows, the -json file has %d records", i, len(recs))
	}
	return tabs
}

func findTable(tabs []table, title string, np int) *table {
	for i := range tabs {
		if tabs[i].title == title && (strings.Contains(strings.Join(tabs[i].head, "\n"), fmt.Sprintf("#processes = %d", np)) ||
			strings.Contains(strings.Join(tabs[i].head, "\n"), fmt.Sprintf("groups of %d processes", np))) {
			return &tabs[i]
		}
	}
	return nil
}
