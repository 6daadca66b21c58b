package imb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mpibench/e2e"
)

// TestTimeLimit: -time (IMB 2021's per-sample bound) at PingPong 0 B and
// 4 MiB on 2 processes. A bound of 0.5 ms lowers 4 MiB's 10 repetitions
// (a 4 MiB round trip takes far more than the 0.056 ms that 10 would
// allow: int(1 + 0.5/t) < 10) and never raises a count above a shorter
// length's; -time off and the default (10 s, which these samples are far
// from) keep IMB 3.0's counts, 1000 and 10. Each record carries its bound,
// and a row whose count the bound lowered says so under it and in its
// record (issue 26: a table cut to a few repetitions bore no mark).
func TestTimeLimit(t *testing.T) {
	e2e.NeedMPI(t)
	lens := e2e.Lengths(t, 0, 4<<20)
	for _, c := range []struct {
		name  string
		args  []string
		limit float64
	}{
		{"tiny", []string{"-time", "0.0005"}, 0.0005},
		{"off", []string{"-time", "off"}, -1},
		{"default", nil, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "o.jsonl")
			r := e2e.Launch(t, 2, append([]string{"mpi1", "PingPong", "-msglen", lens, "-json", js}, c.args...)...)
			e2e.MustSucceed(t, r)
			recs := e2e.ReadRecords(t, js)
			if len(recs) != 2 || recs[0].Bytes != 0 || recs[1].Bytes != 4<<20 {
				t.Fatalf("want records of 0 and 4194304 bytes, got %v", recs)
			}
			for _, rec := range recs {
				if rec.TimeLimit != c.limit {
					t.Errorf("%v: time_limit_s %g, want %g", rec, rec.TimeLimit, c.limit)
				}
			}
			small, large := recs[0].Reps, recs[1].Reps
			for _, rec := range recs {
				asked := map[int]int{0: 1000, 4 << 20: 10}[rec.Bytes]
				cut := rec.Reps < asked
				if cut != (rec.Cut == "time") || cut != (rec.RepsAsked == asked) {
					t.Errorf("%d B: %d of %d repetitions, cut %q, reps_asked %d", rec.Bytes, rec.Reps, asked, rec.Cut, rec.RepsAsked)
				}
				mark := fmt.Sprintf("#   ^ %d of %d repetitions: lowered by the -time bound", rec.Reps, asked)
				if strings.Contains(r.Stdout, mark) != cut {
					t.Errorf("%d B: the line %q is there: %v, cut: %v\n%s", rec.Bytes, mark, !cut, cut, r.Stdout)
				}
			}
			if c.limit == 0.0005 {
				if large < 1 || large >= 10 || small < large || small > 1000 {
					t.Errorf("-time 0.0005: repetitions %d (0 B), %d (4 MiB); want 4 MiB below 10 and 0 B in [that, 1000]", small, large)
				}
				return
			}
			if small != 1000 || large != 10 {
				t.Errorf("repetitions %d (0 B), %d (4 MiB); want IMB 3.0's 1000 and 10", small, large)
			}
		})
	}
}

// TestTimeLimitIODefault: IMB-IO's default bound, 0.5 s, lowers a
// non-blocking sample of 50 repetitions, each running CPU_Exploit for
// TARGET_CPU_SECS = 0.1 s (5 s unbounded; int(1 + 0.5/t) is about 5 at
// t >= 0.1 s, 10 allows for a calibration a little short), and the record
// says so; the aggregate write at the same length (50 repetitions of
// 1 KiB into the page cache, far under 0.5 s) keeps its 50. The
// non-aggregate write syncs the file every repetition, and one slow sync
// in the probe may lower it: only its bound is checked.
func TestTimeLimitIODefault(t *testing.T) {
	e2e.NeedMPI(t)
	dir := filepath.Join(t.TempDir(), "io")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, 2, "io", "-iodir", dir, "-json", js, "-msglen", e2e.Lengths(t, 1024), "S_Write_Expl", "S_IWrite_Expl")
	e2e.MustSucceed(t, r)
	e2e.AssertEmpty(t, dir)
	recs := e2e.ReadRecords(t, js)
	if len(recs) != 3 {
		t.Fatalf("want 3 records (aggregate, non-aggregate, non-blocking), got %v", recs)
	}
	want := map[string][2]int{"aggregate": {50, 50}, "non-aggregate": {1, 10}, "non-blocking": {1, 10}}
	for _, rec := range recs {
		w := want[rec.Mode]
		if rec.TimeLimit != 0.5 || rec.Reps < w[0] || rec.Reps > w[1] {
			t.Errorf("%s %s: %d repetitions under time_limit_s %g; want %d to %d under 0.5", rec.Benchmark, rec.Mode, rec.Reps, rec.TimeLimit, w[0], w[1])
		}
	}
}
