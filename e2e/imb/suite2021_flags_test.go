package imb

// Integration tests of IMB 2021's flags in nbc, mpi4 and rma (imb/flags2021.go,
// suiteFlags) and of p2p's -list: each suite takes the flags of its Intel
// program with their meanings (the plan side by side with IMB-NBC, IMB-MPI4
// and IMB-RMA where they are built), records them in context.options,
// refuses bad values and the flags its program does not have with exit 2
// on every rank, and -root_shift moves the roots as IMB-NBC's does.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
	"mpibench/suites/imb/kernel"
)

// flagRun is one side-by-side run: suite and Intel's program on np
// processes (at most maxRanks()) with args, and the context.options every
// record must carry.
type flagRun struct {
	suite, peer string
	np          int
	args        []string
	opts        map[string]string
}

// rmaAll is every IMB-RMA benchmark mpibench has, in its table order:
// named, so that both programs run them in this order.
var rmaAll = append(slices.Clone(rmaDefault), rmaNamed...)

var flagRuns = []flagRun{
	{"nbc", "IMB-NBC", 2, []string{"-msglog", "2:6", "-iter", "50"},
		map[string]string{"msglog": "2:6", "iter": "50,40,100"}},
	{"nbc", "IMB-NBC", 3, []string{"-msglog", "3:5", "-iter", "40", "-iter_policy", "multiple_np", "-zero_size", "off",
		"-root_shift", "on", "-sync", "off", "-warm_up", "off", "-include", "Ibcast_pure,Igather_pure",
		"-exclude", "Ialltoall,Ialltoallv,Iallgatherv"},
		map[string]string{"msglog": "3:5", "iter": "40,40,100", "iter_policy": "multiple_np", "zero_size": "off",
			"root_shift": "on", "sync": "off", "warm_up": "off", "include": "Ibcast_pure,Igather_pure",
			"exclude": "Ialltoall,Ialltoallv,Iallgatherv"}},
	// auto: multiple_np's counts for the rooted ones, -iter's for the others.
	{"nbc", "IMB-NBC", 3, []string{"-msglog", "4", "-iter", "64", "-iter_policy", "auto", "Ibcast", "Iallreduce",
		"Iscatterv_pure", "Ireduce"},
		map[string]string{"msglog": "0:4", "iter": "64,40,100", "iter_policy": "auto"}},
	{"mpi4", "IMB-MPI4", 2, []string{"-msglog", "2:5", "-iter", "30", "-iter_policy", "off", "-zero_size", "off",
		"-sync", "off", "-root_shift", "on", "Bcast_persist", "Gather_persist_pure", "Allreduce_persist",
		"Barrier_persist"},
		map[string]string{"msglog": "2:5", "iter": "30,40,100", "iter_policy": "off", "zero_size": "off",
			"sync": "off", "root_shift": "on"}},
	// 1 MiB a sample: 16 repetitions at 64 KiB; 7 non-aggregate ones.
	{"rma", "IMB-RMA", 2, append([]string{"-msglog", "15:16", "-iter", "30,1,7"}, rmaAll...),
		map[string]string{"msglog": "15:16", "iter": "30,1,7"}},
	{"rma", "IMB-RMA", 3, append([]string{"-msglog", "3", "-iter", "20", "-iter_policy", "off", "-aggregate_mode",
		"aggregate", "-warm_up", "off", "-sync", "off", "-root_shift", "on"}, rmaAll...),
		map[string]string{"msglog": "0:3", "iter": "20,40,100", "iter_policy": "off", "aggregate_mode": "aggregate",
			"warm_up": "off", "sync": "off", "root_shift": "on"}},
	{"rma", "IMB-RMA", 2, append([]string{"-msglog", "2", "-iter", "10,1,5", "-aggregate_mode", "non_aggregate",
		"-iter_policy", "multiple_np"}, rmaAll...),
		map[string]string{"msglog": "0:2", "iter": "10,1,5", "aggregate_mode": "non_aggregate",
			"iter_policy": "multiple_np"}},
}

// TestSuiteFlagsPlan runs nbc, mpi4 and rma under IMB 2021's flags and
// Intel's IMB-NBC, IMB-MPI4 and IMB-RMA 2021.11 under the same ones, and
// compares the tables row for row (benchmark, process count, mode, column
// titles, length, repetition count); every record carries the flags in
// context.options. A program not built for this MPI fails the test
// (IMB-MPI4 under Open MPI skips, after the records' check).
func TestSuiteFlagsPlan(t *testing.T) {
	e2e.FirstMPIOnly(t, e2e.Machinery)
	e2e.NeedMPI(t)
	for i, c := range flagRuns {
		t.Run(fmt.Sprintf("%d_%s", i, c.suite), func(t *testing.T) {
			if c.suite == "mpi4" && kernel.PersistAPI() == "" {
				t.Skipf("SKIPPED LOUDLY: this %s build has no persistent collectives", mpi.Flavor)
			}
			np := min(c.np, e2e.MaxRanks())
			js := filepath.Join(t.TempDir(), "r.jsonl")
			ours := e2e.Launch(t, np, append([]string{c.suite, "-json", js}, c.args...)...)
			e2e.MustSucceed(t, ours)
			recs := e2e.ReadJSONL[rec2021](t, js)
			for _, r := range recs {
				if !mapsEqual(r.Context.Options, c.opts) || r.Context.IMB != "2021" {
					t.Fatalf("%s: context.options %v imb %q, want %v and 2021", r.Benchmark, r.Context.Options,
						r.Context.IMB, c.opts)
				}
			}
			peer := imbPeer(t, c.peer)
			argv := e2e.LauncherArgs(np)
			argv[len(argv)-1] = peer
			theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, c.args...)...)
			e2e.MustSucceed(t, theirs)
			sameRows(t, fmt.Sprintf("np %d %v", np, c.args), nbcRows(t, ours.Stdout), c.peer, nbcRows(t, theirs.Stdout))
		})
	}
}

// TestSuiteFlagErrors: a bad value, and a flag the suite's Intel program
// does not have, exit 2 on every rank with a message naming the flag
// (and the value or the suite), before any measurement (the table of them
// is suites/imb's TestFlagErrors, read in process).
func TestSuiteFlagErrors(t *testing.T) {
	e2e.NeedMPI(t)
	for _, c := range []struct {
		args []string
		frag string
	}{
		{[]string{"nbc", "-msglog", "5:3"}, `-msglog "5:3"`},
		{[]string{"rma", "-zero_size", "off"}, "-zero_size is a flag of mpibench mpi1, ext, nbc and mpi4, not of rma " +
			"(IMB-RMA 2021.11 has none)"},
	} {
		codes, r := rankExits(t, 2, c.args...)
		e2e.NoPanic(t, r)
		slices.Sort(codes)
		if !slices.Equal(codes, []int{2, 2}) || !strings.Contains(r.Stderr, c.frag) || strings.Contains(r.Stdout, "#bytes") {
			t.Errorf("%v: want exit 2 on both ranks and %q on stderr, nothing measured; ranks exited %v, got %s",
				c.args, c.frag, codes, r)
		}
	}
}

// rankExits runs mpibench on np ranks, each through a shell that reports
// its exit code on stderr, and returns the ranks' codes in the order
// reported.
func rankExits(t *testing.T, np int, args ...string) ([]int, e2e.Result) {
	t.Helper()
	// Open MPI would end the other ranks when the first exits non-zero.
	argv := e2e.LauncherArgs(np, "--mca", "orte_abort_on_non_zero_status", "0")
	argv = append(argv[:len(argv)-1], "sh", "-c", `"$0" "$@"; c=$?; echo "rank-exit $c" >&2; exit $c`, e2e.Bin())
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
	var codes []int
	for _, m := range regexp.MustCompile(`rank-exit (\d+)`).FindAllStringSubmatch(r.Stderr, -1) {
		n, _ := strconv.Atoi(m[1])
		codes = append(codes, n)
	}
	return codes, r
}

// TestSuiteList: -list in nbc, mpi4 and rma prints the benchmarks as
// IMB-NBC, IMB-MPI4 and IMB-RMA 2021.11's -list does, line for line after
// the program's name (nbc's also as written down here); p2p's as
// IMB-P2P's after its title lines. Nothing is measured.
func TestSuiteList(t *testing.T) {
	e2e.NeedMPI(t)
	nbcList := "List of benchmarks:\nIMB-NBC:\n"
	names := append(slices.Clone(nbcCalls), nbcPure(nbcCalls)...)
	slices.Sort(names)
	for _, n := range names {
		note := ""
		if strings.HasSuffix(n, "_pure") {
			note = " (non-default)"
		}
		nbcList += "    " + n + note + "\n"
	}
	for _, c := range []struct{ suite, peer string }{{"nbc", "IMB-NBC"}, {"mpi4", "IMB-MPI4"}, {"rma", "IMB-RMA"},
		{"p2p", "IMB-P2P"}} {
		if c.suite == "mpi4" && kernel.PersistAPI() == "" {
			continue // mpi4 says in one line that it measures nothing (TestMPI4Missing)
		}
		t.Run(c.suite, func(t *testing.T) {
			r := e2e.Launch(t, 2, c.suite, "-list")
			e2e.MustSucceed(t, r)
			_, ours, _ := strings.Cut(r.Stdout, "\n")
			if c.suite == "p2p" {
				ours = after(r.Stdout, "#------------------------------------------------------------\n", 2)
			}
			if strings.Contains(r.Stdout, "#bytes") || c.suite == "nbc" && ours != nbcList {
				t.Errorf("%s -list printed\n%s\nwant\n%s", c.suite, ours, nbcList)
			}
			argv := e2e.LauncherArgs(1)
			argv[len(argv)-1] = imbPeer(t, c.peer)
			theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, "-list")...)
			e2e.MustSucceed(t, theirs)
			_, want, _ := strings.Cut(theirs.Stdout, "\n")
			if c.suite == "p2p" {
				want = after(theirs.Stdout, "#------------------------------------------------------------\n", 2)
			}
			// IMB-MPI4 2021.11's binary leaves Allgather_persist out of
			// its default list (MPI4_benchmark.cpp: the DEFAULT flag
			// commented out), its DEFC (IMB_bnames_mpi4.h) has it, and
			// mpibench mpi4 runs it by default: its -list says so.
			want = strings.Replace(want, "    Allgather_persist (non-default)\n", "    Allgather_persist\n", 1)
			if ours != want {
				t.Errorf("%s -list printed\n%s\nwant\n%s", c.suite, ours, want)
			}
		})
	}
}

// after is s after the n-th sep ("" when s has fewer).
func after(s, sep string, n int) string {
	for ; n > 0; n-- {
		var ok bool
		if _, s, ok = strings.Cut(s, sep); !ok {
			return ""
		}
	}
	return s
}

// pmpiRoots is a PMPI library for LD_PRELOAD: it counts a rank's calls of
// IMB-NBC's rooted collectives by root, and of MPI_Put by target, and
// prints them at MPI_Finalize.
const pmpiRoots = `#include <mpi.h>
#include <stdio.h>
#define MAXR 16
static long n[5][MAXR];
static void count(int k, int root) { if (root >= 0 && root < MAXR) n[k][root]++; }
int MPI_Ibcast(void *b, int c, MPI_Datatype d, int root, MPI_Comm comm, MPI_Request *r)
{ count(0, root); return PMPI_Ibcast(b, c, d, root, comm, r); }
int MPI_Ireduce(const void *s, void *r, int c, MPI_Datatype d, MPI_Op op, int root, MPI_Comm comm, MPI_Request *q)
{ count(1, root); return PMPI_Ireduce(s, r, c, d, op, root, comm, q); }
int MPI_Igatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rc[], const int di[], MPI_Datatype rt,
		 int root, MPI_Comm comm, MPI_Request *q)
{ count(2, root); return PMPI_Igatherv(s, sc, st, r, rc, di, rt, root, comm, q); }
int MPI_Iscatterv(const void *s, const int sc[], const int di[], MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
		  int root, MPI_Comm comm, MPI_Request *q)
{ count(3, root); return PMPI_Iscatterv(s, sc, di, st, r, rc, rt, root, comm, q); }
int MPI_Put(const void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Win w)
{ count(4, target); return PMPI_Put(o, oc, ot, target, disp, tc, tt, w); }
int MPI_Finalize(void)
{
	const char *names[5] = {"Ibcast", "Ireduce", "Igatherv", "Iscatterv", "Put"};
	char line[2048];
	int rank, k, i, at;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	at = snprintf(line, sizeof line, "pmpi-roots rank %d:", rank);
	for (k = 0; k < 5; k++) {
		at += snprintf(line + at, sizeof line - at, " %s", names[k]);
		for (i = 0; i < MAXR; i++)
			if (n[k][i])
				at += snprintf(line + at, sizeof line - at, " %d:%ld", i, n[k][i]);
	}
	fprintf(stderr, "%s\n", line); /* one write: the ranks' lines do not mix */
	return PMPI_Finalize();
}
`

// TestNBCRootShift: under -root_shift on the rooted loops of nbc move the
// root one rank after every repetition, pure and overlapped loops and
// warm-ups alike, so that every rank is a root: the calls by root of
// every rank are IMB-NBC's under the same flags where it is built (the
// untimed run of -iter_policy off included); off
// (the default) keeps every root at 0. -check verifies the data from the
// moving roots. mpi4's persistent requests keep root 0 either way, as
// IMB-MPI4's do (IMB_bcast.c, IMB_bcast_persist).
func TestNBCRootShift(t *testing.T) {
	e2e.NeedMPI(t)
	so := e2e.BuildPMPI(t, pmpiRoots)
	np := min(3, e2e.MaxRanks())
	args := []string{"nbc", "-msglog", "2", "-iter", "9", "-iter_policy", "off", "Ibcast", "Ireduce", "Igatherv_pure",
		"Iscatterv"}
	on := rootCounts(t, so, np, "", append(args, "-root_shift", "on")...)
	off := rootCounts(t, so, np, "", args...)
	for rank := range np {
		if strings.Contains(off[rank], " 1:") {
			t.Errorf("rank %d without -root_shift: roots other than 0: %s", rank, off[rank])
		}
		if n := strings.Count(on[rank], fmt.Sprintf(" %d:", np-1)); n != 4 {
			t.Errorf("rank %d under -root_shift on: want rank %d root of all four calls, got %s", rank, np-1, on[rank])
		}
	}
	e2e.MustSucceed(t, e2e.Launch(t, np, append(args, "-root_shift", "on", "-check")...))
	if kernel.PersistAPI() != "" {
		p := rootCounts(t, so, np, "", "mpi4", "-msglog", "2", "-iter", "9", "-iter_policy", "off", "-root_shift",
			"on", "Bcast_persist")
		if strings.Contains(p[0], " 1:") {
			t.Errorf("mpi4 -root_shift on: the persistent request's root moved: %s", p[0])
		}
	}
	peer := imbPeer(t, "IMB-NBC")
	theirs := rootCounts(t, so, np, peer, append(args[1:], "-root_shift", "on")...)
	for rank := range np {
		if on[rank] != theirs[rank] {
			t.Errorf("rank %d: calls by root %s, IMB-NBC %s", rank, on[rank], theirs[rank])
		}
	}
}

// rootCounts runs prog (mpibench where "") on np ranks with pmpiRoots
// preloaded and returns every rank's calls by root.
func rootCounts(t *testing.T, so string, np int, prog string, args ...string) []string {
	t.Helper()
	r := e2e.PreloadedRun(t, so, np, prog, args...)
	counts := make([]string, np)
	seen := 0
	for _, m := range regexp.MustCompile(`pmpi-roots rank (\d+):(.*)`).FindAllStringSubmatch(r.Stderr, -1) {
		if rank, _ := strconv.Atoi(m[1]); rank < np {
			counts[rank] = m[2]
			seen++
		}
	}
	if seen != np {
		t.Fatalf("%s %v: want the roots of %d ranks on stderr, got %s", prog, args, np, r)
	}
	return counts
}

// TestSuiteWarmUp: nbc and rma warm up before every sample with a tenth of
// its repetitions, at least min(10, n) (IMB_warm_up.c), and not at all
// under -warm_up off: rank 0's calls, 20 repetitions at lengths 0 and 1,
// counted by pmpiRoots. Under -iter_policy off every sample also runs
// once untimed before its warm-up (IMB_init_buffers_iter), so twice 20
// per length besides the warm-up.
func TestSuiteWarmUp(t *testing.T) {
	e2e.NeedMPI(t)
	so := e2e.BuildPMPI(t, pmpiRoots)
	for _, c := range []struct {
		args    []string
		on, off string // rank 0's counts
	}{
		// Ibcast: the pure and the overlapped loop, each warmed up.
		{[]string{"nbc", "Ibcast"}, " Ibcast 0:200 Ireduce Igatherv Iscatterv Put", " Ibcast 0:160 Ireduce Igatherv Iscatterv Put"},
		{[]string{"rma", "Unidir_put", "-aggregate_mode", "aggregate"}, " Ibcast Ireduce Igatherv Iscatterv Put 1:100",
			" Ibcast Ireduce Igatherv Iscatterv Put 1:80"},
	} {
		args := append(c.args, "-msglog", "0", "-iter", "20", "-iter_policy", "off")
		on := rootCounts(t, so, 2, "", args...)
		off := rootCounts(t, so, 2, "", append(args, "-warm_up", "off")...)
		if on[0] != c.on || off[0] != c.off {
			t.Errorf("%v: rank 0's calls %q, -warm_up off %q; want %q and %q", c.args, on[0], off[0], c.on, c.off)
		}
	}
}

// TestP2PContext: p2p's records carry the IMB-P2P flags given in
// context.options, as typed, and context.imb 2021.
func TestP2PContext(t *testing.T) {
	recs := run2021(t, "p2p", "PingPong", "-msglog", "2:3", "-iter", "8,1", "-pause", "0", "-msgrd", "off")
	want := map[string]string{"msglog": "2:3", "iter": "8,1", "pause": "0", "msgrd": "off"}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2 (PingPong at 4 and 8 bytes)", len(recs))
	}
	for _, r := range recs {
		if !mapsEqual(r.Context.Options, want) || r.Context.IMB != "2021" {
			t.Errorf("%s: context.options %v imb %q, want %v and 2021", r.Benchmark, r.Context.Options, r.Context.IMB, want)
		}
	}
}

// TestSuiteSync: -sync off leaves out the MPI_Barrier after every
// repetition of nbc's and mpi4's loops, warm-ups included, as IMB-NBC's
// and IMB-MPI4's IMB_do_n_barriers(..., c_info->sync) (IMB_bcast.c): 20
// repetitions run untimed (-iter_policy off), 10 of warm-up and 20 timed,
// pure and overlapped loop, at lengths 0 and 1 are 200 barriers fewer on
// every rank. rma takes -sync and calls the same
// barriers either way, as IMB-RMA.
func TestSuiteSync(t *testing.T) {
	e2e.NeedMPI(t)
	so := e2e.BuildCounter(t)
	for _, c := range []struct {
		args  []string
		fewer int
	}{
		{[]string{"nbc", "Ibcast"}, 200},
		{[]string{"mpi4", "Bcast_persist"}, 200},
		{[]string{"rma", "Unidir_put", "All_put_all"}, 0},
	} {
		if c.args[0] == "mpi4" && kernel.PersistAPI() == "" {
			continue
		}
		args := append(c.args, "-msglog", "0", "-iter", "20", "-iter_policy", "off")
		on, _ := e2e.BarrierCounts(t, so, args...)
		off, _ := e2e.BarrierCounts(t, so, append(args, "-sync", "off")...)
		for rank := range on {
			if on[rank]-off[rank] != c.fewer {
				t.Errorf("%v: rank %d: %d MPI_Barrier calls, -sync off %d: want %d fewer", c.args, rank, on[rank],
					off[rank], c.fewer)
			}
		}
	}
}
