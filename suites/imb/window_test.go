package imb

import (
	"strings"
	"testing"

	"mpibench/suites/imb/kernel"
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
		{EXTSuite, []string{"-sync", "window"}, "-sync is a flag of mpibench mpi1, nbc, mpi4 and rma, not of ext"},
		{MPI4Suite, []string{"-sync", "window"}, "-sync window is a flag of mpibench mpi1 and nbc"},
		{RMASuite, []string{"-sync", "window"}, "-sync window is a flag of mpibench mpi1 and nbc"},
		{RMASuite, []string{"-window_time", "0.1"}, "-window_time is a flag of mpibench mpi1 and nbc"},
		{MPI4Suite, []string{"-sync", "off", "-root_shift", "on"}, ""},
		{RMASuite, []string{"-sync", "off", "-root_shift", "on"}, ""},
		{MPI1Suite, []string{"-sync", "barrier"}, ""},
		{MPI1Suite, []string{"-sync", "none", "Allreduce"}, ""},
		{MPI1Suite, []string{"-sync", "none", "-imb", "2021"}, ""},
		{MPI1Suite, []string{"-sync", "off"}, "-sync off: IMB 2021's spelling"},
		{MPI1Suite, []string{"-sync", "on"}, "-sync on: IMB 2021's spelling"},
		{IOSuite, []string{"-sync", "none"}, "-sync is a flag of mpibench mpi1, nbc, mpi4 and rma, not of io"},
		{MPI1Suite, []string{"-sync", "window", "-root_shift", "on"}, "-root_shift on"},
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

// TestSyncFor: what a run stores of -sync: IMB 2021's on and off under
// -imb 2021 and in nbc, barrier and none in mpi1's IMB 3.0 loops; the
// records' options and methods follow.
func TestSyncFor(t *testing.T) {
	for _, c := range []struct {
		s          *Suite
		args       []string
		want, meth string // the stored Sync, Allreduce's (nbc: Iallreduce_pure's) method
	}{
		{MPI1Suite, []string{"-sync", "barrier"}, "barrier", "barrier"},
		{MPI1Suite, []string{"-sync", "none"}, "none", "none"},
		{MPI1Suite, []string{"-sync", "window"}, "window", "window"},
		{MPI1Suite, []string{"-sync", "barrier", "-imb", "2021"}, "on", "barrier"},
		{MPI1Suite, []string{"-sync", "none", "-imb", "2021"}, "off", "none"},
		{MPI1Suite, []string{"-sync", "off", "-imb", "2021"}, "off", "none"},
		{NBCSuite, []string{"-sync", "none"}, "off", "none"},
		{MPI1Suite, nil, "", ""},
	} {
		o, err := ParseArgs(c.args)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := Resolve(c.s, o, 4, c.args)
		if err != nil {
			t.Fatalf("%s %v: %v", c.s.Name, c.args, err)
		}
		b, _ := c.s.Lookup(map[*Suite]string{MPI1Suite: "Allreduce", NBCSuite: "Iallreduce_pure"}[c.s])
		if cfg.F.Sync != c.want || cfg.F.method(b) != c.meth || cfg.F.options()["sync"] != c.want {
			t.Errorf("%s %v: sync %q, method %q, options %v; want %q, %q", c.s.Name, c.args, cfg.F.Sync,
				cfg.F.method(b), cfg.F.options(), c.want, c.meth)
		}
	}
}

// TestSyncNoneBarriers: -sync none takes IMB 3.0's N_BARR barriers away
// from the collectives' loops (PingPong keeps them), and leaves them under
// -imb 2021's -sync off, whose barriers before the loop are IMB 2021's.
func TestSyncNoneBarriers(t *testing.T) {
	allreduce, _ := MPI1Suite.Lookup("Allreduce")
	pingpong, _ := MPI1Suite.Lookup("PingPong")
	for _, c := range []struct {
		f    Flags2021
		b    *Benchmark
		want int
	}{
		{Flags2021{Sync: "none"}, allreduce, 0}, {Flags2021{Sync: "none"}, pingpong, 2},
		{Flags2021{Sync: "barrier"}, allreduce, 2}, {Flags2021{}, allreduce, 2},
		{Flags2021{Sync: "off", IMB: "2021"}, allreduce, 2},
	} {
		r := kernel.Run{Barriers: 2}
		c.f.setRun(&r, c.b)
		if r.Barriers != c.want || r.NoSync != (c.f.Sync == "none" || c.f.Sync == "off") {
			t.Errorf("-sync %q -imb %q, %s: %d barriers, NoSync %v; want %d", c.f.Sync, c.f.IMB, c.b.Name, r.Barriers, r.NoSync, c.want)
		}
	}
}
