package osu

import (
	"math"
	"strings"
	"testing"

	"mpibench/suites/osu/kernel"
)

// TestParseRMA: the one-sided tests' defaults (MPI >= 3: allocate and
// flush, osu_put_bibw pscw; sizes from 1; latency or bandwidth counts)
// and -w and -s as OSU's process_one_sided_options reads them.
func TestParseRMA(t *testing.T) {
	for _, c := range []struct {
		args        []string
		win, sync   string
		iters, skip int
	}{
		{[]string{"osu_put_latency"}, "allocate", "flush", 10000, 100},
		{[]string{"get_bw"}, "allocate", "flush", 100, 10},
		{[]string{"osu_put_bibw"}, "allocate", "pscw", 100, 10},
		{[]string{"osu_get_latency", "-w", "DYNAMIC", "-s", "Flush_Local"}, "dynamic", "flush_local", 10000, 100},
		{[]string{"osu_put_bw", "--win-options=create", "--sync-option", "lock_all"}, "create", "lock_all", 100, 10},
		{[]string{"osu_put_bibw", "-s", "fence", "-s", "pscw"}, "allocate", "pscw", 100, 10},
	} {
		o, err := Parse(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if o.Win != c.win || o.Sync != c.sync || o.MinSize != 1 || o.MaxSize != 1<<22 || o.Iterations != c.iters ||
			o.Skip != c.skip {
			t.Errorf("%v: %+v", c.args, o)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"osu_put_bibw", "-s", "lock"}, "osu_put_bibw takes pscw or fence"},
		{[]string{"osu_put_latency", "-s", "flushes"}, "want pscw, fence, lock, flush, flush_local or lock_all"},
		{[]string{"osu_get_bw", "-w", "shared"}, "want create, allocate or dynamic"},
		{[]string{"osu_put_latency", "-W", "4"}, "invalid option -W"},
		{[]string{"osu_put_bw", "-c"}, "invalid option -c"},
		{[]string{"osu_get_latency", "-T", "mpi_int"}, "invalid option -T"},
		{[]string{"osu_latency", "-s", "flush"}, "invalid option -s"},
	} {
		if _, err := Parse(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// TestRMAFigures: OSU's formulas, computed here by hand for a run of 4
// iterations of 8 bytes, 2 µs each (8 µs in all).
func TestRMAFigures(t *testing.T) {
	res := kernel.RMAResult{Time: 8e-6, Samples: []float64{2e-6, 2e-6, 2e-6, 2e-6}}
	for _, c := range []struct {
		shape, sync, window int
		avg, sample         float64
	}{
		{kernel.ShapeLat, kernel.SyncFlush, 1, 2, 2},   // 8 µs / 4
		{kernel.ShapeLat, kernel.SyncLock, 1, 2, 2},    // passive: not halved
		{kernel.ShapeLat, kernel.SyncFence, 1, 1, 1},   // an operation each way: halved
		{kernel.ShapeLat, kernel.SyncPSCW, 1, 1, 1},    // the same
		{kernel.ShapeBW, kernel.SyncFlush, 3, 12, 12},  // 8 B · 3 · 4 / 8 µs = 12 MB/s; 24 B / 2 µs = 12
		{kernel.ShapeBW, kernel.SyncFence, 3, 12, 12},  // bandwidth is never halved
		{kernel.ShapeBiBW, kernel.SyncPSCW, 3, 24, 24}, // osu_put_bibw: doubled
	} {
		s := &kernel.RMASpec{Shape: c.shape, Sync: c.sync, Size: 8, Window: c.window, Iters: 4}
		got := rmaFigures(s, res)
		if math.Abs(got.Avg-c.avg) > 1e-9 || len(got.Samples) != 4 || math.Abs(got.Samples[0]-c.sample) > 1e-9 ||
			math.Abs(got.Times[0]-2) > 1e-9 {
			t.Errorf("shape %d sync %d: %+v, want %v and samples %v", c.shape, c.sync, got, c.avg, c.sample)
		}
	}
}
