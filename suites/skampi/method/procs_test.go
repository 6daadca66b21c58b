package method

import (
	"slices"
	"testing"
)

func TestProcsScale(t *testing.T) {
	cases := []struct {
		lo, hi int
		want   []int
	}{
		{2, 5, []int{2, 3, 4, 5}},
		{60, 64, []int{60, 61, 62, 63, 64}},
		{62, 65, []int{62, 63, 64, 65}},
		{63, 200, []int{63, 64, 128, 200}},
		{2, 256, append(seq(2, 64), 128, 256)},
		{2, 1000, append(seq(2, 64), 128, 256, 512, 1000)},
		{100, 1000, []int{128, 256, 512, 1000}},
	}
	for _, c := range cases {
		if got := ProcsScale(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("ProcsScale(%d, %d) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}
