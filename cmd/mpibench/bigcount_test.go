package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/mpi"
)

// The tests of messages of 2 GiB and more (mpi/bigcount.h, imb/bigcase.go).

// bigBenchmarks are mpi1's benchmarks with a large-count kernel.
var bigBenchmarks = []string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Reduce", "Allreduce"}

// runBig runs mpi1 -check on 2 processes with bin as mutant m ("" for the
// real kernels) at the lengths of the -msglen file lens, -msglog 32, and
// returns the records; the exit code must be 3 under a mutant, else 0.
func runBig(t *testing.T, bin, m, lens string, extra ...string) []record {
	t.Helper()
	t.Setenv(mutantEnv, m)
	js := filepath.Join(t.TempDir(), "big.jsonl")
	argv := launcherArgs(2)
	argv[len(argv)-1] = bin
	argv = append(argv, "mpi1", "-check", "-msglog", "32", "-msglen", lens, "-json", js)
	r := execute(t, mpirunTimeout, launcherPath, append(argv, extra...)...)
	noPanic(t, r)
	if want := map[bool]int{true: 3, false: 0}[m != ""]; r.code != want {
		t.Fatalf("mutant %q: want exit code %d, got %s", m, want, r)
	}
	return readRecords(t, js)
}

// lengthsFile writes a -msglen file.
func lengthsFile(t *testing.T, lens ...int) string {
	t.Helper()
	var b strings.Builder
	for _, x := range lens {
		b.WriteString(strconv.Itoa(x) + "\n")
	}
	path := filepath.Join(t.TempDir(), "lens.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantCountMode is the count_mode of a message past the int limit.
func wantCountMode(force bool) string {
	if mpi.Flavor == "mpich" && !force {
		return "mpi4-large-count"
	}
	return "derived-type"
}

// TestBigCountKernels runs every large-count kernel with the test hook of
// the mutant build (mpi/bigcount_mutant.go) that moves the threshold to
// 4096 bytes, the int limit to 100 items and the derived block to 64
// items: lengths below, at and past the threshold, with and without a
// remainder after the blocks, through MPI-4's calls (MPICH) and the
// derived types (both MPIs). The real kernels deliver every byte; every
// mutant is caught at every large-count length.
func TestBigCountKernels(t *testing.T) {
	bin := mutantBinary(t)
	lens := lengthsFile(t, 100, 4095, 4096, 5000, 9999)
	// 4 repetitions: enough for the root to rotate and for first-only.
	quick := []string{"-iter", "4", "-time", "off", "-warm_up", "off"}
	forces := []bool{false}
	if mpi.Flavor == "mpich" {
		forces = append(forces, true) // MPICH runs the derived types too
	}
	for _, force := range forces {
		t.Setenv(mpi.BigTestEnv, "4096:100:64:"+map[bool]string{false: "0", true: "1"}[force])
		for _, r := range runBig(t, bin, "", lens, append(quick, bigBenchmarks...)...) {
			want := ""
			if r.Bytes >= 4096 {
				want = wantCountMode(force)
			}
			if r.Defects != 0 || r.CountMode != want {
				t.Errorf("force %v: %v count_mode %q, want no defects and %q", force, r, r.CountMode, want)
			}
		}
	}
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	for _, c := range []struct {
		mutant  string
		benches []string
	}{
		{"wrong-rank", []string{"PingPong", "PingPing", "Sendrecv", "Exchange"}},
		{"no-rotation", []string{"Bcast", "Reduce"}},
		{"short-reduce", []string{"Reduce", "Allreduce"}},
		{"first-only", bigBenchmarks},
	} {
		recs := runBig(t, bin, c.mutant, lens, append(quick, c.benches...)...)
		n := 0
		for _, r := range recs {
			if r.Bytes >= 4096 {
				n++
				if r.Defects <= 0 {
					t.Errorf("mutant %s passed -check: %v", c.mutant, r)
				}
			}
		}
		if n != 3*len(c.benches) {
			t.Errorf("mutant %s: %d records at 4096 bytes and more, want %d", c.mutant, n, 3*len(c.benches))
		}
	}
}

// TestBigCountOver2GiB sends 2 GiB + 8 bytes for real: PingPong and Bcast
// with -check, one repetition (IMB's count at this length), one buffer of
// 2 GiB + 8 per rank (4 GiB for the job); then the wrong-rank mutant's
// PingPong, whose every byte rank 0 must find wrong.
func TestBigCountOver2GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 4 GiB test")
	}
	const x = 1<<31 + 8
	needAvailable(t, 5<<30)
	lens := lengthsFile(t, x)
	quick := []string{"-time", "off", "-warm_up", "off"}
	recs := runBig(t, binPath, "", lens, append(quick, "PingPong", "Bcast")...)
	var got []string
	for _, r := range recs {
		got = append(got, r.Benchmark)
		if r.Bytes != x || r.Reps != 1 || r.Defects != 0 || r.CountMode != wantCountMode(false) {
			t.Errorf("%v count_mode %q: want %d bytes, 1 repetition, no defects, %q", r, r.CountMode, x, wantCountMode(false))
		}
	}
	if !slices.Equal(got, []string{"PingPong", "Bcast"}) {
		t.Errorf("records of %v, want PingPong and Bcast", got)
	}
	recs = runBig(t, mutantBinary(t), "wrong-rank", lens, append(quick, "PingPong")...)
	if len(recs) != 1 || recs[0].Defects != x {
		t.Errorf("wrong-rank mutant at %d bytes: %v, want %d defects (all of rank 0's bytes)", x, recs, x)
	}
}

// needAvailable skips a test when this node's MemAvailable is below n
// bytes: other jobs hold the memory the test needs.
func needAvailable(t *testing.T, n int64) {
	t.Helper()
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skipf("no /proc/meminfo: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == "MemAvailable:" {
			if kb, _ := strconv.ParseInt(fs[1], 10, 64); kb*1024 < n {
				t.Skipf("needs %d MiB of available memory, the node has %d MiB", n>>20, kb>>10)
			}
			return
		}
	}
	t.Skip("no MemAvailable in /proc/meminfo")
}

// TestBigCountMemory: a plan whose buffers do not fit stops before any
// allocation, on every rank, naming the need and what is available.
func TestBigCountMemory(t *testing.T) {
	setFakeMem(t, "3000")
	r := launch(t, 2, "mpi1", "-msglog", "32", "PingPong")
	noPanic(t, r)
	want := "PingPong at 4294967296 bytes on 2 processes needs 4096.0 MiB per process; this node has 1500.0 MiB per process available"
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("want exit 2 and %q, got %s", want, r)
	}
}

// TestBigCountOSU runs osu_latency, osu_bw and osu_bibw with -c past the
// lowered threshold of the mutant build's test hook: OSU's int kernels
// below 4096 bytes, the large-count ones from there on; the real kernels
// pass, the wrong-rank mutant fails at the first large-count size.
func TestBigCountOSU(t *testing.T) {
	bin := mutantBinary(t)
	t.Setenv(mpi.BigTestEnv, "4096:100:64:0")
	for _, b := range []string{"osu_latency", "osu_bw", "osu_bibw"} {
		for _, m := range []string{"", "wrong-rank"} {
			t.Setenv(mutantEnv, m)
			js := filepath.Join(t.TempDir(), "osu.jsonl")
			argv := launcherArgs(2)
			argv[len(argv)-1] = bin
			argv = append(argv, "osu", b, "-m", "2048:8192", "-c", "-i", "3", "-x", "1", "-json", js)
			if b != "osu_latency" {
				argv = append(argv, "-W", "4")
			}
			r := execute(t, mpirunTimeout, launcherPath, argv...)
			noPanic(t, r)
			if want := map[bool]int{true: 3, false: 0}[m != ""]; r.code != want {
				t.Errorf("%s, mutant %q: want exit code %d, got %s", b, m, want, r)
			}
			var got []string
			for _, rec := range readRecords(t, js) {
				got = append(got, strconv.Itoa(rec.Bytes)+":"+rec.CountMode+":"+strconv.FormatBool(rec.Defects > 0))
			}
			mode := wantCountMode(false)
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
	needMPI(t)
	needAvailable(t, 5<<30)
	one := []string{"-m", strconv.Itoa(x) + ":" + strconv.Itoa(x), "-c", "-i", "1", "-x", "0", "-u", "0"}
	for _, c := range []struct {
		bin, mutant, verdict string
		args                 []string
	}{
		{binPath, "", "Pass", append([]string{"osu_latency"}, one...)},
		{binPath, "", "Pass", append([]string{"osu_bw", "-W", "2"}, one...)},
		{mutantBinary(t), "wrong-rank", "Fail", append([]string{"osu_bw", "-W", "2"}, one...)},
	} {
		r, recs, verdicts := runOSUBig(t, c.bin, c.mutant, c.args...)
		what := fmt.Sprintf("%v, mutant %q", c.args[0], c.mutant)
		defects := map[string]float64{"Pass": 0, "Fail": 1}[c.verdict]
		if len(recs) != 1 || recs[0].Bytes != x || recs[0].Reps != 1 || recs[0].Defects != defects ||
			recs[0].CountMode != wantCountMode(false) || !slices.Equal(verdicts, []string{c.verdict}) {
			t.Errorf("%s: %v, validation %v; want one record of %d bytes, 1 iteration, %g defects, count_mode %q, %s",
				what, recs, verdicts, x, defects, wantCountMode(false), c.verdict)
		}
		row := regexp.MustCompile(`(?m)^` + strconv.Itoa(x) + `\s+[0-9]+\.[0-9]{2}\s+` + c.verdict + `$`)
		if !row.MatchString(r.stdout) {
			t.Errorf("%s: no row %q in the output:\n%s", what, row, r.stdout)
		}
	}
}

// runOSUBig runs mpibench osu on 2 processes with bin as mutant m ("" for
// the real kernels), and returns the run, its records and their osu
// validation columns; the exit code must be 3 under a mutant, else 0.
func runOSUBig(t *testing.T, bin, m string, args ...string) (runResult, []record, []string) {
	t.Helper()
	r, js := runOSUMutant(t, bin, m, args...)
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
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
	return r, readRecords(t, js), verdicts
}
