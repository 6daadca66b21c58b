package p2p

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// The p2p tests run IMB-P2P's set on tiny lengths: -iter 8,1 makes the
// repetitions round(1 MiB / length) up to 8, so the lengths 1, 200000
// and 1048576 get 8, 5 and 1 repetitions (IMB-P2P's get_iters), and
// -pause 0 leaves out its 0.1 s sleeps.

type p2pRecord struct {
	Suite     string  `json:"suite"`
	Benchmark string  `json:"benchmark"`
	NP        int     `json:"np"`
	Bytes     int     `json:"bytes"`
	Reps      int     `json:"reps"`
	Messages  int     `json:"messages"`
	TMin      float64 `json:"t_min_us"`
	TMax      float64 `json:"t_max_us"`
	TAvg      float64 `json:"t_avg_us"`
	MBps      float64 `json:"mbytes_per_sec"`
	MsgRate   float64 `json:"msg_rate"`
	Check     bool    `json:"check"`
	Defects   float64 `json:"defects"`
	Case      string  `json:"case"`
}

var p2pArgs = []string{"-iter", "8,1", "-pause", "0"}

// p2pValid are the benchmarks IMB-P2P runs on np processes (np <= 4).
func p2pValid(np int) []string {
	all := []string{"PingPong", "PingPing", "Unirandom", "Birandom", "Corandom", "Stencil2D", "SendRecv_Replace"}
	if np == 4 {
		return all
	}
	if np%2 == 1 {
		all = all[2:]
	}
	return slices.DeleteFunc(all, func(s string) bool { return s == "Stencil2D" })
}

// p2pMessages is the messages of the timed loop: nranks·iterations, twice
// that for Birandom, four times for Stencil2D (8 per rank, each counted at
// both ends).
func p2pMessages(bench string, np, reps int) int {
	return cmp.Or(map[string]int{"Birandom": 2, "Stencil2D": 4}[bench], 1) * np * reps
}

// TestP2PRun: every valid benchmark at every length with IMB-P2P's
// repetition counts, one record each with its messages and message rate,
// and the text tables with the same rows; the invalid ones say so.
func TestP2PRun(t *testing.T) {
	msglen := e2e.Lengths(t, 1, 200000, 1048576)
	for _, np := range e2e.RankCounts() {
		t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "p2p.jsonl")
			r := e2e.Launch(t, np, append([]string{"p2p", "-msglen", msglen, "-json", js}, p2pArgs...)...)
			e2e.MustSucceed(t, r)
			recs := e2e.ReadJSONL[p2pRecord](t, js)
			checkP2PRecords(t, recs, np, false)
			checkP2PText(t, r.Stdout, recs, np)
		})
	}
}

func checkP2PRecords(t *testing.T, recs []p2pRecord, np int, check bool) {
	t.Helper()
	var i int
	for _, b := range p2pValid(np) {
		for _, x := range []int{1, 200000, 1048576} {
			if i >= len(recs) {
				t.Fatalf("%d records, want more (%s at %d bytes missing)", len(recs), b, x)
			}
			rec := recs[i]
			i++
			reps := map[int]int{1: 8, 200000: 5, 1048576: 1}[x]
			if rec.Suite != "p2p" || rec.Benchmark != b || rec.Bytes != x || rec.Reps != reps || rec.NP != np || rec.Check != check {
				t.Errorf("record %d: %+v, want %s at %d bytes, %d reps, np %d", i, rec, b, x, reps, np)
			}
			if m := p2pMessages(b, np, reps); rec.Messages != m {
				t.Errorf("%s %d bytes: %d messages, want %d", b, x, rec.Messages, m)
			}
			if !(rec.TMin > 0 && rec.TMin <= rec.TAvg && rec.TAvg <= rec.TMax && rec.MsgRate > 0 && rec.MBps > 0) {
				t.Errorf("%s %d bytes: figures %+v", b, x, rec)
			}
		}
	}
	if i != len(recs) {
		t.Errorf("%d records, want %d", len(recs), i)
	}
}

var p2pInvalid = regexp.MustCompile(`^# !! Benchmark (\S+) (is )?invalid for (\d+) process(es)? !!$`)

// checkP2PText: one table per valid benchmark with the records' rows,
// IMB-P2P's invalid line for the others, the header and the footer.
func checkP2PText(t *testing.T, out string, recs []p2pRecord, np int) {
	t.Helper()
	for _, want := range []string{"IMB-P2P part", "# List of Benchmarks to run:", "# Minimum message length in bytes:   1",
		"# Maximum message length in bytes:   1048576", "# All processes entering MPI_Finalize"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output", want)
		}
	}
	tabs := e2e.ParseTables(t, out)
	var rows [][]string
	for i, tab := range tabs {
		name := strings.Fields(tab.Title)[0]
		if i >= len(p2pValid(np)) || name != p2pValid(np)[i] {
			t.Errorf("table %d is %q, want the valid ones %v", i, tab.Title, p2pValid(np))
		}
		rows = append(rows, tab.Rows...)
	}
	if len(rows) != len(recs) {
		t.Fatalf("%d rows, %d records", len(rows), len(recs))
	}
	for i, row := range rows {
		rec := recs[i]
		if row[0] != strconv.Itoa(rec.Bytes) || row[1] != strconv.Itoa(rec.Reps) || row[2] != fmt.Sprintf("%.2f", rec.TAvg) ||
			row[4] != fmt.Sprintf("%.0f", rec.MsgRate) {
			t.Errorf("row %v, record %+v", row, rec)
		}
	}
	invalid := 0
	for _, line := range strings.Split(out, "\n") {
		if m := p2pInvalid.FindStringSubmatch(line); m != nil && m[3] == strconv.Itoa(np) {
			invalid++
		}
	}
	if want := 8 - len(p2pValid(np)); invalid != want {
		t.Errorf("%d invalid lines, want %d", invalid, want)
	}
}

// TestP2PCheck: -check verifies every byte of every message: none wrong
// for the real kernels (exit 0), exit 3 for the mutants and wrong bytes
// in every row, at every length, for wrong-rank (a sender sends the next
// rank's content), in every row with more than one repetition for
// first-only (the loops communicate in their first repetition only).
func TestP2PCheck(t *testing.T) {
	bin := e2e.MutantBinary(t)
	msglen := e2e.Lengths(t, 1, 200000, 1048576)
	for _, np := range e2e.RankCounts() {
		for _, mutant := range []string{"", "wrong-rank", "first-only"} {
			t.Run(fmt.Sprintf("np=%d/%s", np, cmp.Or(mutant, "real")), func(t *testing.T) {
				t.Setenv(e2e.MutantEnv, mutant)
				js := filepath.Join(t.TempDir(), "p2p.jsonl")
				argv := e2e.LauncherArgs(np)
				argv[len(argv)-1] = bin
				argv = append(argv, append([]string{"p2p", "-check", "-msglen", msglen, "-json", js}, p2pArgs...)...)
				r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
				e2e.NoPanic(t, r)
				if want := map[bool]int{false: 0, true: 3}[mutant != ""]; r.Code != want {
					t.Fatalf("want exit code %d, got %s", want, r)
				}
				recs := e2e.ReadJSONL[p2pRecord](t, js)
				checkP2PRecords(t, recs, np, true)
				for _, rec := range recs {
					if (rec.Defects > 0) != p2pCaught(mutant, rec) {
						t.Errorf("%s %d bytes: %g defects", rec.Benchmark, rec.Bytes, rec.Defects)
					}
				}
			})
		}
	}
}

// p2pCaught tells whether the check must find mutant in rec: wrong-rank
// always; first-only where a loop has more than its first repetition, that
// is with more than one iteration (no warm-up below 2), or in Unirandom and
// Birandom, whose loops run nranks times the iterations.
func p2pCaught(mutant string, rec p2pRecord) bool {
	switch mutant {
	case "wrong-rank":
		return true
	case "first-only":
		return rec.Reps > 1 || rec.Benchmark == "Unirandom" || rec.Benchmark == "Birandom"
	}
	return false
}

// TestP2PBadInput: a clear message and exit code 2 on every rank (the
// table of bad lines: suites/p2p's TestBadInput, read in process).
func TestP2PBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"Pingpang"}, `unknown benchmark "Pingpang"`},
	} {
		r := e2e.Launch(t, 2, append([]string{"p2p"}, c.args...)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("p2p %v: want exit code 2 and %q, got %s", c.args, c.want, r)
		}
	}
}

// TestP2PResume: -resume of a finished run keeps every case and prints
// the same rows again.
func TestP2PResume(t *testing.T) {
	js := filepath.Join(t.TempDir(), "p2p.jsonl")
	args := append([]string{"p2p", "PingPong,Corandom", "-msglog", "2:3", "-json", js}, p2pArgs...)
	first := e2e.Launch(t, 2, args...)
	e2e.MustSucceed(t, first)
	again := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.MustSucceed(t, again)
	rows := func(out string) (r [][]string) {
		for _, tab := range e2e.ParseTables(t, out) {
			for _, row := range tab.Rows {
				r = append(r, row[:2])
			}
		}
		return r
	}
	if a, b := rows(first.Stdout), rows(again.Stdout); len(a) != 4 || !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("rows %v, after -resume %v", a, b)
	}
	if !strings.Contains(again.Stderr, "4 finished cases kept") {
		t.Errorf("no note of the kept cases:\n%s", again.Stderr)
	}
}

// TestP2PKillResume: kill -9 of rank 1 while it is in a case; the
// launcher ends the job, the finished cases stay, and -resume (after a
// crash that cut the last line short) measures the rest: every case once,
// as TestIMBKillResume checks for the IMB suites.
func TestP2PKillResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p2p.jsonl")
	args := append([]string{"p2p", "PingPong,Corandom", "-msglog", "2:3", "-json", out}, p2pArgs...)
	const stuck = "p2p/Corandom/np2/0/4"
	// Rank 1 stops in the case, so that the kill finds it there.
	e2e.SetFault(t, "hang:1:"+stuck)
	e2e.KillAt(t, 2, out, "start "+stuck, append(args, "-timeout", "0")...)
	if n := len(e2e.ReadRecords(t, out)); n != 2 || e2e.StateHas(out, "done "+stuck) {
		t.Fatalf("after the kill: %d records, want PingPong's 2", n)
	}
	e2e.AppendText(t, out, `{"suite":"p2p","bench`)

	e2e.SetFault(t, "")
	r := e2e.Launch(t, 2, append(args, "-resume")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "warning: skipped unreadable line") ||
		!strings.Contains(r.Stderr, "2 finished cases kept") {
		t.Errorf("resume should warn about the half line and keep 2 cases:\n%s", r.Stderr)
	}
	e2e.AssertOncePerCase(t, out, 4)
	var keys []string
	for _, rec := range e2e.ReadJSONL[p2pRecord](t, out) {
		keys = append(keys, rec.Case)
	}
	if want := []string{"p2p/PingPong/np2/0/4", "p2p/PingPong/np2/1/8", stuck, "p2p/Corandom/np2/1/8"}; !slices.Equal(keys, want) {
		t.Errorf("records of %v, want %v", keys, want)
	}
}

// TestP2PPeer runs Intel's IMB-P2P (built by /work/shared/peers/build.sh
// into ~/.cache/mpibench-peers) and mpibench p2p on the same plan: the
// same header lines (headerPattern), benchmarks, process counts, lengths
// and repetition counts, row for row, and the same invalid lines.
func TestP2PPeer(t *testing.T) {
	peer := e2e.NeedPeer(t, "IMB-P2P", e2e.PeerBinary("IMB-P2P"), "")
	msglen := e2e.Lengths(t, 1, 200000, 1048576)
	for _, np := range e2e.RankCounts() {
		argv := e2e.LauncherArgs(np)
		argv[len(argv)-1] = peer
		theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(append(argv, "-msglen", msglen), p2pArgs...)...)
		e2e.MustSucceed(t, theirs)
		ours := e2e.Launch(t, np, append([]string{"p2p", "-msglen", msglen}, p2pArgs...)...)
		e2e.MustSucceed(t, ours)
		e2e.SameHeader(t, ours.Stdout, "IMB-P2P", theirs.Stdout)
		if a, b := p2pPlan(t, theirs.Stdout), p2pPlan(t, ours.Stdout); !slices.Equal(a, b) {
			t.Errorf("np %d: IMB-P2P's plan\n%s\nmpibench's\n%s", np, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	}
}

// p2pPlan is a run's plan as its text shows it: table titles, process
// counts, columns, bytes and repetitions of every row, invalid lines.
func p2pPlan(t *testing.T, out string) []string {
	var plan []string
	for _, line := range strings.Split(out, "\n") {
		if p2pInvalid.MatchString(line) || strings.HasPrefix(line, "# #processes") {
			plan = append(plan, line)
		}
	}
	for _, tab := range e2e.ParseTables(t, out) {
		plan = append(plan, tab.Title+": "+strings.Join(tab.Columns, " "))
		for _, row := range tab.Rows {
			plan = append(plan, row[0]+" "+row[1])
		}
	}
	return plan
}

// TestP2PWatchdog: a case stuck on rank 1 ends the job with exit code 4
// and is marked hung in the journal; -resume keeps the finished cases,
// skips the hung one with a note in its table and measures the rest.
func TestP2PWatchdog(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	out := filepath.Join(t.TempDir(), "p2p.jsonl")
	args := append([]string{"p2p", "PingPong,Birandom", "-msglog", "2:3", "-json", out}, p2pArgs...)
	const stuck = "p2p/Birandom/np2/0/4"
	r := e2e.HangRun(t, 2, 1, stuck, out, args...)
	if !strings.Contains(r.Stderr, "in Birandom, 4 bytes, 2 processes") {
		t.Errorf("the watchdog message does not name the case\n%s", r)
	}
	r = e2e.Launch(t, 2, append(args, "-resume", "-timeout", "30")...)
	e2e.MustSucceed(t, r)
	if !strings.Contains(r.Stderr, "2 finished cases kept") || !strings.Contains(r.Stderr, "1 hung skipped ("+stuck+")") ||
		!strings.Contains(r.Stdout, "# 4 bytes: skipped, the resumed run hung in it") {
		t.Errorf("the resumed run does not note the kept and hung cases\n%s", r)
	}
	var keys []string
	for _, rec := range e2e.ReadJSONL[p2pRecord](t, out) {
		keys = append(keys, rec.Case)
	}
	if want := []string{"p2p/PingPong/np2/0/4", "p2p/PingPong/np2/1/8", "p2p/Birandom/np2/1/8"}; !slices.Equal(keys, want) {
		t.Errorf("records of %v, want %v", keys, want)
	}
}
