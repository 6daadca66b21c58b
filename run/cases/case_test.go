package cases

import (
	"math"
	"testing"
	"time"
)

// DefaultLimit saturates: no case, however large or odd its figures,
// gets a limit that overflowed into the past or beyond MaxDefaultLimit.
func TestDefaultLimitBounds(t *testing.T) {
	for _, c := range []Case{
		{Reps: math.MaxInt},
		{Reps: 26 * 10_000_000, Bytes: 1 << 30, Procs: 1 << 20},
		{Expect: math.MaxInt64},
		{Expect: 9_000_000_000 * time.Second, Reps: 2},
		{Bytes: math.MaxInt64, Procs: math.MaxInt, Reps: math.MaxInt, Expect: math.MaxInt64},
	} {
		if got := DefaultLimit(c); got != MaxDefaultLimit {
			t.Errorf("DefaultLimit(%+v) = %v, want %v", c, got, MaxDefaultLimit)
		}
	}
	for _, c := range []Case{
		{Expect: math.MinInt64},
		{Bytes: math.MinInt64, Procs: 2, Reps: 3},
	} {
		if got := DefaultLimit(c); got != Base {
			t.Errorf("DefaultLimit(%+v) = %v, want %v", c, got, Base)
		}
	}
	// Just below the cap the formula holds.
	c := Case{Expect: 30 * 24 * time.Hour}
	if got, want := DefaultLimit(c), Base+90*24*time.Hour+PerRep; got != want {
		t.Errorf("DefaultLimit(%+v) = %v, want %v", c, got, want)
	}
}

func TestSeconds(t *testing.T) {
	if Seconds(1.5) != 1500*time.Millisecond || Seconds(-1) != 0 || Seconds(1e300) != math.MaxInt64 ||
		Seconds(math.NaN()) != math.MaxInt64 {
		t.Errorf("Seconds: %v %v %v %v", Seconds(1.5), Seconds(-1), Seconds(1e300), Seconds(math.NaN()))
	}
}

// The default limit follows its formula: 60 s + 3·Expect +
// reps·(1 ms + bytes·procs/10 MB/s).
func TestDefaultLimit(t *testing.T) {
	c := Case{Bytes: 4 << 20, Procs: 4, Reps: 10, Expect: 2 * time.Second}
	want := 60*time.Second + 6*time.Second + 10*(time.Millisecond+time.Duration(float64(4<<20)*4/1e7*1e9))
	if got := DefaultLimit(c); got != want {
		t.Errorf("DefaultLimit = %v, want %v", got, want)
	}
	if got := DefaultLimit(Case{}); got != 60*time.Second+time.Millisecond {
		t.Errorf("empty case: %v", got)
	}
}
