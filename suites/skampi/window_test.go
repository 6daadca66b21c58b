package skampi

import (
	"strings"
	"testing"
)

// TestSyncFlag: -sync barrier|on|none|off|window and -window_time;
// -window_time needs window.
func TestSyncFlag(t *testing.T) {
	for in, want := range map[string]string{"barrier": "barrier", "on": "barrier", "none": "none", "off": "none", "window": "window"} {
		f, err := parseFlags([]string{"-sync", in})
		if err != nil || f.sync.Method != want {
			t.Errorf("-sync %s: %+v, %v; want %s", in, f.sync, err, want)
		}
	}
	f, err := parseFlags([]string{"-window_time", "0.01", "-sync", "window"})
	if err != nil || f.sync.Window != 0.01 {
		t.Errorf("-window_time 0.01: %+v, %v", f.sync, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-sync", "x"}, "-sync"},
		{[]string{"-window_time", "0"}, "window_time"},
		{[]string{"-window_time", "0.1"}, "add -sync window"},
	} {
		if _, err := parseFlags(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one with %q", c.args, err, c.want)
		}
	}
	m := &Measurement{Pattern: Collective, Op: "Allreduce"}
	split := &Measurement{Pattern: Collective, Op: "Comm_split"}
	pp := &Measurement{Pattern: PingPong, Op: "Send_Recv"}
	w := Sync{Method: "window"}
	if !w.windowed(m) || w.windowed(split) || w.windowed(pp) || (Sync{}).windowed(m) {
		t.Error("windowed: want the collective pattern but Comm_split, under window only")
	}
}
