package beff

import (
	"errors"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	o, err := ParseArgs(nil)
	if err != nil || o.Mem != 0 || o.Patterns != Cartesian || o.Looplength != Fixed || o.Check ||
		o.Seed != DefaultSeed || o.Random != DefaultRandom {
		t.Fatalf("defaults: %+v, %v", o, err)
	}
	o, err = ParseArgs([]string{"-mem", "64", "-patterns", "rings", "-looplength=fixed", "-seed", "9", "-random", "4", "-json", "f"})
	if err != nil || o.Mem != 64 || o.Patterns != Ring || o.Looplength != "fixed" || o.Seed != 9 || o.Random != 4 || o.JSON != "f" {
		t.Fatalf("flags: %+v, %v", o, err)
	}
	// the looplength follows the patterns' definition unless given
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-patterns", "rings"}, Adaptive},
		{[]string{"-patterns", "cartesian"}, Fixed},
		{[]string{"-patterns", "cartesian", "-looplength", "adaptive"}, Adaptive},
		{[]string{"-check"}, Fixed},
	} {
		if o, err := ParseArgs(c.args); err != nil || o.Looplength != c.want || o.Check != (c.args[0] == "-check") {
			t.Errorf("ParseArgs(%q): looplength %q check %v (%v), want %q", c.args, o.Looplength, o.Check, err, c.want)
		}
	}
}

func TestParseArgsBad(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-mem", "0"}, "-mem"},
		{[]string{"-mem", "abc"}, "-mem"},
		{[]string{"-mem", "-3"}, "-mem"},
		{[]string{"-mem"}, "-mem"},
		{[]string{"-foo"}, "-foo"},
		{[]string{"-patterns", "foo"}, "-patterns"},
		{[]string{"-looplength", "x"}, "-looplength"},
		{[]string{"-random", "0"}, "-random"},
		{[]string{"-seed", "x"}, "-seed"},
		{[]string{"PingPong"}, "PingPong"},
	} {
		_, err := ParseArgs(c.args)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseArgs(%q) = %v, want a usage error naming %s", c.args, err, c.want)
		}
	}
}
