package imb

import "testing"

// TestMemoryNeed checks the plan's need against Table 20 (section 7.1) at
// the standard settings, X = 2^MAXMSGLOG, plus the small counts and
// displacements arrays (8 bytes per process) of the MPI-1 cases.
func TestMemoryNeed(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		suite string
		bench string
		size  int
		check bool
		want  int64
	}{
		{"mpi1", "Alltoall", 4, false, 4*8*mb + 8*4},      // Q × 8 MB
		{"mpi1", "Allgather", 4, false, (4+1)*4*mb + 8*4}, // (Q+1) × 4 MB
		{"mpi1", "PingPong", 4, false, 8*mb + 8*2},        // 8 MB, on 2 processes
		{"mpi1", "Barrier", 4, false, 8 * 4},              // no message buffers
		{"ext", "Unidir_Put", 2, false, 80 * mb},          // 2 max(X, OVERALL_VOL)
		// Table 20 gives 32 MB = 2X for IMB-IO; a case here allocates one
		// buffer, send for writes, receive for reads.
		{"io", "S_Write_Indv", 1, false, 16 * mb},
		// -check keeps every repetition of a read besides the read
		// buffer: 16 MiB + 16 MiB × 1.
		{"io", "S_Read_Indv", 1, true, 32 * mb},
	} {
		cfg := &Config{Suite: c.suite, Benchmarks: []string{c.bench}, NPMin: SuiteByName(c.suite).NPMin,
			Multi: -1, Check: c.check}
		if got := MemoryNeed(cfg, c.size); got.Bytes != c.want {
			t.Errorf("%s %s on %d: need %d (%s), want %d", c.suite, c.bench, c.size, got.Bytes, got.What, c.want)
		}
	}
}

// TestMemoryNeedLengths: the need follows -msglen and names the
// benchmark that sets it.
func TestMemoryNeedLengths(t *testing.T) {
	cfg := &Config{Suite: "mpi1", Benchmarks: []string{"PingPong", "Alltoall"}, NPMin: 2, Multi: -1,
		Lengths: []int{1024, 4 << 20}}
	got := MemoryNeed(cfg, 2)
	if want := int64(2*2*(4<<20) + 16); got.Bytes != want {
		t.Errorf("need %d, want %d", got.Bytes, want)
	}
	if want := "Alltoall at 4194304 bytes on 2 processes"; got.What != want {
		t.Errorf("what %q, want %q", got.What, want)
	}
	cfg.Lengths = []int{1024}
	if got := MemoryNeed(cfg, 2); got.Bytes != 2*2*1024+16 {
		t.Errorf("need at 1 KiB %d", got.Bytes)
	}
}
