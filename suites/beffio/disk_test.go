package beffio

import "testing"

// The disk bound: with no room, one call per pattern, whose files are
// computed here by hand; with room, the files stay within the limit and
// use most of it.
func TestDiskBound(t *testing.T) {
	p, err := NewPlan(Options{T: 900}, 2, 16) // M_PART = 2 MB
	if err != nil {
		t.Fatal(err)
	}
	// One call per pattern of Table 2 on 2 processes: types 0-2 the sum of
	// their L; types 3 and 4 a segment of type 2's sum rounded up to 6 MB.
	scatter := 11*MB + 256 + 8*KB + 8
	shared := 5*MB + 66*KB + 24
	want := int64(2*(scatter+2*shared) + 2*2*6*MB + 2*2*MB) // files + a 2·M_PART reserve
	p.Bound(1)
	if got := p.DiskNeed(); got != want {
		t.Errorf("need with one call per pattern: %d, want %d", got, want)
	}
	for _, limit := range []int64{want, 100 * MB, 1 << 30, 100 << 30, 1 << 62} {
		p.Bound(limit)
		got := p.DiskNeed()
		if got > min(limit, maxLimit) || float64(got) < 0.7*float64(min(limit, maxLimit)) {
			t.Errorf("limit %d: need %d, want at most the limit and at least 70%% of it", limit, got)
		}
	}
	// Several partitions share the limit.
	p, _ = NewPlan(Options{T: 900, Partitions: []int{1, 2}}, 2, 16)
	p.Bound(1 << 30)
	if got := p.DiskNeed(); got > 1<<30 || got < 6<<27 {
		t.Errorf("partitions 1,2: need %d for a limit of 1 GiB", got)
	}
}
