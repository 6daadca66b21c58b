package p2p

import "testing"

// TestMemoryNeed checks the need against the buffers kernel.NewP2PCase
// allocates, counted by hand: a send and a receive buffer of the longest
// length per neighbour (one pair without neighbours), and a ring of 4
// bytes per process.
func TestMemoryNeed(t *testing.T) {
	const mb = 1 << 20
	all, err := ParseArgs(nil) // every benchmark, lengths 0 to 4 MiB
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		names []string
		size  int
		what  string
		want  int64
	}{
		{[]string{"PingPong"}, 2, "PingPong at 4194304 bytes", 2*4*mb + 4*2},
		// A 2 x 2 torus: 4 neighbours.
		{[]string{"Stencil2D"}, 4, "Stencil2D at 4194304 bytes", 2*4*4*mb + 4*4},
		// A 2 x 2 x 2 torus: 6 neighbours.
		{[]string{"Stencil3D", "PingPong"}, 8, "Stencil3D at 4194304 bytes", 2*6*4*mb + 4*8},
		// On 2 processes the stencils are invalid and allocate nothing;
		// the others one pair each.
		{all.Benchmarks, 2, "PingPong at 4194304 bytes", 2*4*mb + 4*2},
		// On 3 Stencil2D and Stencil3D are invalid too, and so are the
		// pair benchmarks: Unirandom leads.
		{all.Benchmarks, 3, "Unirandom at 4194304 bytes", 2*4*mb + 4*3},
		{[]string{"Stencil3D"}, 2, "", 0},
	} {
		cfg := &Config{Benchmarks: c.names, Lengths: all.Lengths}
		got := MemoryNeed(cfg, c.size)
		if got.Bytes != c.want || got.What != c.what {
			t.Errorf("%v on %d: %q %d, want %q %d", c.names, c.size, got.What, got.Bytes, c.what, c.want)
		}
	}
	cfg := &Config{Benchmarks: []string{"Stencil2D"}, Lengths: []int{0}}
	if got := MemoryNeed(cfg, 4); got.Bytes != 2*4*1+4*4 { // 1 byte at least per buffer
		t.Errorf("at length 0: %d", got.Bytes)
	}
}
