package faults

// The memory check of the suites of issue 14 (nbc, rma, mpi4, p2p): a run
// whose buffers exceed the node's share is refused on every rank before
// any allocation, as TestMemMPI1 checks for mpi1.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
	"mpibench/suites/imb"
	"mpibench/suites/imb/kernel"
)

// rankExitScript runs mpibench ($1) with the rest of the arguments and
// writes its exit code to $2/exit.RANK before exiting with it.
const rankExitScript = `bin=$1 dir=$2
shift 2
"$bin" "$@"
c=$?
echo $c > "$dir/exit.${OMPI_COMM_WORLD_RANK:-$PMI_RANK}"
exit $c
`

// launchRanks is launch that also returns the exit code of every rank.
// The launcher is told not to end the other ranks when one exits
// non-zero (Open MPI's orte_abort_on_non_zero_status, MPICH's
// -disable-auto-cleanup): without that, the last rank still finalising is
// killed with SIGTERM and its own exit code is lost.
func launchRanks(t *testing.T, np int, args ...string) (e2e.Result, []int) {
	t.Helper()
	e2e.NeedMPI(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "rank.sh")
	if err := os.WriteFile(script, []byte(rankExitScript), 0o755); err != nil {
		t.Fatal(err)
	}
	argv := e2e.LauncherArgs(np, "--mca", "orte_abort_on_non_zero_status", "0")
	if e2e.LauncherKind() == "mpich" {
		argv = append([]string{"-disable-auto-cleanup"}, argv...)
	}
	argv = append(argv[:len(argv)-1], "/bin/sh", script, e2e.Bin(), dir)
	r := e2e.Execute(t, e2e.MpirunTimeout, e2e.Launcher(), append(argv, args...)...)
	codes := make([]int, np)
	for rank := range codes {
		b, err := os.ReadFile(filepath.Join(dir, "exit."+strconv.Itoa(rank)))
		codes[rank], err = strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("no exit code of rank %d: %v\n%s", rank, err, r)
		}
	}
	return r, codes
}

// memStoppedEverywhere runs mpibench args on np processes twice: as a
// user does, checked by memStopped, and with every rank's exit code,
// each of which must be 2.
func memStoppedEverywhere(t *testing.T, np int, want string, args ...string) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "o.jsonl")
	r := e2e.Launch(t, np, append(args, "-json", js)...)
	memStopped(t, r, js, "mpibench "+args[0]+": "+want, "this node has 0.5 MiB per process available")
	r, codes := launchRanks(t, np, append(args, "-json", js)...)
	if strings.Count(r.Stderr, want) != 1 {
		t.Errorf("want one message, got %s", r)
	}
	for rank, c := range codes {
		if c != 2 {
			t.Errorf("rank %d exited %d, want 2", rank, c)
		}
	}
}

// TestMemNBC: Ibcast at 4 MiB on 2 processes needs a send and a receive
// buffer of 4 MiB (and the counts and displacements): 8.0 MiB per
// process; a node faked at 1 MB has 0.5 MiB per process.
func TestMemNBC(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	memStoppedEverywhere(t, 2, "Ibcast at 4194304 bytes on 2 processes needs 8.0 MiB per process",
		"nbc", "-msglen", e2e.Lengths(t, 4194304), "Ibcast")
}

// TestMemRMA: Exchange_put at 4 MiB puts two blocks: an origin buffer and
// a window of 8 MiB each, 16.0 MiB per process.
func TestMemRMA(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	memStoppedEverywhere(t, 2, "Exchange_put at 4194304 bytes on 2 processes needs 16.0 MiB per process",
		"rma", "-msglen", e2e.Lengths(t, 4194304), "Exchange_put")
}

// TestMemMPI4: Alltoall_persist at 4 MiB on 2 processes needs send and
// receive buffers of 2 × 4 MiB, 16.0 MiB per process. A build without
// persistent collectives allocates nothing: it says so and exits 0.
func TestMemMPI4(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	args := []string{"mpi4", "-msglen", e2e.Lengths(t, 4194304), "Alltoall_persist"}
	if kernel.PersistAPI() == "" {
		r, codes := launchRanks(t, 2, args...)
		if r.Code != 0 || codes[0] != 0 || codes[1] != 0 ||
			strings.TrimSpace(r.Stdout) != imb.NoPersistMessage(mpi.Flavor) {
			t.Errorf("want exit 0 on every rank (%v) and the line of a build without MPI_*_init, got %s", codes, r)
		}
		return
	}
	memStoppedEverywhere(t, 2, "Alltoall_persist at 4194304 bytes on 2 processes needs 16.0 MiB per process",
		args...)
}

// TestMemP2P: the default list at 4 MiB on 2 processes. The stencils,
// invalid on 2, allocate nothing (Stencil3D would take 6 × 2 × 4 MiB);
// PingPong, first of the others, a send and a receive buffer of 4 MiB:
// 8.0 MiB per process.
func TestMemP2P(t *testing.T) {
	e2e.SetFakeMem(t, "1")
	memStoppedEverywhere(t, 2, "PingPong at 4194304 bytes needs 8.0 MiB per process",
		"p2p", "-msglog", "22:22", "-iter", "8,1", "-pause", "0")
}
