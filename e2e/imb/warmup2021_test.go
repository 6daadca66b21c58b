package imb

// IMB 2021's warm-up in mpi1 -imb 2021 (imb/warmup2021.go), counted with a
// PMPI library: the calls a run makes with -warm_up on, less those it
// makes with -warm_up off, are the warm-up's.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mpibench/e2e"
)

// pmpiCalls counts a rank's MPI_Send, MPI_Alltoall, MPI_Scatter (calls
// of PingPong, Alltoall and Scatter that mpibench's driver does not make)
// and MPI_Barrier calls and prints them at MPI_Finalize.
const pmpiCalls = `#include <mpi.h>
#include <stdio.h>
static long nsend, na2a, nscat, nbar;
int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm)
{
	nsend++;
	return PMPI_Send(b, c, t, d, tag, comm);
}
int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, MPI_Comm comm)
{
	na2a++;
	return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
	nscat++;
	return PMPI_Scatter(sb, sc, st, rb, rc, rt, root, comm);
}
int MPI_Barrier(MPI_Comm c) { nbar++; return PMPI_Barrier(c); }
int MPI_Finalize(void)
{
	int r;
	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	fprintf(stderr, "pmpi-calls rank %d: MPI_Send %ld MPI_Alltoall %ld MPI_Scatter %ld MPI_Barrier %ld\n",
		r, nsend, na2a, nscat, nbar);
	return PMPI_Finalize();
}
`

// warmPlan runs PingPong, Alltoall and Scatter at 4 lengths (0, 4, 8,
// 16) with 100 repetitions and no -time probes.
var warmPlan = []string{"-iter_policy", "off", "-iter", "100", "-msglog", "2:4", "PingPong", "Alltoall", "Scatter"}

// TestIMB2021WarmUp: mpi1 -imb 2021 warms up as IMB-MPI1 2021.11 does
// (IMB_warm_up.c): at every length, a tenth of the sample's repetitions
// (10 of 100) with the kernel's barriers, and nothing else; -warm_up off
// leaves the timed loops alone (IMB 3.0's 2 runs of 100 at the largest
// length would show as 200 calls). Against Intel's IMB-MPI1 where it is
// built: the same warm-up calls of every kind, barriers included.
func TestIMB2021WarmUp(t *testing.T) {
	e2e.NeedMPI(t)
	so := e2e.BuildPMPI(t, pmpiCalls)
	on, off := warmUpCalls(t, so, "", append([]string{"mpi1", "-imb", "2021"}, warmPlan...))
	for rank := range on {
		for _, call := range []string{"MPI_Send", "MPI_Alltoall", "MPI_Scatter"} {
			// off: 4 lengths of 100 timed and, under -iter_policy off, as
			// many untimed (IMB_init_buffers_iter's full run of every sample).
			if off[rank][call] != 2*4*100 || on[rank][call]-off[rank][call] != 4*10 {
				t.Errorf("rank %d: %d %s calls with -warm_up off, %d more with it on; want 800 and 40",
					rank, off[rank][call], call, on[rank][call]-off[rank][call])
			}
		}
	}
	t.Run("IMB-MPI1", func(t *testing.T) {
		peer := e2e.NeedPeer(t, "IMB-MPI1", peerIMB(), "")
		ion, ioff := warmUpCalls(t, so, peer, warmPlan)
		for rank := range on {
			for call := range on[rank] {
				if a, b := on[rank][call]-off[rank][call], ion[rank][call]-ioff[rank][call]; a != b {
					t.Errorf("rank %d: the warm-up makes %d %s calls, IMB-MPI1's %d", rank, a, call, b)
				}
				if off[rank][call] != ioff[rank][call] {
					t.Errorf("rank %d: %d %s calls with -warm_up off, IMB-MPI1 %d", rank, off[rank][call], call, ioff[rank][call])
				}
			}
		}
	})
}

// warmUpCalls runs prog (mpibench where "") on 2 ranks with the counter
// so preloaded, with -warm_up on and off, and returns every rank's calls.
func warmUpCalls(t *testing.T, so, prog string, args []string) (on, off []map[string]int) {
	t.Helper()
	return mpiCalls(t, so, prog, append(args, "-warm_up", "on")), mpiCalls(t, so, prog, append(args, "-warm_up", "off"))
}

// mpiCalls runs prog (mpibench where "") on 2 ranks with the counter so
// preloaded and returns every rank's counts by call.
func mpiCalls(t *testing.T, so, prog string, args []string) []map[string]int {
	t.Helper()
	r := e2e.PreloadedRun(t, so, 2, prog, args...)
	calls := make([]map[string]int, 2)
	re := regexp.MustCompile(`pmpi-calls rank (\d+):(( \w+ \d+)+)`)
	for _, m := range re.FindAllStringSubmatch(r.Stderr, -1) {
		rank, _ := strconv.Atoi(m[1])
		if rank >= len(calls) {
			continue
		}
		calls[rank] = map[string]int{}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			calls[rank][f[i]], _ = strconv.Atoi(f[i+1])
		}
	}
	for rank, c := range calls {
		if c == nil {
			t.Fatalf("%s %v: no counts of rank %d on stderr: %s", prog, args, rank, fmt.Sprint(r))
		}
	}
	return calls
}
