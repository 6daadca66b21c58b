package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestParseMixed: positional arguments between flags, in order; "--"
// passed over; an undefined flag named as typed; switches take no value.
func TestParseMixed(t *testing.T) {
	var help, check bool
	var out string
	n := 0
	fs := NewFlags("t")
	fs.Func("n", "", Count(&n, "things"))
	fs.Var(Switch{On: &check}, "check", "")
	Results(fs, &out)
	rest, err := ParseMixed(fs, []string{"a", "-n", "3", "b", "--check", "--", "c", "-o=r.jsonl", "-"}, &help)
	if err != nil || !slices.Equal(rest, []string{"a", "b", "c", "-"}) || n != 3 || !check || out != "r.jsonl" || help {
		t.Errorf("got %q %v: n %d check %v out %q help %v", rest, err, n, check, out, help)
	}
	for _, c := range []struct{ arg, frag string }{
		{"--bogus=1", "unknown flag --bogus=1"}, {"-check=0", "-check"}, {"-h=1", "-h"}, {"-n", "-n"},
		{"---n", "-n"},
	} {
		fs := NewFlags("t")
		fs.Func("n", "", Count(&n, "things"))
		fs.Var(Switch{On: &check}, "check", "")
		_, err := ParseMixed(fs, []string{"x", c.arg}, &help)
		if !IsUsage(err) || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%s: error %v, want a usage error naming %q", c.arg, err, c.frag)
		}
	}
}

// TestResultsAlias: -json and -o set the same file; the last one wins.
func TestResultsAlias(t *testing.T) {
	for _, args := range [][]string{{"-json", "r"}, {"-o", "r"}, {"--json=x", "-o", "r"}} {
		out, help := "", false
		fs := NewFlags("t")
		Results(fs, &out)
		if err := Parse(fs, args, &help, "t"); err != nil || out != "r" {
			t.Errorf("%q: %q, %v", args, out, err)
		}
	}
}

func TestValues(t *testing.T) {
	var p, s []int
	var f float64
	for _, c := range []struct {
		set  func(string) error
		v    string
		ok   bool
		want any
		got  func() any
	}{
		{Procs(&p), "1, 2,4", true, []int{1, 2, 4}, func() any { return p }},
		{Procs(&p), "1,1", false, nil, nil},
		{Procs(&p), "0", false, nil, nil},
		{Sizes(&s, 100), "0,100,8", true, []int{0, 100, 8}, func() any { return s }},
		{Sizes(&s, 100), "101", false, nil, nil},
		{Sizes(&s, 100), "-1", false, nil, nil},
		{Seconds(&f, 10, "", 0), "2.5", true, 2.5, func() any { return f }},
		{Seconds(&f, 10, "off", -1), "OFF", true, -1.0, func() any { return f }},
		{Seconds(&f, 10, "", 0), "0", false, nil, nil},
		{Seconds(&f, 10, "", 0), "NaN", false, nil, nil},
		{Seconds(&f, 10, "", 0), "11", false, nil, nil},
	} {
		err := c.set(c.v)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok %v", c.v, err, c.ok)
			continue
		}
		if c.ok {
			switch w := c.want.(type) {
			case []int:
				if !slices.Equal(c.got().([]int), w) {
					t.Errorf("%q: got %v, want %v", c.v, c.got(), w)
				}
			default:
				if c.got() != w {
					t.Errorf("%q: got %v, want %v", c.v, c.got(), w)
				}
			}
		}
	}
}
