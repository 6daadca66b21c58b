package imb

import (
	"math"
	"slices"
	"strings"
	"testing"

	"mpibench/suites/imb/kernel"
)

// TestNBCTable: IMB_bnames_nbc.h's ALLC order (each benchmark followed by
// its _pure variant), DEFC as the default list, the reductions and the
// Sync type as IMB_set_bmark sets them.
func TestNBCTable(t *testing.T) {
	if len(NBC) != 26 {
		t.Fatalf("%d benchmarks, want 26", len(NBC))
	}
	want := []string{"Ibcast", "Iallgather", "Iallgatherv", "Igather", "Igatherv", "Iscatter", "Iscatterv",
		"Ialltoall", "Ialltoallv", "Ireduce", "Ireduce_scatter", "Iallreduce", "Ibarrier"}
	if got := NBCSuite.DefaultNames(); !slices.Equal(got, want) {
		t.Errorf("defaults %v, want %v", got, want)
	}
	for i, b := range NBC {
		pure := i%2 == 1
		name := want[i/2]
		if pure {
			name += "_pure"
		}
		red := strings.HasPrefix(name, "Ireduce") || strings.HasPrefix(name, "Iallreduce")
		if b.Name != name || b.NBC.Pure != pure || b.Reduction != red || b.NoBytes != (want[i/2] == "Ibarrier") ||
			(len(b.Modes) == 1) == pure || b.Class != Collective {
			t.Errorf("row %d: %+v, want %s", i, b, name)
		}
	}
	if got := len(MPI1Suite.DefaultNames()); got != 13 {
		t.Errorf("mpi1 defaults: %d, want IMB 3.0's 13 benchmarks", got)
	}
	if DefaultTimeLimit[NBCSuite.Name] != 10 {
		t.Errorf("nbc -time default %g, want SECS_PER_SAMPLE 10", DefaultTimeLimit[NBCSuite.Name])
	}
}

// TestNBCOverlap: IMB_output.c's 100·max(0, min(1, (t_pure + t_CPU −
// t_ovrl) / max(t_pure, t_CPU))).
func TestNBCOverlap(t *testing.T) {
	for _, c := range []struct{ pure, cpu, ovrl, want float64 }{
		{10, 10, 20, 0},   // serial
		{10, 10, 10, 100}, // perfect
		{10, 10, 15, 50},
		{10, 5, 12, 30},  // divides by the maximum: 3/10
		{10, 10, 30, 0},  // slower than serial: clamped
		{10, 10, 5, 100}, // faster than perfect: clamped
		{0, 0, 1, 0},     // no value
	} {
		if got := NBCOverlap(c.pure, c.cpu, c.ovrl); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("NBCOverlap(%g, %g, %g) = %g, want %g", c.pure, c.cpu, c.ovrl, got, c.want)
		}
	}
}

// TestNBCBufferSizes: the buffers of IMB_init_buffers_iter for 8 bytes on
// 3 processes.
func TestNBCBufferSizes(t *testing.T) {
	for k, want := range map[kernel.NBCKind][2]int{
		kernel.Ibcast: {8, 8}, kernel.Iallgather: {8, 24}, kernel.Igatherv: {8, 24}, kernel.Iscatter: {24, 8},
		kernel.IreduceScatter: {24, 8}, kernel.Ialltoallv: {24, 24}, kernel.Iallreduce: {8, 8}, kernel.Ibarrier: {0, 0},
	} {
		if s, r := nbcBufferSizes(k, 8, 3); s != want[0] || r != want[1] {
			t.Errorf("kind %d: %d/%d, want %v", k, s, r, want)
		}
	}
}
