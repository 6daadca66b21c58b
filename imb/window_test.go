package imb

import (
	"strings"
	"testing"
)

// TestSyncFlags: -sync's spellings (barrier = on, none = off, window),
// -window_time, and the combinations refused, each with a message that
// names the flag.
func TestSyncFlags(t *testing.T) {
	for in, want := range map[string]string{"barrier": "on", "on": "on", "none": "off", "off": "off", "window": "window"} {
		o, err := ParseArgs([]string{"-sync", in})
		if err != nil || o.F.Sync != want {
			t.Errorf("-sync %s: %q, %v; want %q", in, o.F.Sync, err, want)
		}
	}
	o, err := ParseArgs([]string{"-sync", "window", "-window_time", "0.002"})
	if err != nil || o.F.WindowTime != 0.002 || o.F.options()["window_time"] != "0.002" {
		t.Errorf("-window_time 0.002: %+v, %v", o.F, err)
	}
	for _, bad := range [][]string{{"-sync", "windows"}, {"-window_time", "0"}, {"-window_time", "-1"}, {"-window_time", "x"}} {
		if _, err := ParseArgs(bad); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: error %v, want one naming %s", bad, err, bad[0])
		}
	}
	for _, c := range []struct {
		s    *Suite
		args []string
		want string // "" accepted
	}{
		{MPI1Suite, []string{"-sync", "window", "Allreduce"}, ""},
		{MPI1Suite, []string{"-sync", "window", "-imb", "2021"}, ""},
		{NBCSuite, []string{"-sync", "off"}, ""},
		{NBCSuite, []string{"-sync", "window"}, ""},
		{MPI1Suite, []string{"-sync", "barrier"}, "add -imb 2021"},
		{EXTSuite, []string{"-sync", "window"}, "-sync is a flag of mpibench mpi1, nbc, mpi4 and rma, not of ext"},
		{MPI4Suite, []string{"-sync", "window"}, "-sync window is a flag of mpibench mpi1 and nbc"},
		{RMASuite, []string{"-sync", "window"}, "-sync window is a flag of mpibench mpi1 and nbc"},
		{RMASuite, []string{"-window_time", "0.1"}, "-window_time is a flag of mpibench mpi1 and nbc"},
		{MPI4Suite, []string{"-sync", "off", "-root_shift", "on"}, ""},
		{RMASuite, []string{"-sync", "off", "-root_shift", "on"}, ""},
		{MPI1Suite, []string{"-window_time", "0.1"}, "add -sync window"},
		{MPI1Suite, []string{"-sync", "window", "-check"}, "-sync window with -check"},
		{MPI1Suite, []string{"-sync", "window", "-multi", "0"}, "-sync window with -multi"},
		{NBCSuite, []string{"-root_shift", "on"}, ""},
		{NBCSuite, []string{"-sync", "window", "-root_shift", "on"}, "-root_shift on with -sync window"},
	} {
		o, err := ParseArgs(c.args)
		if err == nil {
			_, err = Resolve(c.s, o, 4, c.args)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", c.s.Name, c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: error %v, want one with %q", c.s.Name, c.args, err, c.want)
		}
	}
}

// TestSyncMethod: the method a record names.
func TestSyncMethod(t *testing.T) {
	allreduce, _ := MPI1Suite.Lookup("Allreduce")
	pingpong, _ := MPI1Suite.Lookup("PingPong")
	local, _ := MPI1Suite.Lookup("Reduce_local")
	pure, _ := NBCSuite.Lookup("Ibcast_pure")
	ovl, _ := NBCSuite.Lookup("Ibcast")
	for _, c := range []struct {
		sync string
		b    *Benchmark
		want string
	}{
		{"", allreduce, ""}, {"on", allreduce, "barrier"}, {"off", allreduce, "none"}, {"window", allreduce, "window"},
		{"window", pingpong, ""}, {"window", local, "barrier"}, {"window", pure, "window"}, {"window", ovl, "barrier"},
		{"off", ovl, "none"},
	} {
		f := Flags2021{Sync: c.sync}
		if got := f.method(c.b); got != c.want {
			t.Errorf("-sync %q, %s: %q, want %q", c.sync, c.b.Name, got, c.want)
		}
	}
}
