package cli

import (
	"flag"
	"slices"
	"testing"
)

// TestDropUnknown: unknown flags go, in order, with neither their value
// nor a defined flag's separate value; switches take no value.
func TestDropUnknown(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("iter", "", "")
	var on bool
	fs.Var(Switch{On: &on}, "check", "")
	rest, dropped := DropUnknown(fs, []string{"PingPong", "-foo", "3", "-iter", "-5", "--bar=1", "-check", "x",
		"-h", "--iter=2", "-1", "--", "-baz"})
	if want := []string{"PingPong", "3", "-iter", "-5", "-check", "x", "-h", "--iter=2", "-1", "--", "-baz"}; !slices.Equal(rest, want) {
		t.Errorf("rest %q, want %q", rest, want)
	}
	if want := []string{"-foo", "--bar=1"}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
}
