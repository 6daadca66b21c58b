package imb

import (
	"slices"
	"strings"
	"testing"
)

// TestFlags2021Parse: each flag's values as IMB 2021.11 reads them, and
// the errors.
func TestFlags2021Parse(t *testing.T) {
	o, err := ParseArgs([]string{"-msglog", "7", "-iter", "5,2", "-iter_policy", "auto", "-include", "Bcast,,Gather",
		"-exclude", "Barrier", "-imb", "2021", "-sync", "off", "-root_shift", "on"})
	if err != nil {
		t.Fatal(err)
	}
	f := o.F
	if !slices.Equal(f.MsgLog, []int{0, 7}) || !slices.Equal(f.Iter, []int{5, 2, 100}) || f.IterPolicy != "auto" ||
		!slices.Equal(f.Include, []string{"Bcast", "Gather"}) || f.IMB != "2021" || f.Sync != "off" || f.RootShift != "on" {
		t.Errorf("parsed %+v", f)
	}
	for _, bad := range [][]string{{"-msglog", "3:"}, {"-msglog", "1:2:3"}, {"-msglog", "-1"}, {"-iter", "5,,1"},
		{"-iter", "x"}, {"-include", ","}, {"-imb", "3.1"}, {"-sync", "true"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	if _, err := ParseArgs([]string{"-imb", "3.0"}); err != nil {
		t.Errorf("-imb 3.0: %v", err)
	}
}

// TestFlags2021Plan: settings, the list and the counts the flags give.
func TestFlags2021Plan(t *testing.T) {
	f := Flags2021{MsgLog: []int{2, 4}, Iter: []int{30, 1, 7}, ZeroSize: "off", WarmUp: "off"}
	set := f.settings(&MPI1Suite.Settings)
	if got := set.DefaultLengths(1); !slices.Equal(got, []int{4, 8, 16}) {
		t.Errorf("lengths %v", got)
	}
	if set.Repetitions(1<<19, NoMode) != 2 || set.Repetitions(0, NonAggregate) != 7 || set.NWarmup != 0 {
		t.Errorf("settings %+v", set)
	}
	if MPI1Suite.Settings.MsgsPerSample != 1000 || MPI1Suite.Settings.NoZero {
		t.Errorf("the suite's settings changed: %+v", MPI1Suite.Settings)
	}
	f = Flags2021{Include: []string{"gather"}, Exclude: []string{"PingPong", "Gather"}}
	names, err := f.selectNames(MPI1Suite, nil)
	if err != nil || len(names) != 12 || names[0] != "PingPing" {
		t.Errorf("-include gather -exclude PingPong,Gather: %v, %v", names, err)
	}
	bcast, _ := MPI1Suite.Lookup("Bcast")
	allreduce, _ := MPI1Suite.Lookup("Allreduce")
	f = Flags2021{IterPolicy: "auto", Iter: []int{100, 40, 100}, MsgLog: []int{0, 4}}
	set = f.settings(&MPI1Suite.Settings)
	// Bcast is rooted: round(100·16/(4·8+16)) = 33, down to a multiple of 4.
	if n := f.reps2021(set, bcast, 8, NoMode, 4); n != 32 || f.timed(bcast) {
		t.Errorf("auto, Bcast: %d repetitions, timed %v; want 32, untimed", n, f.timed(bcast))
	}
	if n := f.reps2021(set, allreduce, 8, NoMode, 4); n != 100 || !f.timed(allreduce) {
		t.Errorf("auto, Allreduce: %d repetitions; want 100 under the -time rule", n)
	}
}

// TestSuiteFlags: nbc, mpi4 and rma take the flags of IMB-NBC, IMB-MPI4
// and IMB-RMA 2021.11 (declare_args of src_cpp/NBC/NBC_suite.cpp,
// MPI4/MPI4_suite.cpp, RMA/RMA_suite.cpp; -include, -exclude, -list of
// src_cpp/imb.cpp) and refuse the others naming flag and suite; -iter_policy
// auto takes the HAS_ROOT benchmarks of NBC_benchmark.cpp and
// MPI4_benchmark.cpp; multiple_np counts Ibarrier at 2^max bytes.
func TestSuiteFlags(t *testing.T) {
	values := map[string]string{"msglog": "3:10", "iter": "100", "iter_policy": "auto", "zero_size": "off",
		"warm_up": "off", "include": "", "exclude": "", "list": "", "sync": "off", "root_shift": "on",
		"aggregate_mode": "aggregate"}
	intel := map[*Suite][]string{ // the flags each program declares
		NBCSuite:  {"msglog", "iter", "iter_policy", "zero_size", "warm_up", "include", "exclude", "list", "sync", "root_shift"},
		MPI4Suite: {"msglog", "iter", "iter_policy", "zero_size", "warm_up", "include", "exclude", "list", "sync", "root_shift"},
		RMASuite: {"msglog", "iter", "iter_policy", "warm_up", "include", "exclude", "list", "sync", "root_shift",
			"aggregate_mode"},
	}
	for s, takes := range intel {
		for name, v := range values {
			args := []string{"-" + name}
			switch name {
			case "include", "exclude":
				args = append(args, s.Table[0].Name)
			case "list":
			default:
				args = append(args, v)
			}
			o, err := ParseArgs(args)
			if err == nil {
				_, err = Resolve(s, o, 4, args)
			}
			switch {
			case slices.Contains(takes, name) && err != nil:
				t.Errorf("%s %v: %v", s.Name, args, err)
			case !slices.Contains(takes, name) && (err == nil || !strings.Contains(err.Error(), "-"+name) ||
				!strings.Contains(err.Error(), "not of "+s.Name)):
				t.Errorf("%s %v: error %v, want one naming -%s and %s", s.Name, args, err, name, s.Name)
			}
		}
	}
	f := Flags2021{IterPolicy: policyAuto, MsgLog: []int{0, 4}}
	set := f.settings(&NBCSuite.Settings)
	for _, c := range []struct {
		s    *Suite
		name string
		reps int // at 8 bytes on 2 processes, -iter 1000 (the default)
	}{
		{NBCSuite, "Ibcast", 500}, {NBCSuite, "Ireduce", 500}, {NBCSuite, "Ireduce_pure", 1000},
		{NBCSuite, "Igatherv_pure", 500}, {NBCSuite, "Iallreduce", 1000}, {MPI4Suite, "Scatter_persist_pure", 500},
		{MPI4Suite, "Reduce_persist_pure", 1000}, {RMASuite, "All_put_all", 1000},
	} {
		b, _ := c.s.Lookup(c.name)
		if n := f.reps2021(set, b, 8, NoMode, 2); n != c.reps {
			t.Errorf("-iter_policy auto: %s %d repetitions, want %d", c.name, n, c.reps)
		}
	}
	f.IterPolicy = policyMultipleNP
	ibarrier, _ := NBCSuite.Lookup("Ibarrier")
	if n := f.reps2021(set, ibarrier, 0, NoMode, 2); n != 332 { // round(1000·16/(2·16+16)) = 333, even
		t.Errorf("-iter_policy multiple_np: Ibarrier %d repetitions, want 332", n)
	}
}
