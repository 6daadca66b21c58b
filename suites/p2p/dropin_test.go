package p2p

import (
	"slices"
	"testing"
)

// TestDropIn: under the name IMB-P2P unknown flags and names are ignored
// as IMB-P2P ignores them; nothing valid left is every benchmark.
func TestDropIn(t *testing.T) {
	defer func(was bool) { DropIn = was }(DropIn)
	DropIn = true
	c, err := ParseArgs([]string{"pingpong", "-foo", "3", "-iter", "10", "Nope,PingPing"})
	if err != nil || !slices.Equal(c.Benchmarks, []string{"PingPong", "PingPing"}) || c.IterMax != 10 {
		t.Errorf("%+v, %v; want PingPong, PingPing and -iter 10", c, err)
	}
	all, _ := ParseArgs(nil)
	if c, err := ParseArgs([]string{"-show_tail", "yes"}); err != nil || !slices.Equal(c.Benchmarks, all.Benchmarks) {
		t.Errorf("%+v, %v; want every benchmark", c, err)
	}
	DropIn = false
	if _, err := ParseArgs([]string{"-foo"}); err == nil {
		t.Error("p2p -foo: accepted")
	}
}
