package links

import (
	"fmt"
	"math"
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

// linksCheck verifies the records of a links run on np processes: every
// ordered pair once per figure, in matrix order, with its definition's
// fields, bandwidth = length / mean time (MB = 2^20), the hosts of the
// pair from hosts (nil: any).
func linksCheck(t *testing.T, recs []result.Record, np int, hosts []string) {
	t.Helper()
	if len(recs) != 3*np*(np-1) {
		t.Fatalf("%d records, want 3·%d·%d", len(recs), np, np-1)
	}
	i := 0
	for _, mode := range []string{"send", "recv", "latency"} {
		for src := 0; src < np; src++ {
			for dst := 0; dst < np; dst++ {
				if src == dst {
					continue
				}
				linksCheckOne(t, &recs[i], mode, src, dst, np, hosts)
				i++
			}
		}
	}
}

func linksCheckOne(t *testing.T, r *result.Record, mode string, src, dst, np int, hosts []string) {
	t.Helper()
	id := fmt.Sprintf("%s %d->%d", mode, src, dst)
	bytes, window := 1024, 4
	if mode == "latency" {
		bytes, window = 0, 1
	}
	if r.Suite != "links" || r.Mode != mode || r.NProcs != np || len(r.Groups) != 1 || !slices.Equal(r.Groups[0], []int{src, dst}) ||
		r.Bytes != bytes || r.Reps != 3 || r.Window != window {
		t.Errorf("%s: record %+v", id, r)
	}
	if !(r.TMin > 0 && r.TMin <= r.TAvg && r.TAvg <= r.TMax) {
		t.Errorf("%s: t_min %g t_avg %g t_max %g", id, r.TMin, r.TAvg, r.TMax)
	}
	want := 0.0
	if mode != "latency" {
		want = 1024 / r.TAvg * 1e6 / (1 << 20)
	}
	if math.Abs(r.MBps-want) > 1e-9*want {
		t.Errorf("%s: %g MB/s, want %g", id, r.MBps, want)
	}
	if len(r.PairHosts) != 2 || hosts != nil && (r.PairHosts[0] != hosts[src] || r.PairHosts[1] != hosts[dst]) {
		t.Errorf("%s: pair hosts %q, want those of %q", id, r.PairHosts, hosts)
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
	for _, rec := range recs {
		if rec.Context.SlowPct == nil || *rec.Context.SlowPct != 15 {
			t.Fatalf("%s %v: context.slow_pct %v, want 15 (-slow)", rec.Mode, rec.Groups, rec.Context.SlowPct)
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
	if again.Stdout != r.Stdout || len(e2e.ReadJSONL[result.Record](t, js)) != 3*np*(np-1) {
		t.Errorf("-resume: output or records changed:\n%s", again)
	}
}

// Bad input: exit 2 on every rank with the flag named (the flags one by
// one: links.TestParseArgs).
func TestLinksBadInput(t *testing.T) {
	for _, c := range []struct {
		np   int
		args []string
		want string
	}{
		{2, []string{"links", "-window", "0"}, "-window"},
		{1, []string{"links"}, "at least 2 processes"},
	} {
		r := e2e.Launch(t, c.np, c.args...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: want exit 2 naming %q, got %s", c.args, c.want, r)
		}
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
