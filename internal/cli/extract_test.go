package cli

import (
	"slices"
	"testing"
)

// Extract takes the flags of its set from anywhere on the line, in every
// spelling the flag package reads, and leaves the others in order with
// their values; "--" and all after it are left as they are.
func TestExtract(t *testing.T) {
	for _, c := range []struct {
		args      []string
		n         int
		on        bool
		rest      []string
		wantError bool
	}{
		{nil, 0, false, nil, false},
		{[]string{"-x", "1", "-n", "3", "pos", "--on"}, 3, true, []string{"-x", "1", "pos"}, false},
		{[]string{"--n=2", "-h", "-help", "-", "-=1", "---n", "4"}, 2, false, []string{"-h", "-help", "-", "-=1", "---n", "4"}, false},
		{[]string{"-on", "--", "-n", "5"}, 0, true, []string{"--", "-n", "5"}, false},
		{[]string{"-y", "--", "-n"}, 0, false, []string{"-y", "--", "-n"}, false},
		{[]string{"a", "-n"}, 0, false, []string{"a"}, true},
		{[]string{"-n", "zero"}, 0, false, nil, true},
		{[]string{"-on=false"}, 0, false, nil, true},
	} {
		var n int
		var on bool
		fs := NewFlags("t")
		fs.Func("n", "", Count(&n, "things"))
		fs.Var(Switch{On: &on}, "on", "")
		rest, err := Extract(fs, c.args)
		if (err != nil) != c.wantError || n != c.n || on != c.on || (err == nil && !slices.Equal(rest, c.rest)) {
			t.Errorf("%q: n %d on %v rest %q, %v; want n %d on %v rest %q (error %v)",
				c.args, n, on, rest, err, c.n, c.on, c.rest, c.wantError)
		}
	}
}
