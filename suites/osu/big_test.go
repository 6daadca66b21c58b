package osu

import "testing"

// bigOK tells whether o may run sizes of 2 GiB and more (FuzzParse).
func bigOK(o *Options) bool {
	b, _ := Lookup(o.Bench)
	return o.MaxSize <= maxBigSize && checkBigSizes(b, &Options{Bench: o.Bench, MaxSize: o.MaxSize, Types: o.Types,
		DDT: o.DDT, MultipleBuffers: o.MultipleBuffers}) == nil
}

// TestBigNeed: a rank's memory at 2 GiB and more, by hand: buffers of
// the largest size (one or two), or the int sizes' 2·np·size if more.
func TestBigNeed(t *testing.T) {
	for _, c := range []struct {
		args []string
		np   int
		want int64
	}{
		{[]string{"osu_bcast", "-m", "1:4G"}, 2, 4 << 30},                         // one buffer; 1 GiB: 2·2·1 GiB
		{[]string{"osu_bcast", "-m", "1:4G"}, 4, 8 << 30},                         // 1 GiB: 2·4·1 GiB
		{[]string{"osu_allreduce", "-m", "2G:4G", "-T", "mpi_float"}, 4, 8 << 30}, // two buffers
		{[]string{"osu_reduce", "-m", "4G", "-T", "mpi_float"}, 2, 8 << 30},
		{[]string{"osu_bw", "-m", "1:4G"}, 8, 4 << 30},
		// TestBigCountOSUOver2GiB's runs: one buffer per rank.
		{[]string{"osu_bw", "-m", "2147483656:2147483656", "-W", "2"}, 2, 1<<31 + 8},
		{[]string{"osu_latency", "-m", "2147483656:2147483656"}, 2, 1<<31 + 8},
	} {
		o, err := Parse(c.args)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Lookup(o.Bench)
		if n, ok := bigNeed(b, o, c.np); !ok || n.Bytes != c.want {
			t.Errorf("%v on %d: %d bytes (%v), want %d", c.args, c.np, n.Bytes, ok, c.want)
		}
	}
}
