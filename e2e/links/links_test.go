package links

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// linksArgs is a tiny links run: 1 KiB messages, 3 iterations of a
// window of 4 at each distance.
var linksArgs = []string{"links", "-size", "1024", "-iters", "3", "-window", "4"}

// linksCheck verifies the records of a links run on np processes: one
// per rank and figure, rank by rank as they reached rank 0, each with a
// time per partner rank (0 at itself), rounded to the nanosecond, its
// definition's fields, and the rank's host from hosts (nil: any).
func linksCheck(t *testing.T, recs []result.Record, np int, hosts []string) {
	t.Helper()
	if len(recs) != 3*np {
		t.Fatalf("%d records, want 3·%d", len(recs), np)
	}
	i := 0
	for rank := 0; rank < np; rank++ {
		for _, mode := range []string{"send", "recv", "latency"} {
			linksCheckOne(t, &recs[i], mode, rank, np, hosts)
			i++
		}
	}
}

func linksCheckOne(t *testing.T, r *result.Record, mode string, rank, np int, hosts []string) {
	t.Helper()
	id := fmt.Sprintf("%s of rank %d", mode, rank)
	bytes, window := 1024, 4
	if mode == "latency" {
		bytes, window = 0, 1
	}
	l := r.Links
	if r.Suite != "links" || r.Class != "rank" || r.Mode != mode || r.NProcs != np || r.Groups != nil ||
		r.Bytes != bytes || r.Reps != 3 || r.Window != window || l == nil || l.Rank != rank {
		t.Fatalf("%s: record %+v", id, r)
	}
	if len(l.TMin) != np || len(l.TAvg) != np || len(l.TMax) != np {
		t.Fatalf("%s: %d/%d/%d values, want %d each", id, len(l.TMin), len(l.TAvg), len(l.TMax), np)
	}
	for k := 0; k < np; k++ {
		lo, avg, hi := l.TMin[k], l.TAvg[k], l.TMax[k]
		if k == rank {
			if lo != 0 || avg != 0 || hi != 0 {
				t.Errorf("%s: %g/%g/%g with itself, want 0", id, lo, avg, hi)
			}
			continue
		}
		if !(lo > 0 && lo <= avg && avg <= hi) {
			t.Errorf("%s, partner %d: t_min %g t_avg %g t_max %g", id, k, lo, avg, hi)
		}
		for _, v := range []float64{lo, avg, hi} {
			if ns := v * 1e3; math.Abs(ns-math.Round(ns)) > 1e-6 {
				t.Errorf("%s, partner %d: %v µs is not whole nanoseconds", id, k, v)
			}
		}
	}
	if l.Host == "" || hosts != nil && l.Host != hosts[rank] {
		t.Errorf("%s: host %q, want that of rank %d in %q", id, l.Host, rank, hosts)
	}
}

// linksNumbers checks the cost of the file: every time in a links record
// takes at most 16 bytes of text with its separator.
func linksNumbers(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if e2e.IsRunHeader(line) {
			continue
		}
		var raw struct {
			Links struct {
				TMin []json.Number `json:"t_min_us"`
				TAvg []json.Number `json:"t_avg_us"`
				TMax []json.Number `json:"t_max_us"`
			} `json:"links"`
		}
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatal(err)
		}
		for name, nums := range map[string][]json.Number{"t_min_us": raw.Links.TMin, "t_avg_us": raw.Links.TAvg, "t_max_us": raw.Links.TMax} {
			if len(nums) == 0 {
				t.Errorf("a record without %s: %s", name, line)
			}
			for _, n := range nums {
				if len(n.String()) > 15 {
					t.Errorf("%s: %s takes %d bytes", name, n, len(n.String())+1)
				}
			}
		}
	}
}

// The largest count the launcher allows (4 ranks Open MPI, 2 MPICH):
// records, with -slow 15 in their context, the three matrices and their
// slow-pair lines in the text; then -resume.
func TestLinks(t *testing.T) {
	np := slices.Max(e2e.RankCounts())
	js := filepath.Join(t.TempDir(), "links.jsonl")
	args := append(slices.Clone(linksArgs), "-slow", "15", "-json", js)
	r := e2e.Launch(t, np, args...)
	e2e.MustSucceed(t, r)
	recs := e2e.ReadJSONL[result.Record](t, js)
	linksCheck(t, recs, np, nil)
	linksNumbers(t, js)
	for _, rec := range recs {
		if rec.Context.SlowPct == nil || *rec.Context.SlowPct != 15 {
			t.Fatalf("%s of rank %d: context.slow_pct %v, want 15 (-slow)", rec.Mode, rec.Links.Rank, rec.Context.SlowPct)
		}
	}
	for want, n := range map[string]int{"# Send bandwidth": 1, "# Receive bandwidth": 1, "# Latency": 1, "slow pairs (more than 15%": 3} {
		if strings.Count(r.Stdout, want) != n {
			t.Errorf("%q not %d times in the output:\n%s", want, n, r.Stdout)
		}
	}
	if lines := strings.Split(r.Stdout, "\n"); !slices.ContainsFunc(lines, func(l string) bool {
		f := strings.Fields(l)
		return len(f) == np+1 && f[0] == "send"
	}) {
		t.Errorf("no send matrix header of %d columns:\n%s", np, r.Stdout)
	}
	// -resume keeps the finished run and prints the same matrices.
	again := e2e.Launch(t, np, append(args, "-resume")...)
	e2e.MustSucceed(t, again)
	if again.Stdout != r.Stdout || len(e2e.ReadJSONL[result.Record](t, js)) != 3*np {
		t.Errorf("-resume: output or records changed:\n%s", again)
	}
}

// Bad input: exit 2 on every rank with the flag named (the flags one by
// one: links.TestParseArgs).
func TestLinksBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Machinery)
	for _, c := range []struct {
		np   int
		args []string
		want string
	}{
		{2, []string{"links", "-window", "0"}, "-window"},
		{1, []string{"links"}, "at least 2 processes"},
		{3, []string{"links", "-matrices", "2"}, "links on 3 processes would print three 3×3 grids, 27 cells"},
	} {
		r := e2e.Launch(t, c.np, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: want exit 2 naming %q, got %s", c.args, c.want, r)
		}
	}
}

// A plan whose file does not fit -disk stops before anything is
// measured or written, on every rank, with the numbers; -matrices 0
// prints every matrix's summary without its grid.
func TestLinksPlanRefused(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	dir := t.TempDir()
	js := filepath.Join(dir, "links.jsonl")
	r := e2e.Launch(t, 2, append(linksArgs, "-json", js, "-disk", "4K")...)
	e2e.NoPanic(t, r)
	want := "links on 2 processes (6 records of 6 times each) needs up to 8.9 KiB (9152 bytes) of files in " + dir +
		"; -disk allows 4.0 KiB (4096 bytes) (nothing was written)"
	if r.Code != 2 || !strings.Contains(r.Stderr, want) || strings.Contains(r.Stdout, "Latency") {
		t.Errorf("want exit 2 with %q, got %s", want, r)
	}
	e2e.AssertEmpty(t, dir)
	r = e2e.Launch(t, 2, append(linksArgs, "-matrices", "0")...)
	e2e.MustSucceed(t, r)
	if n := strings.Count(r.Stdout, "# (grid not printed: -matrices 0)"); n != 3 || strings.Count(r.Stdout, "# min ") != 3 {
		t.Errorf("-matrices 0: %d grids left out, want 3 with their summaries:\n%s", n, r.Stdout)
	}
}

// linksHosts runs links across the network-namespace hosts of TestHosts
// (one rank each): every pair names its two hosts.
func linksHosts(t *testing.T, hosts []string, dir string) {
	js := filepath.Join(dir, "links.jsonl")
	e2e.MustSucceed(t, hostsLaunch(t, hosts, append(linksArgs, "-json", js)...))
	hostsRecords(t, js, hosts)
	linksCheck(t, e2e.ReadJSONL[result.Record](t, js), len(hosts), hosts)
}

// At 32 ranks (oversubscribed here) the file follows the cost model of
// docs/links.md: 3·P records, each of 3·P numbers of at most 16 bytes,
// plus a fixed part per record and the run's header.
func TestLinksScale(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Scale)
	const np = 32
	js := filepath.Join(t.TempDir(), "links.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, np, "links", "-size", "8", "-iters", "1", "-window", "1", "-json", js))
	recs := e2e.ReadJSONL[result.Record](t, js)
	if len(recs) != 3*np {
		t.Fatalf("%d records at %d ranks, want 3·P = %d", len(recs), np, 3*np)
	}
	linksNumbers(t, js)
	st, err := os.Stat(js)
	if err != nil {
		t.Fatal(err)
	}
	// The fixed part of a record (its fields but the arrays) is under
	// 400 bytes, the header under 4 KiB.
	if limit := int64(9*np*np*16 + 3*np*400 + 4096); st.Size() > limit {
		t.Errorf("%d bytes at %d ranks, over the model's %d", st.Size(), np, limit)
	}
}
