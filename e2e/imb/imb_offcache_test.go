package imb

// Integration tests of -off_cache in mpibench nbc, mpi4, ext -imb 2021
// and rma (IMB-NBC, IMB-MPI4, IMB-EXT and IMB-RMA 2021.11;
// imb/offcache.go, suites/imb/kernel/nbc.c, suites/imb/kernel/rma.c, suites/imb/kernel/rma3.c): the offset loops
// pass -check and record the flag; loops that hand MPI slot 0 in every
// repetition (the no-offset mutant) fail it at every length in nbc, ext
// and rma; the
// persistent loops of mpi4 stay at slot 0 as IMB's do, so the mutant
// changes nothing there; the rows match Intel's binaries with the flag;
// io takes the flag and ignores it, as IMB-IO.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// offCacheRun runs suite with flags and -check -off_cache cache (0.01,
// 10 KiB: several slots at every length) at 3 and 1024 bytes (4 and 1024
// for the reductions: whole floats) under mutant m, requires
// the exit code (3 with defects) and a record of every name, each with
// the flag in its options, and returns the records.
func offCacheRun(t *testing.T, suite, cache, m string, wantCode int, names []string, flags ...string) []rec2021 {
	t.Helper()
	t.Setenv(e2e.MutantEnv, m)
	js := filepath.Join(t.TempDir(), suite+".jsonl")
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = e2e.MutantBinary(t)
	argv = append(append(argv, suite), flags...)
	// -iter_policy off -iter 4: four repetitions whatever the load (a
	// time limit left Truly_passive_put one on a busy machine).
	argv = append(argv, "-iter_policy", "off", "-iter", "4", "-check", "-npmin", "2", "-off_cache", cache, "-msglen",
		e2e.Lengths(t, 3, 1024), "-json", js)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, names...)...)
	e2e.NoPanic(t, r)
	if r.Code != wantCode {
		t.Fatalf("want exit code %d, got %s", wantCode, r)
	}
	recs := e2e.ReadJSONL[rec2021](t, js)
	seen := map[string]bool{}
	for _, rec := range recs {
		seen[rec.Benchmark] = true
		if rec.Context.Options["off_cache"] != cache || rec.Reps < 2 {
			t.Errorf("%+v: want off_cache %s in the options and 2 or more repetitions", rec, cache)
		}
	}
	if len(seen) != len(names) {
		t.Errorf("records of %v, want %v", seen, names)
	}
	return recs
}

// TestNBCOffCache: every IMB-NBC loop that moves data passes -check
// under -off_cache, and the no-offset mutant fails it at every length.
// The _pure loops cover every kind (a case costs about 0.7 s under MPICH
// on a loaded node); Ibcast and Ireduce_scatter the overlapped
// instantiation, whose offsets are the same code.
func TestNBCOffCache(t *testing.T) {
	e2e.NeedMPI(t)
	names := nbcPure(nbcCalls[:len(nbcCalls)-1])
	for _, rec := range offCacheRun(t, "nbc", "0.01", "", 0, append(slices.Clone(names), "Ibcast", "Ireduce_scatter")) {
		if rec.Defects != 0 {
			t.Errorf("real loop: %+v", rec)
		}
	}
	for _, rec := range offCacheRun(t, "nbc", "0.01", "no-offset", 3, append(names, "Ibcast")) {
		if rec.Defects <= 0 {
			t.Errorf("mutant no-offset passed -check: %s %d bytes", rec.Benchmark, rec.Bytes)
		}
	}
}

// TestMPI4OffCache: mpi4 takes -off_cache and, as IMB-MPI4 (IMB_bcast.c
// IMB_bcast_persist: the *_init call at slot i = 0), keeps every
// repetition at slot 0: -check passes with the real loops and with the
// no-offset mutant alike.
func TestMPI4OffCache(t *testing.T) {
	e2e.NeedMPI(t)
	names := []string{"Bcast_persist", "Alltoallv_persist", "Reduce_scatter_persist_pure", "Allreduce_persist_pure"}
	for _, m := range []string{"", "no-offset"} {
		for _, rec := range offCacheRun(t, "mpi4", "0.01", m, 0, names) {
			if rec.Defects != 0 {
				t.Errorf("mutant %q: %+v", m, rec)
			}
		}
	}
}

// TestEXTOffCache: ext -imb 2021 -off_cache 1,64 (IMB-EXT 2021.11,
// IMB_ones_unidir.c, IMB_ones_accu.c: every transfer at its slots, the
// window over all of them) passes -check in every transfer benchmark,
// mode and length, and loops that hand MPI slot 0 in every repetition
// (no-offset) fail it in every record. Window moves no data.
func TestEXTOffCache(t *testing.T) {
	e2e.NeedMPI(t)
	names := []string{"Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"}
	for _, m := range []string{"", "no-offset"} {
		for _, rec := range offCacheRun(t, "ext", "1,64", m, map[string]int{"": 0, "no-offset": 3}[m], names, "-imb", "2021") {
			if (rec.Defects != 0) != (m != "") {
				t.Errorf("mutant %q: %+v", m, rec)
			}
		}
	}
}

// TestRMAOffCache: rma -off_cache 1,64 (IMB-RMA 2021.11, IMB_rma_put.c,
// IMB_rma_get.c, IMB_rma_atomic.c) passes -check in a benchmark of every
// transfer and flow, and the no-offset mutant fails it in every record.
func TestRMAOffCache(t *testing.T) {
	e2e.NeedMPI(t)
	names := []string{"Unidir_put", "Bidir_get", "One_put_all", "All_get_all", "Put_all_local", "Exchange_put",
		"Exchange_get", "Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap", "Truly_passive_put"}
	for _, m := range []string{"", "no-offset"} {
		for _, rec := range offCacheRun(t, "rma", "1,64", m, map[string]int{"": 0, "no-offset": 3}[m], names) {
			if (rec.Defects != 0) != (m != "") {
				t.Errorf("mutant %q: %+v", m, rec)
			}
		}
	}
}

// TestOffCacheSideBySide runs Intel's IMB-NBC, IMB-RMA (and IMB-MPI4 where
// it is built) and mpibench with -off_cache on the same plan and compares the
// tables row for row: the flag changes no benchmark, length or count.
func TestOffCacheSideBySide(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct{ suite, peer, a, b string }{
		{"nbc", "IMB-NBC", "Ibcast", "Igatherv_pure"},
		{"mpi4", "IMB-MPI4", "Alltoall_persist", "Reduce_persist_pure"},
		{"rma", "IMB-RMA", "Unidir_get", "Accumulate"},
	} {
		t.Run(c.suite, func(t *testing.T) {
			peer := imbPeer(t, c.peer)
			names := []string{"-off_cache", "0.01", c.a, c.b}
			sideBySide(t, c.suite, peer, names, names)
		})
	}
}

// TestIOOffCache: io takes -off_cache and ignores it, as IMB-IO 2021.11
// does (use_off_cache = 0 under MPIIO): the run succeeds and its records
// carry the flag.
func TestIOOffCache(t *testing.T) {
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "io.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, "io", "-off_cache", "8", "-npmin", "2", "-msglen", e2e.Lengths(t, 4), "-iodir",
		t.TempDir(), "-json", js, "S_Write_indv"))
	recs := e2e.ReadJSONL[rec2021](t, js)
	if len(recs) == 0 {
		t.Fatal("no records")
	}
	for _, r := range recs {
		if r.Context.Options["off_cache"] != "8" {
			t.Errorf("%+v: want off_cache 8 in the options", r)
		}
	}
}

// TestOffCacheMem: -mem counts the -off_cache slots as IMB 2021.11 does
// (used_mem = s_alloc + r_alloc): PingPong at 1 MiB with -off_cache 8 and
// 10 repetitions needs 0.021 GB, over -mem 0.015, so mpibench prints the
// same out-of-mem line as Intel's IMB-MPI1 where it is built (else the
// line as IMB prints it); 512 KiB fits.
func TestOffCacheMem(t *testing.T) {
	args := []string{"PingPong", "-off_cache", "8", "-mem", "0.015", "-msglog", "19:20", "-iter", "10"}
	ours := e2e.Launch(t, 2, append([]string{"mpi1", "-imb", "2021"}, args...)...)
	e2e.MustSucceed(t, ours)
	want := []string{`      1048576 out-of-mem.; needed X=   0.021 GB; use flag "-mem X" or MAX_MEM_USAGE>=X (IMB_mem_info.h)`}
	if peer := peerIMB(); peer != "" {
		argv := e2e.LauncherArgs(2)
		argv[len(argv)-1] = peer
		theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
		e2e.MustSucceed(t, theirs)
		want = outOfMemLines(theirs.Stdout)
	} else {
		t.Logf("no IMB-MPI1 2021.11 built: comparing with its line as written in the test")
	}
	if got := outOfMemLines(ours.Stdout); !slices.Equal(got, want) || len(got) != 1 {
		t.Errorf("out-of-mem lines %q, want %q", got, want)
	}
	if !strings.Contains(ours.Stdout, "       524288           10 ") {
		t.Errorf("512 KiB should run 10 repetitions:\n%s", ours.Stdout)
	}
}

// outOfMemLines are the lines of IMB's -mem refusals in out.
func outOfMemLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "out-of-mem.") {
			lines = append(lines, l)
		}
	}
	return lines
}
