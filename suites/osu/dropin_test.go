package osu

import "testing"

// TestDropInOperands: run as osu_latency, what follows the options is
// ignored as OSU 7.4 built without accelerators ignores it, but for
// device or managed buffer locations, which mpibench still refuses;
// mpibench osu keeps refusing it all.
func TestDropInOperands(t *testing.T) {
	defer func(was bool) { DropIn = was }(DropIn)
	for _, c := range []struct {
		args []string
		ok   bool // under DropIn
	}{
		{[]string{"osu_latency", "-m", "8:8", "extra"}, true},
		{[]string{"osu_latency", "-m", "8:8", "H", "H"}, true},
		{[]string{"osu_latency", "a", "-i", "10"}, true},
		{[]string{"osu_latency", "D", "D"}, false},
		{[]string{"osu_latency", "H", "MD"}, false},
	} {
		DropIn = true
		if _, err := Parse(c.args); (err == nil) != c.ok {
			t.Errorf("as %s: %q: %v", c.args[0], c.args, err)
		}
		DropIn = false
		if _, err := Parse(c.args); err == nil && c.args[len(c.args)-1] != "H" {
			t.Errorf("osu %q: accepted", c.args)
		}
	}
}
