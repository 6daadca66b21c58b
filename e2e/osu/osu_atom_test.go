package osu

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// atomTables are the lines of out a -c comparison keeps: the header
// lines and each row's size (OSU's own validation prints its findings
// between the rows, and its summary blocks count other trials).
func atomTables(out string) []string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "#"):
			keep = append(keep, strings.TrimSuffix(line, " v7.4"))
		case len(f) == 3 && (f[2] == "passed" || f[2] == "failed" || f[2] == "skipped"):
			keep = append(keep, f[0])
		}
	}
	return keep
}

// atomRows are the lines of out before the -c summary blocks.
func atomRows(out string) string {
	before, _, _ := strings.Cut(out, "-------------------------------------------")
	return before
}

// TestOSUAtomCheck: with -c the atomic tests print OSU's tables (the
// Validation column, every datatype's header) and sizes, every row
// passed, the records say so, and the summary blocks of both ranks
// follow, rank 0's first, each with its PASSED line.
func TestOSUAtomCheck(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct {
		bench string
		flags []string
	}{
		// -w create: MPICH 4's MPI_Win_allocate windows under 16 bytes
		// take rank 0's accumulates into its own window (docs/osu.md).
		{"osu_acc_latency", []string{"-s", "fence", "-w", "create", "-T", "all"}},
		{"osu_fop_latency", []string{"-s", "flush_local", "-w", "dynamic", "-T", "all"}},
		// No MPI_FLOAT: MPICH refuses it for MPI_Compare_and_swap.
		{"osu_cas_latency", []string{"-s", "pscw", "-w", "create", "-T", "mpi_int", "-T", "mpi_char"}},
	} {
		args := append([]string{"-m", "1:16", "-i", "4", "-x", "1", "-c"}, c.flags...)
		js := filepath.Join(t.TempDir(), "osu.jsonl")
		ours := e2e.Launch(t, 2, append([]string{"osu", c.bench, "-json", js}, args...)...)
		e2e.MustSucceed(t, ours)
		recs := e2e.ReadJSONL[osuRecord](t, js)
		osuRecordsMatch(t, c.bench, atomRows(ours.Stdout), recs)
		for _, r := range recs {
			if !r.Check || r.Defects != 0 || r.OSU.Validation != "passed" {
				t.Errorf("%s %v: record %+v, want a check passed", c.bench, c.flags, r)
			}
		}
		combos := "3"
		if c.bench == "osu_cas_latency" {
			combos = "2"
		}
		block := func(rank string) string {
			return "-------------------------------------------\nAtomic Data Validation results for Rank=" + rank +
				":\nPASSED: All " + combos + " combinations of ops and datatypes tested passed.\n" +
				"-------------------------------------------\n"
		}
		if !strings.HasSuffix(ours.Stdout, block("0")+block("1")) || strings.Contains(ours.Stdout, "failed") {
			t.Errorf("%s %v: want every row passed and both ranks' PASSED blocks at the end, have\n%s", c.bench,
				c.flags, ours.Stdout)
		}
		peer := e2e.PeerBinary(c.bench)
		if peer == "" {
			t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers", c.bench)
			continue
		}
		argv := e2e.LauncherArgs(2)
		argv[len(argv)-1] = peer
		theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
		e2e.MustSucceed(t, theirs)
		if a, b := atomTables(theirs.Stdout), atomTables(ours.Stdout); !slices.Equal(a, b) {
			t.Errorf("%s %v: OSU's tables\n%s\nmpibench's\n%s", c.bench, args, strings.Join(a, "\n"),
				strings.Join(b, "\n"))
		}
	}
}

// TestOSUAtomCounts: osu_acc_latency's counts as OSU overwrites them:
// above 8192 bytes the large ones, kept by every later datatype's table
// at its small sizes, and under lock the warm-up set to the large
// iterations (osu_acc_latency.c: run_acc_with_lock).
func TestOSUAtomCounts(t *testing.T) {
	e2e.NeedMPI(t)
	js := filepath.Join(t.TempDir(), "osu.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, 2, "osu", "acc_latency", "-m", "8192:16384", "-i", "3", "-x", "1", "-s", "lock",
		"-T", "mpi_char", "-T", "mpi_int", "-json", js))
	recs := e2e.ReadJSONL[osuRecord](t, js)
	var got []int
	for _, r := range recs {
		got = append(got, r.Bytes, r.OSU.Warmup)
	}
	// -x sets skip and skip_large to 1, -i both iterations to 3.
	if want := []int{8192, 1, 16384, 3, 8192, 3, 16384, 3}; !slices.Equal(got, want) {
		t.Errorf("sizes and warm-ups %v, want %v", got, want)
	}
}

// TestOSUAtomCheckMutant: -c flags each broken atomic kernel in every
// datatype's row, with exit code 3 and a FAILED summary, and passes the
// others (the real kernels under the same mutant build).
func TestOSUAtomCheckMutant(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	for _, c := range []struct {
		mutant, bench, sync string
		fail                bool
	}{
		{"osu-acc-op", "osu_acc_latency", "flush", true},
		{"osu-acc-op", "osu_fop_latency", "pscw", true},
		{"osu-acc-short", "osu_acc_latency", "fence", true},
		{"osu-cas-swap", "osu_cas_latency", "lock", true},
		{"osu-cas-swap", "osu_cas_latency", "fence", true}, // Open MPI only: it takes MPI_FLOAT
		{"osu-cas-swap", "osu_acc_latency", "lock_all", false},
		{"osu-acc-short", "osu_cas_latency", "flush_local", false},
	} {
		t.Setenv(e2e.MutantEnv, c.mutant)
		argv := e2e.LauncherArgs(2, "-x", e2e.MutantEnv)
		argv[len(argv)-1] = bin
		argv = append(argv, "osu", c.bench, "-m", "1:8", "-i", "3", "-x", "1", "-c", "-T", "all", "-s", c.sync)
		r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), argv...)
		e2e.NoPanic(t, r)
		rows := atomTables(r.Stdout)
		failed := strings.Count(r.Stdout, " failed\n")
		switch {
		case c.fail && (r.Code != 3 || strings.Contains(r.Stdout, " passed\n") || failed == 0 ||
			!strings.Contains(r.Stdout, "FAILED: 3 of the 3 combinations")):
			t.Errorf("%s, %s -s %s: want every row failed, a FAILED summary and exit code 3, have %s", c.mutant,
				c.bench, c.sync, r)
		case !c.fail && (r.Code != 0 || failed != 0 || len(rows) == 0):
			t.Errorf("%s, %s -s %s: want every row passed, have %s", c.mutant, c.bench, c.sync, r)
		}
	}
}
