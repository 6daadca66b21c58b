package osu

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/analysis/result"
	"mpibench/e2e"
)

// OSU 7.4's osu_alltoallw, osu_ialltoallw and the ten neighbourhood tests
// (c/mpi/collective/neighborhood): their shape next to OSU's binaries,
// -c on every one, the drop-in name, mutants -c must flag. At most 3
// ranks and a few launches: CI's budget.

// nbrPrograms are the twelve, as mpibench list must show them.
var nbrPrograms = []string{"osu_alltoallw", "osu_ialltoallw", "osu_neighbor_allgather", "osu_neighbor_allgatherv",
	"osu_neighbor_alltoall", "osu_neighbor_alltoallv", "osu_neighbor_alltoallw", "osu_ineighbor_allgather",
	"osu_ineighbor_allgatherv", "osu_ineighbor_alltoall", "osu_ineighbor_alltoallv", "osu_ineighbor_alltoallw"}

// nbrGraph writes a graph file for 2 ranks in which each rank has two
// distinct sources and destinations, itself and the other (self-loops):
// a block from the wrong neighbour shows at 2 ranks, MPICH's limit here.
func nbrGraph(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "graph.txt")
	if err := os.WriteFile(p, []byte("# src,dst\n0,0\n1,0\n0,1\n1,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// nbrTopology is -N for a test at np ranks: OSU's default cart:1:1 where
// 3 ranks may run (it refuses 2: the radius), else the graph.
func nbrTopology(t *testing.T, bench string) (np int, args []string) {
	if !strings.Contains(bench, "neighbor") {
		return 2, nil
	}
	if e2e.MaxRanks() >= 3 && bench == "osu_neighbor_allgather" {
		return 3, nil
	}
	return 2, []string{"-N", "graph:" + nbrGraph(t)}
}

// nbrTime is the varying figure of OSU's topology line.
var nbrTime = regexp.MustCompile(`graph:[0-9.]+ us\.`)

// TestOSUNbrShape runs six of the twelve next to OSU's own binaries
// (every shape: blocking, non-blocking, -f, -z, -c, -T, -l, cart and
// graph topologies): the same lines, sizes and columns, every row Pass;
// osu_neighbor_allgather runs under its drop-in name (a link).
func TestOSUNbrShape(t *testing.T) {
	e2e.NeedMPI(t)
	link := filepath.Join(t.TempDir(), "osu_neighbor_allgather")
	if err := os.Symlink(e2e.Bin(), link); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"osu_alltoallw", "-m", "1:64", "-f", "-c", "-z", "-T", "all", "--samples"},
		{"osu_ialltoallw", "-m", "1:64", "-c", "-t", "2", "-l"},
		{"osu_neighbor_allgather", "-m", "1:64", "-c", "-f"},
		{"osu_neighbor_alltoallw", "-m", "1:64", "-c", "-z", "-T", "mpi_int"},
		{"osu_ineighbor_allgatherv", "-m", "1:64", "-c", "-f"},
		{"osu_ineighbor_alltoallv", "-m", "1:64", "-c", "-z", "-T", "mpi_float"},
	} {
		np, topo := nbrTopology(t, c[0])
		args := append(append(slices.Clone(c), topo...), "-i", "4", "-x", "1", "-u", "1")
		var ours e2e.Result
		if c[0] == "osu_neighbor_allgather" {
			argv := e2e.LauncherArgs(np)
			argv[len(argv)-1] = link
			ours = e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args[1:]...)...)
			e2e.MustSucceed(t, ours)
		} else {
			var recs []result.Record
			ours, recs = osuCollRun(t, e2e.Bin(), np, args...)
			e2e.MustSucceed(t, ours)
			nbrRecords(t, c[0], recs, countRows(ours.Stdout))
		}
		if strings.Contains(ours.Stdout, "Fail") || countRows(ours.Stdout) == 0 {
			t.Errorf("%v: a failed or no row\n%s", args, ours.Stdout)
		}
		nbrPeerShape(t, np, args, ours.Stdout)
	}
}

// nbrRecords: one record per row, -c passed, the iterations asked,
// --samples' mean the row's average.
func nbrRecords(t *testing.T, bench string, recs []result.Record, rows int) {
	t.Helper()
	if len(recs) != rows {
		t.Errorf("%s: %d records, %d rows", bench, len(recs), rows)
	}
	for _, r := range recs {
		if r.Benchmark != bench || r.Reps != 4 || r.Defects != 0 || r.OSU == nil || r.OSU.Validation != "Pass" {
			t.Errorf("%s %d: benchmark %s reps %d defects %g osu %+v", bench, r.Bytes, r.Benchmark, r.Reps, r.Defects,
				r.OSU)
		}
		if r.NProcs == 2 {
			checkOSUCollSamples(t, r)
		}
	}
}

// nbrPeerShape runs OSU's binary with args on np ranks and compares the
// shapes (osuShape; the topology line's time left out).
func nbrPeerShape(t *testing.T, np int, args []string, ours string) {
	t.Helper()
	peer := e2e.PeerBinary(args[0])
	if peer == "" {
		t.Errorf("no %s for this MPI in ~/.cache/mpibench-peers: `bash /work/shared/peers/build.sh ~/.cache/mpibench-peers`", args[0])
		return
	}
	argv := e2e.LauncherArgs(np)
	argv[len(argv)-1] = peer
	args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--samples" })
	theirs := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args[1:]...)...)
	e2e.MustSucceed(t, theirs)
	shape := func(out string) []string { return osuShape(nbrTime.ReplaceAllString(out, "graph:T us.")) }
	if a, b := shape(theirs.Stdout), shape(ours); !slices.Equal(a, b) {
		t.Errorf("%v on %d: OSU's shape\n%s\nmpibench's\n%s", args, np, strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// TestOSUNbrCheck: the other six under -c, every row Pass.
func TestOSUNbrCheck(t *testing.T) {
	graph := nbrGraph(t)
	for _, c := range [][]string{
		{"osu_neighbor_allgatherv"}, {"osu_neighbor_alltoall", "-T", "mpi_int"}, {"osu_neighbor_alltoallv"},
		{"osu_ineighbor_allgather", "-T", "mpi_float"}, {"osu_ineighbor_alltoall"}, {"osu_ineighbor_alltoallw", "-t", "2"},
	} {
		args := append(slices.Clone(c), "-N", "graph:"+graph, "-m", "1:8", "-i", "4", "-x", "1", "-u", "1", "-c")
		r, recs := osuCollRun(t, e2e.Bin(), 2, args...)
		e2e.MustSucceed(t, r)
		nbrRecords(t, c[0], recs, countRows(r.Stdout))
		if len(recs) < 2 {
			t.Errorf("%v: %d records\n%s", args, len(recs), r.Stdout)
		}
	}
}

// TestOSUNbrMutants: -c must flag a graph made with its neighbours in
// reverse order (osu-nbr-reverse: each block from or to the wrong
// neighbour) and the w kinds' displacements taken for elements, not bytes
// (osu-w-displ, with MPI_INT): a Fail row, OSU's DATA VALIDATION ERROR
// line, exit code 3. The check knows each rank's neighbours and blocks
// from the topology's definition, not from the kernel.
func TestOSUNbrMutants(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.FirstMPIOnly(t, e2e.Mutation)
	bin := e2e.MutantBinary(t)
	graph := nbrGraph(t)
	for _, c := range []struct {
		mutant string
		args   []string
	}{
		{"osu-nbr-reverse", []string{"osu_ineighbor_alltoall", "-N", "graph:" + graph, "-m", "1:1"}},
		{"osu-w-displ", []string{"osu_alltoallw", "-T", "mpi_int", "-m", "4:4"}},
	} {
		t.Setenv(e2e.MutantEnv, c.mutant)
		osuCollMustFail(t, bin, 2, append(c.args, "-i", "2", "-x", "0", "-u", "0", "-c"))
	}
}

// TestOSUNbrList: mpibench list shows the twelve (scripts/links.sh makes
// their links from it).
func TestOSUNbrList(t *testing.T) {
	out, err := exec.Command(e2e.Bin(), "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nbrPrograms {
		if !regexp.MustCompile(`(?m)^osu\s+` + n + `\s`).Match(out) {
			t.Errorf("mpibench list has no %s", n)
		}
	}
}
