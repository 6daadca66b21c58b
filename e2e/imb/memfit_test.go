package imb

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// memRec is what the memory tests read of a record.
type memRec struct {
	Benchmark  string  `json:"benchmark"`
	NProcs     int     `json:"np"`
	Bytes      int     `json:"bytes"`
	Reps       int     `json:"reps"`
	TMax       float64 `json:"t_max_us"`
	Skipped    string  `json:"skipped"`
	NeedBytes  int64   `json:"need_bytes"`
	LimitBytes int64   `json:"limit_bytes"`
}

// tableLines are the data lines of each table of out, by its process
// count: a row's length, or the length and "out" for a line that stands
// in its place for memory ("out-of-mem.").
func tableLines(out string) map[int][]string {
	tables := map[int][]string{}
	q := 0
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "# #processes = "); ok {
			q, _ = strconv.Atoi(strings.TrimSpace(rest))
			continue
		}
		f := strings.Fields(l)
		if q == 0 || len(f) < 2 {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			continue
		}
		if f[1] == "out-of-mem.;" {
			tables[q] = append(tables[q], f[0]+" out")
		} else {
			tables[q] = append(tables[q], f[0])
		}
	}
	return tables
}

// TestMemFitNode: on a node faked at 6 MB, four processes have 1.5 MiB
// each. Alltoall's buffers on P processes at X bytes are P·X to send and
// P·X to receive, and its counts and displacements 2·4·P bytes: on 2
// processes 512 KiB needs 2 MiB and 16 bytes, on 4 processes 256 KiB
// already needs 2 MiB and 32 bytes. Those lengths are left out, each
// with a line at its place in its table and a record that says so (no
// times, the need and the limit); the others are measured, and the run
// succeeds where it used to be refused.
func TestMemFitNode(t *testing.T) {
	e2e.SetFakeMem(t, "6")
	const limit = 6 << 20 / 4
	js := filepath.Join(t.TempDir(), "o.jsonl")
	// -iter 20: the subject is the plan, not IMB's counts (at IMB's 1000
	// repetitions MPICH's four busy-polling ranks on 2 cores took 32 s).
	r := e2e.Launch(t, 4, "mpi1", "Alltoall", "-msglen", e2e.Lengths(t, 0, 65536, 262144, 524288), "-iter", "20", "-json", js)
	e2e.MustSucceed(t, r)
	want := map[int][]string{
		2: {"0", "65536", "262144", "524288 out"},
		4: {"0", "65536", "262144 out", "524288 out"},
	}
	if got := tableLines(r.Stdout); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tables %v, want %v:\n%s", got, want, r.Stdout)
	}
	line := "       524288 out-of-mem.; needs 2.0 MiB per process; this node has 1.5 MiB per process available\n"
	if !strings.Contains(r.Stdout, line) {
		t.Errorf("no line %q in\n%s", line, r.Stdout)
	}
	need := func(p, x int) int64 { return int64(2*p*x + 2*4*p) }
	var got []string
	for _, rec := range e2e.ReadJSONL[memRec](t, js) {
		got = append(got, fmt.Sprintf("%d/%d", rec.NProcs, rec.Bytes))
		left := rec.NProcs == 2 && rec.Bytes == 524288 || rec.NProcs == 4 && rec.Bytes >= 262144
		switch {
		case !left && (rec.Skipped != "" || rec.TMax <= 0 || rec.Reps <= 0 || rec.NeedBytes != 0):
			t.Errorf("%+v: want a measurement", rec)
		case left && (rec.Skipped != "memory" || rec.TMax != 0 || rec.Reps != 0 ||
			rec.NeedBytes != need(rec.NProcs, rec.Bytes) || rec.LimitBytes != limit):
			t.Errorf("%+v: want skipped memory, no figures, need %d, limit %d", rec, need(rec.NProcs, rec.Bytes), limit)
		}
	}
	if wantRecs := []string{"2/0", "2/65536", "2/262144", "2/524288", "4/0", "4/65536", "4/262144", "4/524288"}; !slices.Equal(got, wantRecs) {
		t.Errorf("records %v, want %v", got, wantRecs)
	}
}
