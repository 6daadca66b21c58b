package beff

// Integration tests of mpibench beff under the real launcher: the b_eff
// formula is recomputed here, independently of package beff, from the
// recorded b values, and compared with the summary record and the last
// line of the text output.

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// beffRecord is the JSON form of a b_eff record, read independently of
// package result.
type beffRecord struct {
	Suite       string  `json:"suite"`
	Benchmark   string  `json:"benchmark"`
	Class       string  `json:"class"`
	Mode        string  `json:"mode"`
	NP          int     `json:"np"`
	Bytes       int     `json:"bytes"`
	Reps        int     `json:"reps"`
	Messages    int     `json:"messages"`
	TMin        float64 `json:"t_min_us"`
	TMax        float64 `json:"t_max_us"`
	TAvg        float64 `json:"t_avg_us"`
	Check       bool    `json:"check"`
	Defects     float64 `json:"defects"`
	BeffFigures `json:"b_eff"`
}

// BeffFigures are b_eff's own figures, in the record's "b_eff".
type BeffFigures struct {
	Rep   int     `json:"rep"`
	B     float64 `json:"b_mbps"`
	Seed  uint64  `json:"seed"`
	Tries int     `json:"tries"`
	Beff  *struct {
		Beff     float64 `json:"b_eff"`
		PerProc  float64 `json:"b_eff_per_proc"`
		Primary  string  `json:"primary"`
		Procs    int     `json:"procs"`
		MemMB    int     `json:"mem_mb"`
		LMax     int     `json:"lmax"`
		Lengths  []int   `json:"lengths"`
		PingPong float64 `json:"pingpong_mbps"`
		BeffLmax float64 `json:"b_eff_lmax"`
		Seed     uint64  `json:"seed"`
		Patterns []struct {
			Name string  `json:"name"`
			Avg  float64 `json:"avg_mbps"`
		} `json:"patterns"`
	} `json:"beff"`
}

// beffLengths are the 21 lengths for -mem 1 (L_max = 1 MB/128 = 8 KiB),
// 4096·2^(k/8) rounded by hand.
var beffLengths = []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
	4467, 4871, 5312, 5793, 6317, 6889, 7512, 8192}

// beffCartesian are the Cartesian patterns of the version 3.1 page:
// P=2: 2x1 and 2x1x1; P=3: 3x1, 3x1x1; P=4: 2x2, 2x2x1.
var beffCartesian = map[int][]string{
	2: {"cart-1d-x", "cart-2d-x", "cart-2d-xy", "cart-3d-x", "cart-3d-xyz"},
	3: {"cart-1d-x", "cart-2d-x", "cart-2d-xy", "cart-3d-x", "cart-3d-xyz"},
	4: {"cart-1d-x", "cart-2d-x", "cart-2d-y", "cart-2d-xy", "cart-3d-x", "cart-3d-y", "cart-3d-xyz"},
}

var beffAnalysis = []string{"worst-cycle", "best-bisection", "worst-bisection", "pingpong"}

func beffRun(t *testing.T, np int, args ...string) (e2e.Result, []beffRecord) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "beff.jsonl")
	r := e2e.Launch(t, np, append([]string{"beff", "-json", js}, args...)...)
	e2e.MustSucceed(t, r)
	return r, e2e.ReadJSONL[beffRecord](t, js)
}

// beffFormula is b_eff recomputed from the b records: per pattern the
// sum over L of the max over methods and reps, /21; logavg per group;
// logavg of the two groups.
func beffFormula(recs []beffRecord, primary string) float64 {
	best := map[string]map[int]float64{}
	for _, r := range recs {
		if r.Beff != nil || (r.Class != primary && r.Class != "random") {
			continue
		}
		k := r.Class + "/" + r.Benchmark
		if best[k] == nil {
			best[k] = map[int]float64{}
		}
		best[k][r.Bytes] = math.Max(best[k][r.Bytes], r.B)
	}
	logsum := map[string]float64{}
	count := map[string]int{}
	for k, byLen := range best {
		sum := 0.0
		for _, b := range byLen {
			sum += b
		}
		g := strings.Split(k, "/")[0]
		logsum[g] += math.Log(sum / 21)
		count[g]++
	}
	prim := math.Exp(logsum[primary] / float64(count[primary]))
	rnd := math.Exp(logsum["random"] / float64(count["random"]))
	return math.Sqrt(prim * rnd)
}

var beffLastLine = regexp.MustCompile(`^b_eff = (\d+\.\d{3}) MB/s = (\d+\.\d{3}) \* (\d+) PEs with (\d+) MB/PE on (\S.*)$`)

// beffCheck verifies a run: the patterns, one record per
// b(pat,L,mthd,rep), b from L, messages, looplength and time, the
// formula, and the last line.
func beffCheck(t *testing.T, r e2e.Result, recs []beffRecord, np int, primary []string, group string, nrandom int, analysis []string) {
	t.Helper()
	sum := recs[len(recs)-1]
	if sum.Beff == nil {
		t.Fatalf("last record is not the summary: %+v", sum)
	}
	var wantPats []string
	wantPats = append(wantPats, primary...)
	for k := 1; k <= nrandom; k++ {
		wantPats = append(wantPats, fmt.Sprintf("random-%d", k))
	}
	wantPats = append(wantPats, analysis...)
	var pats []string
	count := map[string]int{}
	for _, rec := range recs[:len(recs)-1] {
		if !slices.Contains(pats, rec.Benchmark) {
			pats = append(pats, rec.Benchmark)
		}
		count[rec.Benchmark]++
		if rec.Suite != "beff" || rec.NP != np || rec.Rep < 1 || rec.Rep > 3 || !slices.Contains(beffLengths, rec.Bytes) {
			t.Errorf("bad record %+v", rec)
		}
		// MB/s = bytes/µs: b = L·messages·looplength / t_max.
		if want := float64(rec.Bytes) * float64(rec.Messages) * float64(rec.Reps) / rec.TMax; math.Abs(rec.B-want) > 1e-9*want {
			t.Errorf("%s L=%d %s rep %d: b = %g, want %g", rec.Benchmark, rec.Bytes, rec.Mode, rec.Rep, rec.B, want)
		}
		if !(rec.TMin <= rec.TAvg*(1+1e-12) && rec.TAvg <= rec.TMax*(1+1e-12)) || rec.Reps < 1 || rec.Reps > 300 {
			t.Errorf("%s: times %g/%g/%g looplength %d", rec.Benchmark, rec.TMin, rec.TAvg, rec.TMax, rec.Reps)
		}
		if rec.Class == "random" && rec.Seed != sum.Beff.Seed {
			t.Errorf("%s: seed %d, summary %d", rec.Benchmark, rec.Seed, sum.Beff.Seed)
		}
	}
	if !slices.Equal(pats, wantPats) {
		t.Errorf("patterns %v\nwant %v", pats, wantPats)
	}
	for _, p := range pats {
		methods := 3
		if p == "pingpong" {
			methods = 1
		}
		if count[p] != 21*methods*3 {
			t.Errorf("%s: %d records, want 21 lengths x %d methods x 3 reps", p, count[p], methods)
		}
	}
	s := sum.Beff
	if s.Procs != np || s.MemMB != 1 || s.LMax != 8192 || !slices.Equal(s.Lengths, beffLengths) || s.Primary != group {
		t.Errorf("summary %+v", s)
	}
	want := beffFormula(recs, group)
	if math.Abs(s.Beff-want) > 1e-9*want || math.Abs(s.PerProc-want/float64(np)) > 1e-9*want {
		t.Errorf("b_eff %g (per proc %g), recomputed from the records %g", s.Beff, s.PerProc, want)
	}
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	m := beffLastLine.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	if v, _ := strconv.ParseFloat(m[1], 64); math.Abs(v-want) > 0.0005+1e-9*want {
		t.Errorf("printed b_eff %s, recomputed %.6f", m[1], want)
	}
	if m[3] != strconv.Itoa(np) || m[4] != "1" {
		t.Errorf("last line %q: want %d PEs with 1 MB/PE", m[0], np)
	}
	// every b value is in the text
	if n := strings.Count(r.Stdout, "\n"); n < len(pats)*21 {
		t.Errorf("text output has %d lines, fewer than one per pattern and length", n)
	}
}

func TestBeff(t *testing.T) {
	for _, np := range []int{2, 3, 4} {
		if np > e2e.MaxRanks() {
			continue
		}
		t.Run(fmt.Sprintf("np=%d", np), func(t *testing.T) {
			r, recs := beffRun(t, np, "-mem", "1", "-random", "3")
			beffCheck(t, r, recs, np, beffCartesian[np], "cartesian", 3, beffAnalysis)
			for _, rec := range recs[:len(recs)-1] {
				// the version 3.1 page's looplength with its Cartesian
				// patterns: min(300, L_max/L), one measurement each
				if want := max(1, min(300, 8192/rec.Bytes)); rec.Reps != want || rec.Tries != 1 {
					t.Errorf("%s L=%d: looplength %d (%d tries), want min(300, L_max/L) = %d", rec.Benchmark, rec.Bytes, rec.Reps, rec.Tries, want)
				}
				// two messages per process in every ring and direction,
				// also of length 2 (on 2x2: 4·2 = 8 in cart-2d-x)
				if want := beffMessages(np, rec.Benchmark); rec.Messages != want {
					t.Errorf("%s on %d processes: %d messages, want %d", rec.Benchmark, np, rec.Messages, want)
				}
			}
		})
	}
}

// TestBeffRings runs the paper's ring patterns with the page's fixed
// looplength; the Cartesian patterns other than 1-D become analysis ones.
func TestBeffRings(t *testing.T) {
	np := e2e.MaxRanks()
	r, recs := beffRun(t, np, "-mem", "1", "-patterns", "rings", "-looplength", "fixed", "-random", "2", "-seed", "5")
	rings := []string{"ring-1", "ring-2", "ring-3", "ring-4", "ring-5", "ring-6"}
	analysis := append([]string{"worst-cycle", "best-bisection", "worst-bisection"}, beffCartesian[np][1:]...)
	analysis = append(analysis, "pingpong")
	beffCheck(t, r, recs, np, rings, "ring", 2, analysis)
	for _, rec := range recs[:len(recs)-1] {
		if want := max(1, min(300, 8192/rec.Bytes)); rec.Reps != want {
			t.Errorf("%s L=%d: looplength %d, want min(300, L_max/L) = %d", rec.Benchmark, rec.Bytes, rec.Reps, want)
		}
		if rec.Class == "random" && rec.Seed != 5 {
			t.Errorf("%s: seed %d, want 5", rec.Benchmark, rec.Seed)
		}
	}
}

// beffMessages is the messages of one execution of a pattern on np (2..4)
// processes: two per process and direction (np even in the Cartesian
// layouts up to 4, where x+y has both directions only on 2x2), half of
// them for the bi-sections, 2 for the ping-pong.
func beffMessages(np int, pattern string) int {
	switch {
	case pattern == "pingpong":
		return 2
	case strings.HasSuffix(pattern, "bisection"):
		return np / 2 * 2
	case np == 4 && strings.HasSuffix(pattern, "-xy"), np == 4 && pattern == "cart-3d-xyz":
		return 4 * np
	}
	return 2 * np
}

// TestBeffLoopBand: with the paper's rings the adaptive looplength must
// land every loop in 2.5-5 ms, except where the rule cannot: 300 (the
// most) still below 2.5 ms, 1 (the least) still above 5 ms, or all
// 1+3 tries spent. Spent tries are the machine's noise, not the rule's:
// on this 2-core machine shared with other jobs (load 6-10) MPICH, which
// polls, spent them in 3-9 % of the loops, Open MPI in under 1 %; the
// test allows 15 %.
// L_max = 512 KiB (-mem 64), so that the longest lengths need a shorter
// loop on any machine (300 loops of 512 KiB take more than 5 ms below
// 30 GB/s; at -mem 8, 64 KiB, a quiet machine ran every loop of 300 in
// time and shortened none) and the run stays short (about 4 s here,
// some 400 shortened loops). The old rule (cut only, from a bandwidth-bound guess)
// left about 40 % of its shortened loops below 2.5 ms.
func TestBeffLoopBand(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	_, recs := beffRun(t, 2, "-mem", "64", "-random", "1", "-patterns", "rings")
	var in, most, least, spent, shortened int
	for _, r := range recs[:len(recs)-1] {
		ms := r.TMax / 1e3
		if r.Reps < 300 {
			shortened++
		}
		switch {
		case ms >= 2.5 && ms <= 5:
			in++
		case ms < 2.5 && r.Reps == 300:
			most++
		case ms > 5 && r.Reps == 1:
			least++
		case r.Tries == 4:
			spent++
		default:
			t.Errorf("%s %s L=%d rep %d: looplength %d took %.3f ms after %d tries", r.Benchmark, r.Mode, r.Bytes, r.Rep, r.Reps, ms, r.Tries)
		}
		if r.Tries < 1 || r.Tries > 4 || r.Reps < 1 || r.Reps > 300 {
			t.Errorf("%s L=%d: %d tries, looplength %d", r.Benchmark, r.Bytes, r.Tries, r.Reps)
		}
	}
	n := len(recs) - 1
	t.Logf("%d loops: %d in 2.5-5 ms, %d at 300 below, %d at 1 above, %d tries spent; %d shortened", n, in, most, least, spent, shortened)
	if shortened < 50 || spent*100 > 15*n {
		t.Errorf("%d shortened loops (want at least 50), %d of %d with all tries spent (at most 15 %%)", shortened, spent, n)
	}
}

// TestBeffCheck: -check runs every loop with rank- and execution-dependent
// bytes and verifies every one received: the real kernels have no wrong
// byte; the mutant beff-peer (every message sent one byte off its block)
// is caught in every measurement, every length from 1 byte, every method.
func TestBeffCheck(t *testing.T) {
	bin := e2e.MutantBinary(t)
	for _, np := range []int{2, 4} {
		if np > e2e.MaxRanks() {
			continue
		}
		for _, mutant := range []string{"", "beff-peer"} {
			t.Run(fmt.Sprintf("np=%d/%s", np, cmp.Or(mutant, "real")), func(t *testing.T) {
				t.Setenv(e2e.MutantEnv, mutant)
				js := filepath.Join(t.TempDir(), "beff.jsonl")
				argv := e2e.LauncherArgs(np)
				argv[len(argv)-1] = bin
				argv = append(argv, "beff", "-mem", "1", "-random", "1", "-check", "-json", js)
				r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
				e2e.NoPanic(t, r)
				beffCheckVerdict(t, r, e2e.ReadJSONL[beffRecord](t, js), mutant != "")
			})
		}
	}
}

// beffCheckVerdict: exit 0 and no wrong byte for the real kernels; exit 3,
// the message, and wrong bytes in every measurement for a mutant.
func beffCheckVerdict(t *testing.T, r e2e.Result, recs []beffRecord, mutant bool) {
	t.Helper()
	if want := map[bool]int{false: 0, true: 3}[mutant]; r.Code != want {
		t.Fatalf("want exit code %d, got %s", want, r)
	}
	if mutant && !strings.Contains(r.Stderr, "-check found defects in beff/rep1/cart-1d-x/1/sendrecv") {
		t.Errorf("no message naming the first measurement:\n%s", r.Stderr)
	}
	lengths := map[int]bool{}
	for _, rec := range recs[:len(recs)-1] {
		if !rec.Check || (rec.Defects > 0) != mutant {
			t.Errorf("%s %s L=%d rep %d: check %v, %g wrong bytes", rec.Benchmark, rec.Mode, rec.Bytes, rec.Rep, rec.Check, rec.Defects)
		}
		lengths[rec.Bytes] = true
	}
	if len(lengths) != 21 || !lengths[1] {
		t.Errorf("measured lengths %v, want the 21 from 1 byte", lengths)
	}
}

// TestBeffBadInput: a bad flag ends every rank with exit 2 and one
// message before anything is written (the table of them, and one rank,
// is suites/beff's TestBadInput, read in process).
func TestBeffBadInput(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-mem", "0"}, "-mem"},
	} {
		js := filepath.Join(t.TempDir(), "beff.jsonl")
		r := e2e.Launch(t, 2, append(append([]string{"beff"}, c.args...), "-json", js)...)
		e2e.NoPanic(t, r)
		if r.Code != 2 || strings.Count(r.Stderr, "mpibench beff:") != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: want exit 2 and one message naming %s, got %s", c.args, c.want, r)
		}
		if _, err := os.Stat(js); err == nil {
			t.Errorf("%v: the -json file was created", c.args)
		}
	}
}

func TestBeffHelp(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.NoJob)
	r := e2e.Direct(t, "beff", "-h")
	if r.Code != 0 || !strings.Contains(r.Stdout, "-patterns cartesian|rings") || !strings.Contains(r.Stdout, "-mem MB") {
		t.Errorf("beff -h: want exit 0 and the flags, got %s", r)
	}
	r = e2e.Direct(t, "-h")
	if !strings.Contains(r.Stdout, "mpibench beff") {
		t.Errorf("mpibench -h does not name beff:\n%s", r.Stdout)
	}
}
