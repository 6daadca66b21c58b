package imb

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"mpibench/suites/imb/kernel"
)

// TestMPI4Table: IMB_bnames_mpi4.h's ALLC order (each benchmark followed
// by its _persist_pure variant), DEFC as the default list, IMB-NBC's
// kinds, reductions and Sync rows, every loop persistent, the calls as
// MPI 4.0 names them in the table and with this build's prefix in records.
func TestMPI4Table(t *testing.T) {
	want := []string{"Bcast_persist", "Allgather_persist", "Allgatherv_persist", "Gather_persist",
		"Gatherv_persist", "Scatter_persist", "Scatterv_persist", "Alltoall_persist", "Alltoallv_persist",
		"Reduce_persist", "Reduce_scatter_persist", "Allreduce_persist", "Barrier_persist"}
	if got := MPI4Suite.DefaultNames(); !slices.Equal(got, want) {
		t.Errorf("defaults %v, want %v", got, want)
	}
	if len(MPI4) != 2*len(want) || SuiteByName("mpi4") != MPI4Suite || MPI4Suite.Part != "MPI-4" {
		t.Fatalf("%d benchmarks, want %d; suite %v", len(MPI4), 2*len(want), SuiteByName("mpi4"))
	}
	prefix := cmp.Or(kernel.PersistAPI(), "MPI") + "_"
	for i, b := range MPI4 {
		nbc := NBC[i]
		name := want[i/2] + map[bool]string{true: "_pure"}[i%2 == 1]
		if b.Name != name || *b.NBC != (NBCSpec{Kind: nbc.NBC.Kind, Pure: nbc.NBC.Pure, Persist: true}) ||
			b.Reduction != nbc.Reduction || b.NoBytes != nbc.NoBytes || len(b.Modes) != len(nbc.Modes) ||
			b.NotDefault != nbc.NotDefault {
			t.Errorf("row %d: %+v, want %s like %s", i, b, name, nbc.Name)
		}
		init := strings.TrimSuffix(want[i/2], "_persist") + "_init (once), MPI_Start, MPI_Wait"
		if !strings.HasPrefix(b.Calls, "MPI_"+init) {
			t.Errorf("%s: calls %q, want MPI_%q…", b.Name, b.Calls, init)
		}
		if c := persistCalls(&b); !strings.HasPrefix(c, prefix+init) || persistCalls(&NBC[i]) != "" {
			t.Errorf("%s: record calls %q, want %s%s…", b.Name, c, prefix, init)
		}
	}
	if DefaultTimeLimit[MPI4Suite.Name] != 10 {
		t.Errorf("mpi4 -time default %g, want SECS_PER_SAMPLE 10", DefaultTimeLimit[MPI4Suite.Name])
	}
}

// TestNoPersistMessage: one line that names the build's MPI and all 13
// missing calls, MPI 4.0's and Open MPI's.
func TestNoPersistMessage(t *testing.T) {
	m := NoPersistMessage("openmpi")
	if strings.Contains(m, "\n") || !strings.Contains(m, "(openmpi)") || !strings.Contains(m, "MPIX_") {
		t.Errorf("message %q", m)
	}
	for _, c := range []string{"Bcast", "Allgather", "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv",
		"Alltoall", "Alltoallv", "Reduce", "Reduce_scatter", "Allreduce", "Barrier"} {
		if !strings.Contains(m, "MPI_"+c+"_init,") && !strings.Contains(m, "MPI_"+c+"_init nor") {
			t.Errorf("message lacks MPI_%s_init: %q", c, m)
		}
	}
}
