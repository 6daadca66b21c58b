package mpijob

import (
	"slices"
	"testing"

	"mpibench/run/progress"
)

// -progress is a common flag: on, off with =false, Auto when not given;
// other values are refused and the other arguments stay in order.
func TestProgressFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want progress.Mode
	}{
		{nil, progress.Auto},
		{[]string{"-progress"}, progress.On},
		{[]string{"--progress=true"}, progress.On},
		{[]string{"-progress=false"}, progress.Off},
		{[]string{"-progress=0", "-progress"}, progress.On},
	} {
		got, rest, err := splitCommon(append(c.args, "PingPong"))
		if err != nil || got.progress != c.want || !slices.Equal(rest, []string{"PingPong"}) {
			t.Errorf("%q: %v, rest %q, %v; want %v", c.args, got.progress, rest, err, c.want)
		}
	}
	if _, _, err := splitCommon([]string{"-progress=maybe"}); err == nil || err.Error() != "-progress=maybe: want true or false" {
		t.Errorf("-progress=maybe: %v", err)
	}
}
