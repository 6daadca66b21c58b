package osu

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"mpibench/e2e"
	"mpibench/mpi"
	"mpibench/suites/osu/kernel"
)

// OSU 7.4's fourteen persistent collectives (c/mpi/collective/persistent):
// MPI-4 calls, so they run under MPICH and are refused under Open MPI 4.1
// (MPI 3.1). Under MPICH: all fourteen next to OSU's binaries, and a
// mutant -c must flag; under Open MPI: the refusal, clean on every rank.
// One launch of each program and its peer, 2 ranks, tiny sizes: CI's
// budget.

// pcollPrograms are the fourteen, as mpibench list must show them.
var pcollPrograms = []string{"osu_allgather_persistent", "osu_allgatherv_persistent", "osu_allreduce_persistent",
	"osu_alltoall_persistent", "osu_alltoallv_persistent", "osu_alltoallw_persistent", "osu_barrier_persistent",
	"osu_bcast_persistent", "osu_gather_persistent", "osu_gatherv_persistent", "osu_reduce_persistent",
	"osu_reduce_scatter_persistent", "osu_scatter_persistent", "osu_scatterv_persistent"}

// pcollShapes are the fourteen with flags that reach every column and
// option they have (-f, -z, -T, -l, -D, -c). No -c where MPICH 4.0.2's
// persistent calls deliver wrong data (Allgather, Gather, Scatter: OSU's
// -c fails them as mpibench's does) or where OSU's own -c always fails
// (osu_allreduce_persistent.c starts a request made on recvbuf_warmup and
// validates recvbuf).
var pcollShapes = [][]string{
	{"osu_allgather_persistent", "-f", "-z", "-l"},
	{"osu_allgatherv_persistent", "-c", "-T", "mpi_int", "-l"},
	{"osu_allreduce_persistent", "-f", "-T", "all"},
	{"osu_alltoall_persistent", "-c", "-l"}, // its "# Setting number of validation warmup ..." line
	{"osu_alltoallv_persistent", "-c", "-z"},
	{"osu_alltoallw_persistent", "-c", "-T", "mpi_float"},
	{"osu_barrier_persistent", "-f", "-z"},
	{"osu_bcast_persistent", "-c", "-f"},
	{"osu_gather_persistent", "-f", "-T", "mpi_int"},
	{"osu_gatherv_persistent", "-c", "-l"},                   // -l read by getopt, not by the test
	{"osu_reduce_persistent", "-c", "-T", "mpi_float"},       // OSU's -c with -l fails: its data go to recvbuf
	{"osu_reduce_scatter_persistent", "-c", "-T", "mpi_int"}, // 4 bytes: counts 1, 1 ("i < size")
	{"osu_scatter_persistent", "-z", "-D", "cont"},
	{"osu_scatterv_persistent", "-c", "-l"},
}

// needMPI4 skips t where the library has no MPI-4 persistent collectives
// (TestOSUPcollRefused covers that build).
func needMPI4(t *testing.T) {
	t.Helper()
	e2e.NeedMPI(t)
	if !kernel.MPI4() {
		t.Skipf("%s: no MPI-4 persistent collectives (TestOSUPcollRefused); these run under MPICH", mpi.Flavor)
	}
}

// TestOSUPcollShape runs the fourteen next to OSU 7.4's own binaries: the
// same comment lines, sizes and columns, one record per row, every -c row
// Pass.
func TestOSUPcollShape(t *testing.T) {
	needMPI4(t)
	for _, c := range pcollShapes {
		args := append(slices.Clone(c), "-m", "1:8", "-i", "2", "-x", "1")
		r, recs := osuCollRun(t, e2e.Bin(), 2, args...)
		e2e.MustSucceed(t, r)
		if len(recs) == 0 || len(recs) != countRows(r.Stdout) {
			t.Errorf("%v: %d records, %d rows\n%s", args, len(recs), countRows(r.Stdout), r.Stdout)
		}
		for _, rec := range recs {
			checkOSUCollRecord(t, rec, 2)
		}
		osuCollPeerShape(t, args, r.Stdout)
	}
}

// TestOSUPcollMutant: the osu-pcoll-buf mutant makes each request on a
// scratch receive buffer (what osu_allreduce_persistent.c does with
// recvbuf_warmup): -c, which checks the buffer the definition names,
// must flag it with a Fail row and exit code 3 (reduced sums, a
// broadcast, scattered blocks in place).
func TestOSUPcollMutant(t *testing.T) {
	needMPI4(t)
	bin := e2e.MutantBinary(t)
	t.Setenv(e2e.MutantEnv, "osu-pcoll-buf")
	for _, c := range [][]string{{"osu_allreduce_persistent"}, {"osu_bcast_persistent"},
		{"osu_scatterv_persistent", "-l"}} {
		osuCollMustFail(t, bin, 2, append(c, "-m", "4:4", "-i", "2", "-x", "0", "-u", "0", "-c"))
	}
}

// TestOSUPcollRefused: under a library without MPI-4 persistent
// collectives (Open MPI 4.1) a persistent test says so on stderr, naming
// the missing call, prints no table and exits non-zero on every rank.
func TestOSUPcollRefused(t *testing.T) {
	e2e.FailFast(t) // every rank exits non-zero on its own
	e2e.NeedMPI(t)
	if kernel.MPI4() {
		t.Skipf("%s has MPI-4 persistent collectives (TestOSUPcollShape)", mpi.Flavor)
	}
	r, recs := osuCollRun(t, e2e.Bin(), 2, "osu_allreduce_persistent", "-m", "1:4")
	if r.Code == 0 || len(recs) != 0 || strings.Contains(r.Stdout, "# OSU") ||
		strings.Count(r.Stderr, "MPI_Allreduce_init") != 1 || !strings.Contains(r.Stderr, "MPI-4") {
		t.Errorf("want one refusal naming MPI_Allreduce_init and MPI-4, no table, exit non-zero; got %s", r)
	}
}

// TestOSUPcollList: mpibench list shows the fourteen in every build
// (scripts/links.sh makes their links from it).
func TestOSUPcollList(t *testing.T) {
	out, err := exec.Command(e2e.Bin(), "list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range pcollPrograms {
		if !regexp.MustCompile(`(?m)^osu\s+` + n + `\s`).Match(out) {
			t.Errorf("mpibench list has no %s", n)
		}
	}
}
