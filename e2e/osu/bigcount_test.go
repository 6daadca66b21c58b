package osu

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
)

// TestBigCountOSU runs osu_latency, osu_bw and osu_bibw with -c past the
// lowered threshold of the mutant build's test hook: OSU's int kernels
// below 4096 bytes, the large-count ones from there on; the real kernels
// pass, the wrong-rank mutant fails at the first large-count size.
func TestBigCountOSU(t *testing.T) {
	bin := e2e.MutantBinary(t)
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	for _, b := range []string{"osu_latency", "osu_bw", "osu_bibw"} {
		for _, m := range []string{"", "wrong-rank"} {
			t.Setenv(e2e.MutantEnv, m)
			js := filepath.Join(t.TempDir(), "osu.jsonl")
			argv := e2e.LauncherArgs(2)
			argv[len(argv)-1] = bin
			argv = append(argv, "osu", b, "-m", "2048:8192", "-c", "-i", "3", "-x", "1", "-json", js)
			if b != "osu_latency" {
				argv = append(argv, "-W", "4")
			}
			r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
			e2e.NoPanic(t, r)
			if want := map[bool]int{true: 3, false: 0}[m != ""]; r.Code != want {
				t.Errorf("%s, mutant %q: want exit code %d, got %s", b, m, want, r)
			}
			var got []string
			for _, rec := range e2e.ReadRecords(t, js) {
				got = append(got, strconv.Itoa(rec.Bytes)+":"+rec.CountMode+":"+strconv.FormatBool(rec.Defects > 0))
			}
			mode := e2e.WantCountMode(false)
			want := []string{"2048::false", "4096:" + mode + ":false", "8192:" + mode + ":false"}
			if m != "" { // OSU ends the table at the first failed validation
				want = []string{"2048::false", "4096:" + mode + ":true"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, mutant %q: records (bytes:count_mode:defects) %v, want %v\n%s", b, m, got, want, r)
			}
		}
	}
}

// TestBigCountOSUOver2GiB runs osu_latency and osu_bw at 2 GiB + 8 bytes
// for real with -c: one iteration, no warm-up, no validation warm-up,
// osu_bw with a window of 2 into its one receive buffer. Each needs one
// buffer of 2 GiB + 8 per rank (osu/big.go: bigNeed), 4 GiB for the job.
// Then the wrong-rank mutant's osu_bw, whose stale send buffer rank 1
// must find: Fail and exit 3.
func TestBigCountOSUOver2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 4 GiB test")
	}
	const x = 1<<31 + 8
	e2e.NeedMPI(t)
	e2e.NeedAvailable(t, 5<<30)
	one := []string{"-m", strconv.Itoa(x) + ":" + strconv.Itoa(x), "-c", "-i", "1", "-x", "0", "-u", "0"}
	type run struct {
		bin, mutant, verdict string
		args                 []string
	}
	runs := []run{
		{e2e.Bin(), "", "Pass", append([]string{"osu_latency"}, one...)},
		{e2e.Bin(), "", "Pass", append([]string{"osu_bw", "-W", "2"}, one...)},
	}
	if !e2e.SecondMPI() { // e2e.Mutation
		runs = append(runs, run{e2e.MutantBinary(t), "wrong-rank", "Fail", append([]string{"osu_bw", "-W", "2"}, one...)})
	}
	for _, c := range runs {
		r, recs, verdicts := runOSUBig(t, c.bin, c.mutant, c.args...)
		what := fmt.Sprintf("%v, mutant %q", c.args[0], c.mutant)
		defects := map[string]float64{"Pass": 0, "Fail": 1}[c.verdict]
		if len(recs) != 1 || recs[0].Bytes != x || recs[0].Reps != 1 || recs[0].Defects != defects ||
			recs[0].CountMode != e2e.WantCountMode(false) || !slices.Equal(verdicts, []string{c.verdict}) {
			t.Errorf("%s: %v, validation %v; want one record of %d bytes, 1 iteration, %g defects, count_mode %q, %s",
				what, recs, verdicts, x, defects, e2e.WantCountMode(false), c.verdict)
		}
		row := regexp.MustCompile(`(?m)^` + strconv.Itoa(x) + `\s+[0-9]+\.[0-9]{2}\s+` + c.verdict + `$`)
		if !row.MatchString(r.Stdout) {
			t.Errorf("%s: no row %q in the output:\n%s", what, row, r.Stdout)
		}
	}
}

// runOSUBig runs mpibench osu on 2 processes with bin as mutant m ("" for
// the real kernels), and returns the run, its records and their osu
// validation columns; the exit code must be 3 under a mutant, else 0.
func runOSUBig(t *testing.T, bin, m string, args ...string) (e2e.Result, []e2e.Record, []string) {
	t.Helper()
	r, js := runOSUMutant(t, bin, m, args...)
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, l := range e2e.RecordLines(string(b)) {
		var v struct {
			OSU struct {
				Validation string `json:"validation"`
			} `json:"osu"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		verdicts = append(verdicts, v.OSU.Validation)
	}
	return r, e2e.ReadRecords(t, js), verdicts
}
