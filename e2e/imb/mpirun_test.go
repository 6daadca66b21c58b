package imb

// Tests that run mpibench mpi1 under the real launcher. Each test starts
// one mpirun per job size and groups several benchmarks in it; all use a
// few small message lengths so that the package stays well under two
// minutes with Open MPI (2 cores, 4 ranks oversubscribed).

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mpibench/e2e"
)

var (
	userLengths  = []int{0, 1, 3, 1024, 65536} // testdata/lengths.txt
	shortLengths = []int{0, 1, 1024}           // testdata/short.txt
)

// TestCheckAllBenchmarks runs all 13 benchmarks in -check mode on 2 (and,
// with Open MPI, 4) processes and checks the records and the tables. The
// 4-process job runs with -npmin 4: its collectives on 4 only, not again
// on 2 of the 4 (IMB's series 2, 4 is plain Go, the same in both runs'
// plans: expectedCounts checks it in other tests); that halves the run,
// 4 ranks oversubscribed on 2 cores (52 s → 25 s on the loaded 2-core
// machine), and at -iter 100: IMB's counts are a function of the length
// alone, which the 2-process job checks at IMB's 1000, and the 4 ranks
// check every one of 100 repetitions. Alone the job takes 2.3 s at IMB's
// counts, yet beside other tests' jobs 22-43 s, and 61 s beside one busy
// loop (12 s at -iter 100): every message of 4 oversubscribed ranks waits
// for a time slice.
func TestCheckAllBenchmarks(t *testing.T) {
	e2e.NeedMPI(t)
	for _, np := range e2e.RankCounts() {
		t.Run(fmt.Sprintf("np%d", np), func(t *testing.T) {
			npmin, msgs := min(np, 4), 1000 // IMB's default count
			js := filepath.Join(t.TempDir(), "o.jsonl")
			args := []string{"mpi1", "-time", "off", "-check", "-npmin", strconv.Itoa(npmin)}
			if np > 2 {
				msgs = 100
				args = append(args, "-iter", strconv.Itoa(msgs))
			}
			r := e2e.Launch(t, np, append(args, "-msglen", e2e.Testdata(t, "lengths.txt"), "-json", js)...)
			e2e.MustSucceed(t, r)
			recs := e2e.ReadRecords(t, js)
			for _, rec := range recs {
				checkRecordIter(t, rec, np, true, msgs)
				if rec.Multi != -1 || rec.Group != -1 || rec.Map != nil {
					t.Errorf("%v: multi=%d group=%d map=%v, want -1 -1 none", rec, rec.Multi, rec.Group, rec.Map)
				}
				if len(rec.Groups) != 1 || !slices.Equal(rec.Groups[0], seq(rec.NP)) {
					t.Errorf("%v: groups %v, want [%v]", rec, rec.Groups, seq(rec.NP))
				}
			}
			if got := benchOrder(recs); !slices.Equal(got, allNames()) {
				t.Errorf("benchmarks ran in order %v, want %v", got, allNames())
			}
			ntables := 0
			for _, b := range benchTable {
				want := expectedCounts(np, npmin, b.class)
				if got := distinctNP(recs, b.name); !slices.Equal(got, want) {
					t.Errorf("%s: process counts %v, want %v", b.name, got, want)
				}
				for _, q := range want {
					ntables++
					var got []int
					for _, rec := range selectRecs(recs, b.name, q) {
						got = append(got, rec.Bytes)
					}
					if want := expectedLengths(b, userLengths); !slices.Equal(got, want) {
						t.Errorf("%s np=%d: lengths %v, want %v", b.name, q, got, want)
					}
				}
			}
			for _, name := range []string{"Reduce", "Reduce_scatter", "Allreduce"} {
				var got []int
				for _, rec := range selectRecs(recs, name, npmin) {
					got = append(got, rec.Bytes)
				}
				if want := []int{0, 4, 1024, 65536}; !slices.Equal(got, want) {
					t.Errorf("%s: lengths %v, want 1 and 3 rounded up to 4, measured once: %v", name, got, want)
				}
			}
			for _, rec := range selectRecs(recs, "PingPong", 2) {
				if want := min(msgs, 640); rec.Bytes == 65536 && rec.Reps != want {
					t.Errorf("%v: want %d repetitions for 65536 bytes", rec, want)
				}
			}
			tabs := matchTables(t, r.Stdout, recs, -1, true)
			if len(tabs) != ntables {
				t.Errorf("%d tables, want %d", len(tabs), ntables)
			}
			for _, tab := range tabs {
				want := len(expectedLengths(info(t, tab.Title), userLengths))
				if len(tab.Rows) != want {
					t.Errorf("%s %v: %d rows, want %d", tab.Title, tab.Head, len(tab.Rows), want)
				}
			}
			if !strings.Contains(r.Stdout, "!!!!  ALL BENCHMARKS SUCCESSFUL !!!!") {
				t.Errorf("no ALL BENCHMARKS SUCCESSFUL line:\n%s", e2e.Tail(r.Stdout, 2000))
			}
			list := "# List of Benchmarks to run:\n\n# " + strings.Join(allNames(), "\n# ") + "\n"
			if !strings.Contains(r.Stdout, list) {
				t.Errorf("stdout lacks the benchmark list %q", list)
			}
		})
	}
}

// multiGroups are the groups of -multi on np of P processes: P/np groups of
// consecutive ranks.
func multiGroups(p, np int) [][]int {
	var g [][]int
	for i := 0; i+np <= p; i += np {
		var grp []int
		for r := i; r < i+np; r++ {
			grp = append(grp, r)
		}
		g = append(g, grp)
	}
	return g
}

func equalGroups(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal) }

// headHasRow reports whether a table header has a line with these fields.
func headHasRow(tab *e2e.Table, fields ...string) bool {
	for _, l := range tab.Head {
		if slices.Equal(strings.Fields(l), fields) {
			return true
		}
	}
	return false
}

// multiIter is the repetitions of the -multi tests' jobs of 4 and 6
// ranks: their subject is the groups, and IMB's 1000 (checked by
// TestCheckAllBenchmarks on 2 ranks) cost a scheduler's time slice per
// message on 2 loaded cores (TestMultiEveryGroup 25 s beside a busy loop).
const multiIter = 100

// TestMultiWorstGroup: -multi 0 reports the worst group, one record per
// length, with every group in the record.
func TestMultiWorstGroup(t *testing.T) {
	p := e2e.MaxRanks()
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, p, "mpi1", "-time", "off", "-iter", strconv.Itoa(multiIter), "-multi", "0", "PingPong", "Allreduce",
		"-check", "-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecordIter(t, rec, p, true, multiIter)
		if rec.Multi != 0 || rec.Group != -1 {
			t.Errorf("%v: multi=%d group=%d, want 0 -1", rec, rec.Multi, rec.Group)
		}
		if want := multiGroups(p, rec.NP); !equalGroups(rec.Groups, want) {
			t.Errorf("%v: groups %v, want %v", rec, rec.Groups, want)
		}
	}
	for _, name := range []string{"PingPong", "Allreduce"} {
		b := info(t, name)
		want := expectedCounts(p, 2, b.class)
		if got := distinctNP(recs, name); !slices.Equal(got, want) {
			t.Errorf("%s: process counts %v, want %v", name, got, want)
		}
		for _, q := range want {
			if n := len(selectRecs(recs, name, q)); n != len(shortLengths) {
				t.Errorf("%s np=%d: %d records, want one per length (%d)", name, q, n, len(shortLengths))
			}
		}
	}
	tabs := matchTables(t, r.Stdout, recs, 0, true)
	if !strings.Contains(r.Stdout, "# (Multi-)PingPong\n# (Multi-)Allreduce\n") {
		t.Errorf("the benchmark list lacks (Multi-) names")
	}
	if p >= 4 {
		if pp := selectRecs(recs, "PingPong", 2); len(pp) == 0 || !equalGroups(pp[0].Groups, [][]int{{0, 1}, {2, 3}}) {
			t.Errorf("PingPong on 4 ranks: want groups [[0 1] [2 3]], got %v", pp)
		}
		tab := findTable(tabs, "Multi-PingPong", 2)
		if tab == nil {
			t.Fatalf("no '# Benchmarking Multi-PingPong' table with 2 groups of 2:\n%s", r.Stdout)
		}
		if !headHasRow(tab, "#", "(", "2", "groups", "of", "2", "processes", "each", "running", "simultaneous", ")") ||
			!headHasRow(tab, "#", "Group", "0:", "0", "1") || !headHasRow(tab, "#", "Group", "1:", "2", "3") {
			t.Errorf("Multi-PingPong header does not list 2 groups [0 1], [2 3]:\n%s", strings.Join(tab.Head, "\n"))
		}
		if len(tab.Rows) != len(shortLengths) || len(tab.Rows[0]) != 7 {
			t.Errorf("Multi-PingPong: want %d rows of 7 fields, got %q", len(shortLengths), tab.Rows)
		}
		if findTable(tabs, "Multi-Allreduce", 2) == nil || findTable(tabs, "Allreduce", 4) == nil {
			t.Errorf("want tables Multi-Allreduce (2 groups of 2) and Allreduce (#processes = 4)")
		}
	}
}

// TestMultiEveryGroup: -multi 1 reports every group, one record per group
// and length, with the group index.
func TestMultiEveryGroup(t *testing.T) {
	p := e2e.MaxRanks()
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, p, "mpi1", "-time", "off", "-iter", strconv.Itoa(multiIter), "-multi", "1", "PingPong", "Allreduce",
		"-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecordIter(t, rec, p, false, multiIter)
		if rec.Multi != 1 {
			t.Errorf("%v: multi=%d, want 1", rec, rec.Multi)
		}
		if want := multiGroups(p, rec.NP); !equalGroups(rec.Groups, want) {
			t.Errorf("%v: groups %v, want %v", rec, rec.Groups, want)
		}
	}
	for _, name := range []string{"PingPong", "Allreduce"} {
		b := info(t, name)
		for _, q := range expectedCounts(p, 2, b.class) {
			var got [][2]int
			for _, rec := range selectRecs(recs, name, q) {
				got = append(got, [2]int{rec.Bytes, rec.Group})
			}
			var want [][2]int
			for _, x := range expectedLengths(b, shortLengths) {
				for g := range p / q {
					want = append(want, [2]int{x, g})
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s np=%d: (bytes, group) %v, want %v", name, q, got, want)
			}
		}
	}
	if p >= 4 {
		var groups []int
		for _, rec := range selectRecs(recs, "PingPong", 2) {
			groups = append(groups, rec.Group)
		}
		if want := []int{0, 1, 0, 1, 0, 1}; !slices.Equal(groups, want) {
			t.Errorf("PingPong on 4 ranks: group indices %v, want %v", groups, want)
		}
	}
	tabs := matchTables(t, r.Stdout, recs, 1, false)
	for _, tab := range tabs {
		if len(tab.Columns) == 0 || tab.Columns[0] != "Group" {
			t.Errorf("%s: -multi 1 tables start with a Group column, got %q", tab.Title, tab.Columns)
		}
	}
}

// TestMap: -map 2x2 on 4 processes numbers the ranks along the rows of a
// 2x2 matrix, so the order is 0 2 1 3.
func TestMap(t *testing.T) {
	e2e.NeedMPI(t)
	if e2e.MaxRanks() < 4 {
		t.Skipf("-map 2x2 needs 4 ranks; the %s tests run 2 only", e2e.LauncherKind())
	}
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 4, "mpi1", "-time", "off", "PingPong", "Allreduce", "-map", "2x2", "-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecord(t, rec, 4, false)
		if !slices.Equal(rec.Map, []int{2, 2}) {
			t.Errorf("%v: map %v, want [2 2]", rec, rec.Map)
		}
		want := [][]int{{0, 2}}
		if rec.NP == 4 {
			want = [][]int{{0, 2, 1, 3}}
		}
		if !equalGroups(rec.Groups, want) {
			t.Errorf("%v: groups %v, want %v", rec, rec.Groups, want)
		}
	}
	if got := distinctNP(recs, "Allreduce"); !slices.Equal(got, []int{2, 4}) {
		t.Errorf("Allreduce process counts %v, want [2 4]", got)
	}
	tabs := matchTables(t, r.Stdout, recs, -1, false)
	tab := findTable(tabs, "Allreduce", 4)
	if tab == nil {
		t.Fatalf("no Allreduce table on 4 processes:\n%s", r.Stdout)
	}
	head := strings.Join(tab.Head, "\n")
	if !strings.Contains(head, "# #processes = 4; rank order (rowwise):") ||
		!headHasRow(tab, "#", "0", "2") || !headHasRow(tab, "#", "1", "3") ||
		strings.Index(head, "#     0    2") > strings.Index(head, "#     1    3") {
		t.Errorf("Allreduce np=4: want the rank order block rows '0 2' then '1 3':\n%s", head)
	}
	if tab := findTable(tabs, "PingPong", 2); tab == nil || !headHasRow(tab, "#", "0", "2") {
		t.Errorf("PingPong np=2: want rank order row '0 2'")
	}
}

// TestNPMin: -npmin P-1 runs Allreduce on P-1 then P processes, with one
// process idle in MPI_Barrier during the first.
func TestNPMin(t *testing.T) {
	p := e2e.MaxRanks()
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, p, "mpi1", "-time", "off", "-npmin", strconv.Itoa(p-1), "Allreduce", "-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecord(t, rec, p, false)
	}
	if got, want := distinctNP(recs, "Allreduce"), []int{p - 1, p}; !slices.Equal(got, want) {
		t.Errorf("Allreduce process counts %v, want %v", got, want)
	}
	tabs := matchTables(t, r.Stdout, recs, -1, false)
	if len(tabs) != 2 {
		t.Fatalf("%d tables, want 2", len(tabs))
	}
	idle := "# ( 1 additional process waiting in MPI_Barrier)"
	if !slices.Contains(tabs[0].Head, idle) {
		t.Errorf("np=%d: header lacks %q:\n%s", p-1, idle, strings.Join(tabs[0].Head, "\n"))
	}
	if strings.Contains(strings.Join(tabs[1].Head, "\n"), "waiting in MPI_Barrier") {
		t.Errorf("np=%d: no process is idle, but the header says so", p)
	}
}

// TestDefaultLengths is the IMB guide's sample 1: PingPong and Allreduce
// on 2 processes with the standard lengths and repetition counts.
func TestDefaultLengths(t *testing.T) {
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-time", "off", "PingPong", "Allreduce", "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecord(t, rec, 2, false)
	}
	wantReps := []int{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000,
		640, 320, 160, 80, 40, 20, 10}
	for _, c := range []struct {
		name string
		lens []int
		reps []int
	}{
		{"PingPong", defaultLengths(1), wantReps},
		{"Allreduce", defaultLengths(4), wantReps[2:]},
	} {
		var lens, reps []int
		for _, rec := range selectRecs(recs, c.name, 2) {
			lens, reps = append(lens, rec.Bytes), append(reps, rec.Reps)
		}
		if !slices.Equal(lens, c.lens) || !slices.Equal(reps, c.reps) {
			t.Errorf("%s: lengths %v reps %v,\nwant lengths %v reps %v", c.name, lens, reps, c.lens, c.reps)
		}
	}
	if n := len(selectRecs(recs, "PingPong", 2)); n != 24 {
		t.Errorf("PingPong: %d rows, want 24 (0, 1, 2, ..., 4194304)", n)
	}
	tabs := matchTables(t, r.Stdout, recs, -1, false)
	if len(tabs) != 2 || len(tabs[0].Rows) != 24 || len(tabs[0].Rows[0]) != 4 || len(tabs[1].Rows) != 22 || len(tabs[1].Rows[0]) != 5 {
		t.Errorf("want a PingPong table of 24 rows x 4 fields and an Allreduce table of 22 rows x 5 fields")
	}
	for _, s := range []string{"# Minimum message length in bytes:   0\n", "# Maximum message length in bytes:   4194304\n"} {
		if !strings.Contains(r.Stdout, s) {
			t.Errorf("stdout lacks %q", s)
		}
	}
	if strings.Contains(r.Stdout, "defects") || strings.Contains(r.Stdout, "BENCHMARKS SUCCESSFUL") {
		t.Errorf("without -check there is no defects column and no check summary")
	}
}

// TestSingleProcess: on one process the single transfers are reported
// invalid with IMB's notice and the rest runs.
func TestSingleProcess(t *testing.T) {
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 1, "mpi1", "-time", "off", "PingPong", "Barrier", "-json", js)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stdout, "# !! Benchmark PingPong invalid for 1 process   !!") {
		t.Errorf("no IMB notice for PingPong on 1 process:\n%s", r.Stdout)
	}
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecord(t, rec, 1, false)
		if rec.Benchmark != "Barrier" || rec.NP != 1 || !equalGroups(rec.Groups, [][]int{{0}}) {
			t.Errorf("%v: want only Barrier on 1 process", rec)
		}
	}
	if len(recs) != 1 {
		t.Errorf("%d records, want 1 (Barrier)", len(recs))
	}
	matchTables(t, r.Stdout, recs, -1, false)
}

// TestInputFile selects benchmarks with an -input file: comments, blank
// lines, spaces and any case.
func TestInputFile(t *testing.T) {
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-time", "off", "-input", e2e.Testdata(t, "select.txt"), "-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for _, rec := range recs {
		checkRecord(t, rec, 2, false)
	}
	if got := benchOrder(recs); !slices.Equal(got, []string{"PingPong", "Barrier"}) {
		t.Errorf("benchmarks %v, want [PingPong Barrier]", got)
	}
	matchTables(t, r.Stdout, recs, -1, false)
}

// TestBadInput: a bad command line ends the job with exit code 2 on every
// rank, before any measurement, with a message on stderr and no hang or
// panic (the table of bad lines and input files is suites/imb's
// TestBadInput, read in process; the results file is opened by the job).
//
// Observed exit codes of the launchers (Open MPI 4.1.4 mpirun.openmpi,
// MPICH hydra mpirun.mpich): both return the ranks' exit code, 2.
// Open MPI adds its own "Primary job terminated normally, but 1 process
// returned a non-zero exit code" note on stderr.
func TestBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	missingDir := filepath.Join(t.TempDir(), "missing")
	cases := []struct {
		name   string
		np     int
		args   []string
		stderr []string // all must appear
	}{
		{"unknown benchmark", 2, []string{"NoSuchBench"}, append([]string{`"NoSuchBench"`}, allNames()...)},
		{"json in a missing directory", 2, []string{"PingPong", "-json", filepath.Join(missingDir, "o.jsonl")}, []string{"-json"}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			r := e2e.Launch(t, c.np, append([]string{"mpi1"}, c.args...)...)
			e2e.NoPanic(t, r)
			switch {
			case e2e.LauncherKind() == "openmpi" || e2e.LauncherKind() == "mpich":
				if r.Code != 2 {
					t.Errorf("want exit code 2 propagated by %s, got %s", e2e.LauncherKind(), r)
				}
			case r.Code == 0:
				t.Errorf("want a non-zero exit code, got %s", r)
			}
			if r.Dur > e2e.MpirunTimeout/4 {
				t.Errorf("took %v; a usage error must end the job at once", r.Dur)
			}
			for _, s := range c.stderr {
				if !strings.Contains(r.Stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.Stderr)
				}
			}
			if strings.Contains(r.Stdout, "# Benchmarking") {
				t.Errorf("a benchmark ran despite the bad input:\n%s", r.Stdout)
			}
			if _, err := os.Stat(missingDir); err == nil {
				t.Errorf("%s was created", missingDir)
			}
		})
	}
}

// TestMPI1HelpUnderMPI: -h under the launcher prints the usage once (rank
// 0) and exits 0 without starting MPI.
func TestMPI1HelpUnderMPI(t *testing.T) {
	r := e2e.Launch(t, 2, "mpi1", "-h")
	e2e.MustSucceed(t, r)
	if n := strings.Count(r.Stdout, "Usage:"); n != 1 {
		t.Errorf("usage printed %d times, want once:\n%s", n, r.Stdout)
	}
	if r.Dur > 60*time.Second {
		t.Errorf("took %v", r.Dur)
	}
}

// TestMultiMapGroups: -map 2x3 -multi 1 on 6 processes numbers PingPong's
// groups as IMB-MPI1 does (by the world rank of each group's leader):
// Group 0: 0 2, Group 1: 3 5, Group 2: 4 1, in the header, the Group
// column and the records. Open MPI only: MPICH busy-polls, and 6 of its
// ranks on 2 cores take minutes.
func TestMultiMapGroups(t *testing.T) {
	e2e.NeedMPI(t)
	if e2e.MaxRanks() < 4 {
		t.Skipf("6 ranks oversubscribed: Open MPI only (the %s tests run 2 ranks)", e2e.LauncherKind())
	}
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 6, "mpi1", "-time", "off", "-iter", strconv.Itoa(multiIter), "-map", "2x3", "-multi", "1", "PingPong",
		"-msglen", e2e.Testdata(t, "short.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	want := [][]int{{0, 2}, {3, 5}, {4, 1}}
	var groups []int
	for _, rec := range recs {
		checkRecordIter(t, rec, 6, false, multiIter)
		if !equalGroups(rec.Groups, want) {
			t.Errorf("%v: groups %v, want %v", rec, rec.Groups, want)
		}
		groups = append(groups, rec.Group)
	}
	if want := []int{0, 1, 2, 0, 1, 2, 0, 1, 2}; !slices.Equal(groups, want) {
		t.Errorf("group indices %v, want %v", groups, want)
	}
	tabs := matchTables(t, r.Stdout, recs, 1, false)
	tab := findTable(tabs, "Multi-PingPong", 2)
	if tab == nil {
		t.Fatalf("no Multi-PingPong table with groups of 2:\n%s", r.Stdout)
	}
	block := "# ( 3 groups of 2 processes each running simultaneous ) \n" +
		"# Group  0:     0    2\n# \n# Group  1:     3    5\n# \n# Group  2:     4    1\n# "
	if head := strings.Join(tab.Head, "\n"); !strings.Contains(head, block) {
		t.Errorf("Multi-PingPong header:\n%s\nwant\n%s", head, block)
	}
}

// TestReductionLengthsOnce: -msglen 4, 5, 6, 7 gives PingPong four rows
// and Allreduce two, 4 and 8 bytes (5, 6 and 7 round up to 8 floats' worth
// as in IMB, and a length is measured once).
func TestReductionLengthsOnce(t *testing.T) {
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 2, "mpi1", "-time", "off", "PingPong", "Allreduce", "-msglen", e2e.Testdata(t, "reduce.txt"), "-json", js)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadRecords(t, js)
	for name, want := range map[string][]int{"PingPong": {4, 5, 6, 7}, "Allreduce": {4, 8}} {
		var got []int
		for _, rec := range selectRecs(recs, name, 2) {
			checkRecord(t, rec, 2, false)
			got = append(got, rec.Bytes)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: lengths %v, want %v", name, got, want)
		}
	}
	tabs := matchTables(t, r.Stdout, recs, -1, false)
	if tab := findTable(tabs, "Allreduce", 2); tab == nil || len(tab.Rows) != 2 {
		t.Errorf("want an Allreduce table of 2 rows:\n%s", r.Stdout)
	}
}
