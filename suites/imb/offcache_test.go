package imb

import (
	"strings"
	"testing"

	"mpibench/suites/imb/kernel"
)

// TestOneSidedSlots: the -off_cache layouts and windows of ext -imb 2021
// and rma against IMB 2021.11's formulas worked out by hand
// (helper_IMB_functions.h, IMB_init_buffers_iter: n_sample of the mode,
// offs = (ceil(len/line) + 1)·line, iter = min(n_sample,
// (2·SIZE·2^20 + offs − 1)/offs); acc_size = max(s_alloc, r_alloc)).
func TestOneSidedSlots(t *testing.T) {
	for _, c := range []struct {
		suite    *Suite
		name     string
		mb       float32
		line, x  int
		m        Mode
		want     kernel.Slots
		acc      int
		checkN   int // a checked run's repetitions on 2 processes (0: none)
		checkLen int
	}{
		// 1000 repetitions (40 MiB / 1 KiB is more), slots of 1024 + 64
		// bytes, 2 MiB / 1088 = 1928 of them: n_sample bounds it.
		{EXTSuite, "Unidir_Put", 1, 64, 1024, Aggregate, kernel.Slots{SIter: 1000, RIter: 1000, SOffs: 1088, ROffs: 1088}, 1088000, 0, 0},
		{EXTSuite, "Unidir_Put", 1, 64, 1024, NonAggregate, kernel.Slots{SIter: 100, RIter: 100, SOffs: 1088, ROffs: 1088}, 108800, 0, 0},
		// 4 MiB: 10 repetitions (40 MiB), one slot of 4 MiB + 64: (2 MiB
		// + 4 MiB + 63) / (4 MiB + 64) = 1.49.
		{EXTSuite, "Unidir_Get", 1, 64, 4 << 20, Aggregate, kernel.Slots{SIter: 1, RIter: 1, SOffs: 4194368, ROffs: 4194368}, 4194368, 0, 0},
		// 0 bytes: IMB's init_size of 4, a 128-byte slot.
		{EXTSuite, "Accumulate", 1, 64, 0, Aggregate, kernel.Slots{SIter: 1000, RIter: 1000, SOffs: 128, ROffs: 128}, 128000, 0, 0},
		// RECVBUF_SIZE_3I: 4 and 12 bytes on 1-byte lines, slots of 5 and
		// 13; the window 100·13.
		{RMASuite, "Compare_and_swap", 1, 1, 4, NonAggregate, kernel.Slots{SIter: 100, RIter: 100, SOffs: 5, ROffs: 13}, 1300, 100, 2600},
		// 2I: 2048 bytes, slots of 2112, (2 MiB + 2111) / 2112 = 993.97;
		// a checked run of 1000 needs two pages of 993·2112 per rank.
		{RMASuite, "Exchange_put", 1, 64, 1024, NoMode, kernel.Slots{SIter: 993, RIter: 993, SOffs: 2112, ROffs: 2112}, 2097216, 1000, 2 * 2 * 2097216},
		// Truly_passive_put's two loops: 2000 repetitions, two pages.
		{RMASuite, "Truly_passive_put", 1, 64, 64, NoMode, kernel.Slots{SIter: 1000, RIter: 1000, SOffs: 128, ROffs: 128}, 128000, 1000, 2 * 2 * 128000},
	} {
		b, _ := c.suite.Lookup(c.name)
		f := &Flags2021{IMB: imb2021, Types: Types2021{OffCache: "x", CacheMB: c.mb, CacheLine: c.line}}
		sl := f.modeSlots(b, &c.suite.Settings, c.x, 2, c.m)
		if sl != c.want || slotBytes(sl) != c.acc {
			t.Errorf("%s %d bytes mode %v: %+v, window %d; want %+v, %d", c.name, c.x, c.m, sl, slotBytes(sl), c.want, c.acc)
		}
		if c.checkN > 0 {
			if got := rma3CheckBytes(b, sl, c.checkN, 2, c.x); got != c.checkLen {
				t.Errorf("%s: checked run of %d: %d bytes, want %d", c.name, c.checkN, got, c.checkLen)
			}
		}
	}
}

// TestOneSidedWindow: ext -imb 2021's window covers every slot under
// -off_cache (IMB_init_transfer.c, acc_size) and stays max(X, 4) without;
// the case's buffers and the memory check take the largest of every
// length and mode.
func TestOneSidedWindow(t *testing.T) {
	b, _ := EXTSuite.Lookup("Unidir_Put")
	set := &EXTSuite.Settings
	f := &Flags2021{IMB: imb2021, Types: Types2021{OffCache: "1", CacheMB: 1, CacheLine: 64}}
	c := &rmaCase{caseEnv: &caseEnv{b: b, set: set, q: 2, f21: f, lens: []int{0, 1024}}, spec: b.RMA}
	if got := c.windowSize(1024, NonAggregate); got != 108800 {
		t.Errorf("window at 1024 bytes, non-aggregate: %d, want 100·1088", got)
	}
	if got := f.oneSidedAlloc(b, set, c.lens, 2); got != 1088000 {
		t.Errorf("largest window: %d, want 1000·1088", got)
	}
	// IMB 3.0's aggregate window at 1024 bytes is 1000·1024, less.
	if got := caseNeed(f, b, set, 2, c.lens, false); got != 2*1088000 {
		t.Errorf("memory %d: want two buffers of 1000·1088", got)
	}
	f.Types = Types2021{}
	if got := c.windowSize(1024, Aggregate); got != 1024 {
		t.Errorf("window without -off_cache: %d, want 1024", got)
	}
}

// TestOffCacheSuites: ext takes -off_cache with -imb 2021 only (IMB 3.0
// has none), rma always; the error names the flag and the fix.
func TestOffCacheSuites(t *testing.T) {
	ty := Types2021{OffCache: "1,64", CacheMB: 1, CacheLine: 64}
	if err := ty.check(EXTSuite, ""); err == nil || !strings.Contains(err.Error(), "-off_cache 1,64") ||
		!strings.Contains(err.Error(), "-imb 2021") {
		t.Errorf("ext without -imb 2021: %v", err)
	}
	for _, s := range []*Suite{EXTSuite, RMASuite} {
		if err := ty.check(s, imb2021); err != nil {
			t.Errorf("%s -imb 2021: %v", s.Name, err)
		}
	}
}
