package imb

// Integration tests of IMB-MPI1 2021's -off_cache, -data_type and
// -red_data_type (imb/types2021.go, imb/offcache.go, suites/imb/kernel/slots.h): the
// real loops pass -check with every type, with and without -off_cache and
// -imb 2021; the mutants fail it at every length with every type; the
// rows and header match Intel's IMB-MPI1 on the same plan; bad values exit
// 2 naming flag and value.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
)

// typeUnits are the item sizes of the flag values.
var typeUnits = map[string]int{"byte": 1, "char": 1, "int": 4, "float": 4, "double": 8}

// reductions2021 are IMB-MPI1 2021's reductions (-red_data_type).
var reductions2021 = []string{"Reduce", "Reduce_scatter", "Allreduce", "Reduce_local", "Reduce_scatter_block"}

// mpi1All is every mpi1 benchmark but Barrier.
var mpi1All = append([]string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Bcast", "Allgather", "Allgatherv",
	"Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce"}, names2021()...)

// checkTyped requires of recs no defects, the flags in context.options,
// and lengths that are whole items of the benchmark's type.
func checkTyped(t *testing.T, recs []rec2021, opts map[string]string) {
	t.Helper()
	if len(recs) == 0 {
		t.Fatal("no records")
	}
	for _, r := range recs {
		unit := typeUnits[opts["data_type"]]
		if slices.Contains(reductions2021, r.Benchmark) {
			unit = typeUnits[opts["red_data_type"]]
		}
		for k, v := range opts {
			if r.Context.Options[k] != v {
				t.Errorf("%s %d bytes: options %v lack %s=%s", r.Benchmark, r.Bytes, r.Context.Options, k, v)
			}
		}
		if r.Defects != 0 || r.Bytes%unit != 0 {
			t.Errorf("%s %d bytes: %g defects, or not whole items of %d bytes", r.Benchmark, r.Bytes, r.Defects, unit)
		}
	}
}

// TestIMBTypesCheck: every mpi1 loop passes -check with char, int and
// double items, IMB 2021's loops (-imb 2021) and IMB 3.0's, with
// -off_cache slots that a sample runs through several times (0.001 MB:
// 2 KiB of slots) and with IMB's default cache; the records carry the
// flags.
func TestIMBTypesCheck(t *testing.T) {
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	runs := [][]string{
		{"-data_type", "char", "-red_data_type", "char", "-off_cache", "0.001"},
		{"-data_type", "double", "-red_data_type", "int", "-off_cache", "-1"},
		{"-data_type", "int", "-red_data_type", "double"},
	}
	for _, flags := range runs {
		t.Run(strings.Join(flags, ""), func(t *testing.T) {
			checkTyped(t, runMutant2021(t, bin, "", 2, append(flags, mpi1All...)...), optionsOf(flags))
		})
	}
	// IMB 3.0's loops (rotating roots, Reduce_scatter's split), 3 ranks
	// where the launcher allows them.
	np := min(3, e2e.MaxRanks())
	flags := []string{"-data_type", "double", "-red_data_type", "char", "-off_cache", "0.001,32"}
	out := filepath.Join(t.TempDir(), "r.jsonl")
	e2e.MustSucceed(t, e2e.Launch(t, np, append([]string{"mpi1", "-check", "-iter_policy", "off", "-iter", "5", "-msglog", "4:10",
		"-npmin", fmt.Sprint(np), "-json", out, "Exchange", "Bcast", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce",
		"Gatherv"}, flags...)...))
	checkTyped(t, e2e.ReadJSONL[rec2021](t, out), optionsOf(flags))
}

// optionsOf maps the flags -f v of args to f: v.
func optionsOf(args []string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		m[strings.TrimPrefix(args[i], "-")] = args[i+1]
	}
	return m
}

// TestIMBTypesMutants: -check flags the short-reduce mutant with every
// -red_data_type, with and without -off_cache, the first-only and
// wrong-rank mutants with typed items in the offset loops, and loops that
// hand MPI slot 0 in every repetition (no-offset), at every length.
func TestIMBTypesMutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	e2e.NeedMPI(t)
	bin := e2e.MutantBinary(t)
	type mutantRun struct {
		mutant  string
		flags   []string
		benches []string
	}
	var runs []mutantRun
	for i, typ := range []string{"char", "int", "float", "double"} {
		flags := []string{"-red_data_type", typ}
		if i%2 == 0 {
			flags = append(flags, "-off_cache", "0.001")
		}
		runs = append(runs, mutantRun{"short-reduce", flags, reductions2021})
	}
	runs = append(runs,
		mutantRun{"first-only", []string{"-data_type", "int", "-red_data_type", "double", "-off_cache", "0.001"},
			[]string{"PingPong", "Exchange", "Alltoall", "Allreduce", "Scatterv", "Biband", "Reduce_local"}},
		mutantRun{"wrong-rank", []string{"-data_type", "double", "-off_cache", "0.001"},
			[]string{"PingPong", "PingPing", "Sendrecv", "Exchange", "Gather", "Scatter", "Uniband", "PingPongAnySource"}},
		// every loop passing slot 0 to MPI: enough cache (0.01 MB) for
		// several slots at every length
		mutantRun{"no-offset", []string{"-data_type", "int", "-red_data_type", "double", "-off_cache", "0.01"}, mpi1All})
	for _, m := range runs {
		t.Run(m.mutant+strings.Join(m.flags, ""), func(t *testing.T) {
			recs := runMutant2021(t, bin, m.mutant, 2, append(m.flags, m.benches...)...)
			seen := map[string]bool{}
			for _, r := range recs {
				seen[r.Benchmark] = true
				if r.Defects <= 0 {
					t.Errorf("mutant %s passed -check: %s %d bytes", m.mutant, r.Benchmark, r.Bytes)
				}
			}
			if len(seen) != len(m.benches) {
				t.Errorf("records of %v, want %v", seen, m.benches)
			}
		})
	}
}

// TestIMBTypesMatchesIMB runs Intel's IMB-MPI1 2021.11 and mpibench -imb
// 2021 with the same types and -off_cache and requires the same rows
// (benchmark, processes, lengths in whole items, repetitions) and header
// lines, the datatype lines included.
func TestIMBTypesMatchesIMB(t *testing.T) {
	ours := sideBySideIMB(t, []string{"-iter_policy", "off", "-iter", "5", "-msglog", "0:5", "-data_type", "double",
		"-red_data_type", "char", "-off_cache", "-1", "PingPong", "Exchange", "Allreduce", "Reduce_local", "Gatherv",
		"Uniband", "Barrier"})
	if !strings.Contains(ours, "# MPI_Datatype                   :   MPI_DOUBLE \n"+
		"# MPI_Datatype for reductions    :   MPI_CHAR \n") {
		t.Errorf("no datatype lines in\n%s", e2e.Tail(ours, 2000))
	}
}

// sideBySideIMB runs Intel's IMB-MPI1 2021.11 and mpibench mpi1 -imb 2021
// with plan on 2 processes, requires the same benchmarks in the same
// order, lengths and repetition counts, and the same header lines up to
// their values (date, machine, title, calling sequence), and returns
// mpibench's output. It skips the test where Intel's binary is not built.
func sideBySideIMB(t *testing.T, plan []string) string {
	t.Helper()
	e2e.NeedMPI(t)
	peer := e2e.NeedPeer(t, "IMB-MPI1", peerIMB(), "")
	argv := e2e.LauncherArgs(2)
	argv[len(argv)-1] = peer
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, plan...)...)
	if theirs.Code != 0 {
		t.Fatalf("IMB-MPI1: %s", theirs)
	}
	ours := e2e.Launch(t, 2, append([]string{"mpi1", "-imb", "2021"}, plan...)...)
	e2e.MustSucceed(t, ours)
	if a, b := e2e.HeaderPattern(ours.Stdout), e2e.HeaderPattern(theirs.Stdout); !slices.Equal(a, b) {
		t.Errorf("header lines differ\n mpibench: %q\n IMB-MPI1: %q", a, b)
	}
	if a, b := tableRows(t, ours.Stdout), tableRows(t, theirs.Stdout); !slices.Equal(a, b) {
		t.Errorf("rows (benchmark np bytes/reps) differ\n mpibench: %v\n IMB-MPI1: %v", a, b)
	}
	return ours.Stdout
}

// TestIMBTypesErrors: a bad value exits 2 on every rank naming flag and
// value (the table of them is suites/imb's TestFlagErrors, the values one
// by one imb/types2021_test.go).
func TestIMBTypesErrors(t *testing.T) {
	args, frag := []string{"mpi1", "-red_data_type", "byte"}, `-red_data_type "byte"`
	r := e2e.Launch(t, 2, args...)
	e2e.NoPanic(t, r)
	if r.Code != 2 || !strings.Contains(r.Stderr, frag) {
		t.Errorf("%v: want exit 2 and %q on stderr, got %s", args, frag, r)
	}
}
