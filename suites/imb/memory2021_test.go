package imb

import "testing"

// TestMemoryNeed2021 checks the need of the IMB 2021 suites against the
// buffers their cases allocate, counted by hand at the default lengths
// (X = 2^22 = 4 MiB):
//
//   - nbc and mpi4 (nbcCase.setup): IMB_mem_manager.c's send and receive
//     buffers (q blocks where the call sends or receives one per rank;
//     Ireduce_scatter reduces q and keeps one), plus the counts and
//     displacements, 4 bytes per process each;
//   - rma (rma3Case.setup): an origin buffer and a window of the longest
//     length, two blocks for Exchange_put and Truly_passive_put, one
//     element of 4 bytes for Compare_and_swap; with -check (measure) two
//     more, a slot of x bytes per repetition, rank and block.
func TestMemoryNeed2021(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		suite, bench string
		size         int
		lens         []int
		check        bool
		what         string
		want         int64
	}{
		{"nbc", "Ibcast", 2, nil, false, "Ibcast at 4194304 bytes on 2 processes", 2*4*mb + 8*2},
		{"nbc", "Ialltoall", 4, nil, false, "Ialltoall at 4194304 bytes on 4 processes", 2*4*4*mb + 8*4},
		{"nbc", "Iallgather", 4, nil, false, "Iallgather at 4194304 bytes on 4 processes", (1+4)*4*mb + 8*4},
		{"nbc", "Iscatter_pure", 4, nil, false, "Iscatter_pure at 4194304 bytes on 4 processes", (4+1)*4*mb + 8*4},
		{"nbc", "Ireduce_scatter", 4, nil, false, "Ireduce_scatter at 4194304 bytes on 4 processes", (4+1)*4*mb + 8*4},
		{"nbc", "Ibarrier", 4, nil, false, "Ibarrier at 0 bytes on 4 processes", 8 * 4},
		{"nbc", "Ialltoallv", 2, []int{1024, 65536}, false, "Ialltoallv at 65536 bytes on 2 processes", 2*2*65536 + 8*2},
		{"mpi4", "Bcast_persist", 2, nil, false, "Bcast_persist at 4194304 bytes on 2 processes", 2*4*mb + 8*2},
		{"mpi4", "Alltoall_persist", 4, nil, false, "Alltoall_persist at 4194304 bytes on 4 processes", 2*4*4*mb + 8*4},
		{"mpi4", "Gather_persist_pure", 4, nil, false, "Gather_persist_pure at 4194304 bytes on 4 processes", (1+4)*4*mb + 8*4},
		{"mpi4", "Barrier_persist", 2, nil, false, "Barrier_persist at 0 bytes on 2 processes", 8 * 2},
		{"rma", "Unidir_put", 2, nil, false, "Unidir_put at 4194304 bytes on 2 processes", 2 * 4 * mb},
		{"rma", "All_get_all", 4, nil, false, "All_get_all at 4194304 bytes on 2 processes", 2 * 4 * mb},
		{"rma", "Exchange_put", 4, nil, false, "Exchange_put at 4194304 bytes on 2 processes", 2 * 2 * 4 * mb},
		{"rma", "Truly_passive_put", 2, nil, false, "Truly_passive_put at 4194304 bytes on 2 processes", 2 * 2 * 4 * mb},
		{"rma", "Compare_and_swap", 2, nil, false, "Compare_and_swap at 4 bytes on 2 processes", 2 * 4},
		// -check at 1 KiB: 1000 repetitions (MSGSPERSAMPLE) × 2 ranks ×
		// 1024 bytes × blocks in each of the two checked buffers.
		{"rma", "Unidir_put", 2, []int{1024}, true, "Unidir_put at 1024 bytes on 2 processes", 2*1024 + 2*1000*2*1024},
		{"rma", "Exchange_put", 2, []int{1024}, true, "Exchange_put at 1024 bytes on 2 processes",
			2*2*1024 + 2*1000*2*1024*2},
	} {
		cfg := &Config{Suite: c.suite, Benchmarks: []string{c.bench}, NPMin: SuiteByName(c.suite).NPMin,
			Multi: -1, Check: c.check, Lengths: c.lens}
		if got := MemoryNeed(cfg, c.size); got.Bytes != c.want || got.What != c.what {
			t.Errorf("%s %s on %d: need %d (%s), want %d (%s)", c.suite, c.bench, c.size, got.Bytes, got.What,
				c.want, c.what)
		}
	}
}
